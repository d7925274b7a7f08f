import type { Device } from '../../src/domain/analytics.ts'
import { DIRECT_SOURCE } from '../../src/domain/analytics.ts'

/**
 * What a view is (docs/analytics.md): whether a robot asked, the device class, the source and the
 * Moscow day. Pure functions: the counter calls them on every view.
 */

/**
 * Robots and link previews, never counted: search engines' crawlers, messengers' and social
 * networks' previews (TelegramBot, vkShare, facebookexternalhit, WhatsApp, Slackbot…), monitoring
 * and command-line clients. The one list of them. Apps' own browsers (Telegram's, VK's,
 * LinkedIn's) are people: their names alone are not here, only their robots'.
 */
const BOTS = [
  'bot',
  'crawl',
  'spider',
  'slurp',
  'archiver',
  'facebookexternalhit',
  'facebookcatalog',
  'meta-externalagent',
  'vkshare',
  'whatsapp',
  'slack',
  'discord',
  'skypeuripreview',
  'viber',
  'embedly',
  'quora link preview',
  'outbrain',
  'yandeximages',
  'yandexmetrika',
  'yandexdirect',
  'yandexturbo',
  'google-inspectiontool',
  'googleother',
  'mediapartners-google',
  'adsbot',
  'feedfetcher',
  'lighthouse',
  'pagespeed',
  'headlesschrome',
  'phantomjs',
  'curl/',
  'wget/',
  'python-',
  'go-http-client',
  'okhttp',
  'java/',
  'apache-httpclient',
  'node-fetch',
  'axios/',
  'uptime',
  'monitor',
  'preview',
]
const BOT_PATTERN = new RegExp(
  BOTS.map((b) => b.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'),
  'i',
)

/** A robot or a link preview (or no User-Agent at all): not a visitor. */
export function isBot(userAgent: string | undefined): boolean {
  if (!userAgent || userAgent.length < 10) return true
  return BOT_PATTERN.test(userAgent)
}

const TABLET = /ipad|tablet|kindle|silk|playbook|nexus (7|9|10)|sm-t\d|android(?!.*mobile)/i
const PHONE = /mobi|iphone|ipod|android|windows phone|blackberry|opera mini|iemobile/i

/** Phone, tablet or computer, from the User-Agent. */
export function deviceOf(userAgent: string): Device {
  if (TABLET.test(userAgent)) return 'tablet'
  if (PHONE.test(userAgent)) return 'phone'
  return 'computer'
}

const SOURCE_MAX = 100

/** A host without `www.`, lower case. */
function bareHost(host: string): string {
  return host.toLowerCase().replace(/^www\./, '')
}

/**
 * Where a visit came from: its `utm_source`, else the referrer's domain (not the page's own
 * site), else DIRECT_SOURCE («прямые заходы»).
 */
export function sourceOf(
  utmSource: string | undefined | null,
  referrer: string | undefined | null,
  ownHost: string | undefined | null,
): string {
  const utm = utmSource?.trim().toLowerCase()
  if (utm) return utm.slice(0, SOURCE_MAX)
  if (!referrer) return DIRECT_SOURCE
  let host: string
  try {
    const url = new URL(referrer)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return DIRECT_SOURCE
    host = bareHost(url.hostname)
  } catch {
    return DIRECT_SOURCE
  }
  if (!host || (ownHost && host === bareHost(ownHost.replace(/:\d+$/, '')))) return DIRECT_SOURCE
  return host.slice(0, SOURCE_MAX)
}

const moscowDate = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Moscow',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
})
const HOUR_MS = 3_600_000
let keptHour = Number.NaN
let keptDay = ''

/**
 * The Moscow day (Europe/Moscow) of a moment, `YYYY-MM-DD`. Kept per hour of UTC: Moscow's
 * offset is whole hours, so one hour is all one day.
 */
export function moscowDay(ms: number): string {
  const hour = Math.floor(ms / HOUR_MS)
  if (hour !== keptHour) {
    keptDay = moscowDate.format(new Date(hour * HOUR_MS))
    keptHour = hour
  }
  return keptDay
}
