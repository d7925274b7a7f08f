import type { Context, Hono } from 'hono'
import * as v from 'valibot'
import { ERROR_CODES } from '../../src/domain/api-error.ts'
import { requestFieldsOf } from '../../src/domain/block.ts'
import { UTM_KEYS, VisitorRequestInput } from '../../src/domain/visitor-request.ts'
import { bodyLimit } from '../http/body-limit.ts'
import { clientAddress } from '../http/client-address.ts'
import type { AppEnv } from '../http/env.ts'
import { errorMessage, fieldMessage } from '../common/messages.ts'
import type { Services } from '../services/services.ts'
import { answer, type PageRoutes } from './page-route.ts'
import type { Submission, SubmissionSink } from './submission.ts'

/** How many requests one address, and one page, may send in a window (docs/requests.md). */
export interface RequestLimits {
  perAddress: number
  perPage: number
  windowMs: number
}
export const DEFAULT_REQUEST_LIMITS: RequestLimits = {
  perAddress: 10,
  perPage: 600,
  windowMs: 10 * 60_000,
}

const BODY_MAX_BYTES = 64 * 1024

/** Requests counted per key in fixed windows, per instance. */
class WindowCounter {
  private counts = new Map<string, { start: number; n: number }>()
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}
  /** Counts one; the seconds to wait when over the limit, else 0. */
  take(key: string): number {
    const now = this.now()
    const kept = this.counts.get(key)
    if (!kept || now - kept.start >= this.windowMs) {
      this.counts.set(key, { start: now, n: 1 })
      if (this.counts.size > 50_000) this.sweep(now)
      return 0
    }
    kept.n += 1
    return kept.n > this.limit ? Math.ceil((kept.start + this.windowMs - now) / 1000) : 0
  }
  private sweep(now: number) {
    for (const [key, { start }] of this.counts) {
      if (now - start >= this.windowMs) this.counts.delete(key)
    }
  }
}

async function readBody(c: Context<AppEnv>): Promise<Record<string, unknown> | null> {
  const type = c.req.header('Content-Type') ?? ''
  // At most BODY_MAX_BYTES: the route's body limit has refused anything longer.
  const bytes = new Uint8Array(await c.req.arrayBuffer())
  const text = new TextDecoder().decode(bytes)
  if (/^application\/json\b/i.test(type)) {
    try {
      const parsed: unknown = JSON.parse(text || '{}')
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
        ? (parsed as Record<string, unknown>)
        : null
    } catch {
      return null
    }
  }
  if (/^application\/x-www-form-urlencoded\b/i.test(type) || type === '') {
    return Object.fromEntries(new URLSearchParams(text))
  }
  return null
}

/** The visit's UTM parameters from the page's address a form sent without JavaScript came from. */
function utmFromReferer(referer: string | undefined, slug: string): Record<string, string> {
  if (!referer) return {}
  try {
    const url = new URL(referer)
    if (!url.pathname.startsWith(`/p/${slug}`)) return {}
    const out: Record<string, string> = {}
    for (const key of UTM_KEYS) {
      const value = url.searchParams.get(key)
      if (value) out[key] = value.slice(0, 200)
    }
    return out
  } catch {
    return {}
  }
}

/**
 * `POST /p/{slug}/submit` (docs/requests.md, docs/API.md "Visitors' requests"): a form of a
 * published page, urlencoded (a form sent without JavaScript: answered with a page) or JSON (the
 * page's script: answered with JSON). Checked against the shared rules, held to the limits per
 * address and per page, judged for spam (the honeypot, a form sent within 3 s of being served),
 * and handed to the sink, which stores it once per submission id.
 */
