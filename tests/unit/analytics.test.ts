import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import {
  addDays,
  conversion,
  daysBetween,
  isDay,
  SummaryQuery,
} from '../../src/domain/analytics.ts'
import { deviceOf, isBot, moscowDay, sourceOf } from '../../server/analytics/classify.ts'

/** The pure rules of analytics (docs/analytics.md): robots, devices, sources, Moscow days. */
describe('classify', () => {
  it('knows robots and link previews, not people in apps', () => {
    for (const ua of [
      'TelegramBot (like TwitterBot)',
      'Mozilla/5.0 (compatible; vkShare; +http://vk.com/dev/Share)',
      'facebookexternalhit/1.1',
      'WhatsApp/2.23.20.0 A',
      'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
      'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)',
      'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
      'curl/8.5.0',
      '',
    ]) {
      expect(isBot(ua), ua).toBe(true)
    }
    for (const ua of [
      'Mozilla/5.0 (Linux; Android 13; SM-A515F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36 Telegram-Android/10.5.0',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 VKClient/8.70',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 YaBrowser/24.4 Safari/537.36',
    ]) {
      expect(isBot(ua), ua).toBe(false)
    }
  })

  it('tells phones, tablets and computers', () => {
    expect(deviceOf('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) Mobile/15E148')).toBe(
      'phone',
    )
    expect(deviceOf('Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/124.0 Mobile Safari')).toBe(
      'phone',
    )
    expect(deviceOf('Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) Mobile/15E148')).toBe('tablet')
    expect(deviceOf('Mozilla/5.0 (Linux; Android 13; SM-X200) Chrome/124.0 Safari')).toBe('tablet')
    expect(deviceOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) Safari/605.1.15')).toBe(
      'computer',
    )
  })

  it('takes utm_source, else the referrer domain, else direct', () => {
    expect(sourceOf(' VK ', 'https://google.com/', 'promo.ru')).toBe('vk')
    expect(sourceOf(null, 'https://www.Google.ru/search?q=x', 'promo.ru')).toBe('google.ru')
    expect(sourceOf('', 'https://promo.ru/p/other', 'promo.ru:443')).toBe('')
    expect(sourceOf(null, 'android-app://org.telegram.messenger/', null)).toBe('')
    expect(sourceOf(null, 'not a url', null)).toBe('')
    expect(sourceOf(null, null, null)).toBe('')
  })

  it('counts Moscow days', () => {
    expect(moscowDay(Date.parse('2026-03-10T20:59:59.999Z'))).toBe('2026-03-10')
    expect(moscowDay(Date.parse('2026-03-10T21:00:00Z'))).toBe('2026-03-11')
    expect(moscowDay(Date.parse('2026-12-31T21:30:00Z'))).toBe('2027-01-01')
    expect(moscowDay(Date.parse('2026-03-10T20:59:59.999Z'))).toBe('2026-03-10')
  })
})

describe('the summary query', () => {
  it('takes real days, in order, at most 366 of them', () => {
    expect(isDay('2024-02-29')).toBe(true)
    expect(isDay('2026-02-29')).toBe(false)
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01')
    expect(daysBetween('2026-03-30', '2026-04-01')).toEqual([
      '2026-03-30',
      '2026-03-31',
      '2026-04-01',
    ])
    const ok = v.safeParse(SummaryQuery, {
      workspace_id: '3',
      from: '2026-01-01',
      to: '2026-12-31',
      project_id: '7',
    })
    expect(ok.success && ok.output).toEqual({
      workspace_id: 3,
      from: '2026-01-01',
      to: '2026-12-31',
      project_id: 7,
    })
    expect(
      v.safeParse(SummaryQuery, { workspace_id: 3, from: '2026-01-02', to: '2026-01-01' }).success,
    ).toBe(false)
    expect(
      v.safeParse(SummaryQuery, { workspace_id: 3, from: '2025-01-01', to: '2026-01-02' }).success,
    ).toBe(false)
  })

  it('conversion is a fraction 0…1', () => {
    expect(conversion(1, 2)).toBe(0.5)
    expect(conversion(3, 0)).toBe(0)
    expect(conversion(5, 2)).toBe(1)
  })
})

describe('the screen', () => {
  it('exports CSV that Excel opens in Russian: BOM, semicolons, quoted cells', async () => {
    const { summaryCsv, lastDays, moscowToday } =
      await import('../../src/features/analytics/figures.ts')
    const csv = summaryCsv(
      {
        totals: { views: 3, visitors: 2, submissions: 1, clicks: 0, conversion: 0.5 },
        days: [],
        projects: [
          {
            project_id: 1,
            name: 'Акция; "лето"',
            views: 3,
            visitors: 2,
            submissions: 1,
            conversion: 0.5,
          },
        ],
        sources: [],
        devices: [],
      },
      {
        project: 'Страница',
        views: 'Просмотры',
        visitors: 'Посетители',
        requests: 'Заявки',
        conversion: 'Конверсия, %',
        total: 'Всего',
      },
    )
    expect(csv).toBe(
      '\uFEFFСтраница;Просмотры;Посетители;Заявки;Конверсия, %\r\n' +
        '"Акция; ""лето""";3;2;1;50\r\n' +
        'Всего;3;2;1;50\r\n',
    )
    expect(lastDays(7, '2026-03-03')).toEqual({ from: '2026-02-25', to: '2026-03-03' })
    expect(moscowToday(Date.parse('2026-03-10T21:00:00Z'))).toBe('2026-03-11')
  })
})
