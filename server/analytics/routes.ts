import type { Context, Hono } from 'hono'
import { SummaryQuery } from '../../src/domain/analytics.ts'
import { SLUG_MAX } from '../../src/domain/publish.ts'
import { json } from '../http/answer.ts'
import { bodyLimit } from '../http/body-limit.ts'
import { clientAddress } from '../http/client-address.ts'
import type { AppEnv } from '../http/env.ts'
import { productRoutes } from '../http/routes/define.ts'
import { AppError } from '../services/errors.ts'
import type { Services } from '../services/services.ts'
import { parseInput } from '../services/validate.ts'
import { isBot } from './classify.ts'
import type { AnalyticsCounter, Visit } from './counter.ts'
import { summary, type SubmissionCounts } from './summary.ts'

/**
 * The visit a request of a published page is, or null when it is not counted
 * (docs/analytics.md): a HEAD, a robot or link preview, the app's own preview (`?preview`, or
 * opened from the app: a referrer of the same host outside `/p/`).
 */
export function visitOf(c: Context<AppEnv>, trustedProxies: number): Visit | null {
  if (c.req.method !== 'GET' && c.req.method !== 'POST') return null
  const userAgent = c.req.header('User-Agent') ?? ''
  if (isBot(userAgent)) return null
  const url = new URL(c.req.url)
  if (url.searchParams.has('preview')) return null
  const host = c.req.header('Host') ?? url.host
  const referrer = c.req.header('Referer') ?? null
  if (referrer && c.req.method === 'GET') {
    try {
      const from = new URL(referrer)
      if (from.host === host && !from.pathname.startsWith('/p/')) return null
    } catch {
      // Not an address: no source either (sourceOf).
    }
  }
  return {
    address: clientAddress(c, trustedProxies),
    userAgent,
    utmSource: url.searchParams.get('utm_source'),
    referrer,
    host,
  }
}

const SLUG_PATH = new RegExp(`^[a-z0-9-]{1,${SLUG_MAX}}$`)
const BEACON_MAX_BYTES = 4 * 1024
/** How long the beacon route trusts what it read of a slug. */
const SLUG_TTL_MS = 60_000

/**
 * `POST /p/{slug}/beacon` (docs/API.md, "Analytics"): the page's script tells of a click on a
 * button, with the visit's `utm_source` (`s`) and referrer (`r`) as a form. Always `204`: a
 * visitor's browser has nothing to do with the answer.
 */
export function beaconRoute(
  app: Hono<AppEnv>,
  services: () => Promise<Services>,
  counter: AnalyticsCounter,
  trustedProxies: number,
): void {
  const slugs = new Map<string, { at: number; project: number | null }>()
  const projectOf = async (slug: string): Promise<number | null> => {
    const kept = slugs.get(slug)
    if (kept && Date.now() - kept.at < SLUG_TTL_MS) return kept.project
    const page = await (await services()).pages.version(slug)
    slugs.set(slug, { at: Date.now(), project: page?.project_id ?? null })
    if (slugs.size > 10_000) slugs.delete(slugs.keys().next().value!)
    return page?.project_id ?? null
  }
  const noContent = () => new Response(null, { status: 204 })
  app.post(
    '/p/:slug/beacon',
    bodyLimit({ maxSize: BEACON_MAX_BYTES, onError: () => noContent() }),
    async (c) => {
      const slug = c.req.param('slug')
      if (!SLUG_PATH.test(slug)) return noContent()
      const visit = visitOf(c, trustedProxies)
      if (!visit) return noContent()
      const project = await projectOf(slug)
      if (project === null) return noContent()
      const form = new URLSearchParams(await c.req.text().catch(() => ''))
      counter.click(project, {
        ...visit,
        utmSource: form.get('s')?.slice(0, 200) ?? null,
        referrer: form.get('r')?.slice(0, 2048) || null,
      })
      return noContent()
    },
  )
}

/** `GET /api/analytics/summary` (docs/API.md, "Analytics"): members of the workspace only. */
export function analyticsApiRoutes(api: Hono<AppEnv>, submissions: SubmissionCounts): void {
  const { query } = productRoutes(api)
  query('/analytics/summary', async (c) => {
    const q = parseInput(SummaryQuery, c.req.query())
    const services = c.get('services')
    await services.workspaces.assertMember(c.get('user').id, q.workspace_id)
    const origin = services.pages.origin.value
    const ownHost = origin ? new URL(origin).host : null
    const answer = await summary(services.db, q, submissions, ownHost)
    if (!answer) throw AppError.notFound()
    return json(answer)
  })
}