export function submitRoutes(
  app: Hono<AppEnv>,
  pages: PageRoutes,
  services: () => Promise<Services>,
  sink: () => Promise<SubmissionSink>,
  options: { limits?: Partial<RequestLimits>; trustedProxies: number; now?: () => number },
): void {
  const limits = { ...DEFAULT_REQUEST_LIMITS, ...options.limits }
  const now = options.now ?? Date.now
  const perAddress = new WindowCounter(limits.perAddress, limits.windowMs, now)
  const perPage = new WindowCounter(limits.perPage, limits.windowMs, now)

  app.post(
    '/p/:slug/submit',
    bodyLimit({
      maxSize: BODY_MAX_BYTES,
      onError: (c) => c.text(errorMessage('too_large'), 413),
    }),
  )
  app.post('/p/:slug/submit', async (c) => {
    const slug = c.req.param('slug')
    const json =
      /^application\/json\b/i.test(c.req.header('Content-Type') ?? '') ||
      /application\/json/i.test(c.req.header('Accept') ?? '')
    const found = await pages.published(c, slug)
    if (!found) {
      return json
        ? c.json({ error: { code: ERROR_CODES.notFound, message: errorMessage('not_found') } }, 404)
        : pages.notFound(c)
    }
    const { page, input, renderer } = found
    const body = await readBody(c)
    const refuse = (fields: Record<string, string>, values: Record<string, unknown> = {}) => {
      if (json) {
        return c.json(
          {
            error: {
              code: ERROR_CODES.validation,
              message: errorMessage('validation'),
              fields,
            },
          },
          422,
        )
      }
      const blockId = Number(values.block_id)
      const rendered = renderer.renderFormPage(input, blockId, fields, {
        name: typeof values.name === 'string' ? values.name : '',
        phone: typeof values.phone === 'string' ? values.phone : '',
        comment: typeof values.comment === 'string' ? values.comment : '',
        consent: values.consent === 'on' || values.consent === true,
      })
      if (!rendered) return pages.notFound(c)
      return pages.sendStamped(c, rendered, slug, 422)
    }
    if (!body) return refuse({ _: errorMessage('bad_request_body') })

    const parsed = v.safeParse(VisitorRequestInput, body)
    if (!parsed.success) {
      const fields: Record<string, string> = {}
      for (const issue of parsed.issues) {
        const key = issue.path?.map((p) => String(p.key)).join('.') ?? '_'
        if (!(key in fields)) {
          fields[key] = fieldMessage({ code: issue.message, requirement: issue.requirement })
        }
      }
      // A field the visitor never sees is not theirs to fix.
      if (fields.form_token || fields.submission_id || fields.website || fields.block_id) {
        fields._ = errorMessage('form_broken')
      }
      return refuse(fields, body)
    }
    const request = parsed.output
    const block = page.snapshot.blocks.find((b) => b.id === request.block_id)
    // What the request keeps of its block is the block type's (src/domain/blocks/<type>.ts); a
    // block that takes no requests has no form.
    const kept = block ? requestFieldsOf(block) : null
    if (!block || !kept) return refuse({ _: errorMessage('form_broken') }, body)

    const address = clientAddress(c, options.trustedProxies)
    const wait = Math.max(perAddress.take(address), perPage.take(slug))
    if (wait > 0) {
      if (json) {
        return c.json(
          { error: { code: ERROR_CODES.rateLimited, message: errorMessage('requests_limited') } },
          429,
          { 'Retry-After': String(wait) },
        )
      }
      const { html, csp } = renderer.renderNoticePage(input, 'limited')
      return answer(c, html, 429, {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': csp,
        'Retry-After': String(wait),
        'Cache-Control': 'no-store',
      })
    }

    const verdict = (await services()).formTokens.check(request.form_token, slug)
    if (verdict === 'invalid' || verdict === 'expired') {
      if (json) return refuse({ _: errorMessage('form_expired') })
      const { html, csp } = renderer.renderNoticePage(input, 'expired')
      return answer(c, html, 422, {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': csp,
        'Cache-Control': 'no-store',
      })
    }
    const spam = verdict === 'too_fast' || request.website.trim() !== ''

    const utm: Submission['utm'] = utmFromReferer(c.req.header('Referer'), slug)
    for (const key of UTM_KEYS) if (request[key]) utm[key] = request[key]
    const submission: Submission = {
      workspace_id: page.workspace_id,
      project_id: page.project_id,
      block_id: block.id,
      kind: block.type as Submission['kind'],
      name: request.name,
      phone: request.phone,
      email: request.email,
      comment: request.comment,
      ...kept,
      utm,
      referrer: request.referrer,
      page_url: input.url,
      project_name: page.snapshot.project.name,
      submission_id: request.submission_id,
      ip: address,
      user_agent: (c.req.header('User-Agent') ?? '').slice(0, 500),
      spam,
    }
    const { id } = await (await sink()).submit(submission)
    if (json) return c.json({ id, status: 'accepted' }, 201)
    return c.redirect(`/p/${slug}/thanks?block=${block.id}`, 303)
  })

  app.get('/p/:slug/thanks', async (c) => {
    const found = await pages.published(c, c.req.param('slug'))
    if (!found) return pages.notFound(c)
    const rendered = found.renderer.renderThanksPage(found.input, Number(c.req.query('block')))
    if (!rendered) return pages.notFound(c)
    return answer(c, rendered.html, 200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': rendered.csp,
      'Cache-Control': 'no-store',
    })
  })
}
