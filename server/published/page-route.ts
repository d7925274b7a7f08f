import { randomBytes } from 'node:crypto'
import type { Context, Hono } from 'hono'
import { SLUG_MAX } from '../../src/domain/publish.ts'
import type { AppEnv } from '../http/env.ts'
import { errorMessage } from '../common/messages.ts'
import { acceptedEncoding } from '../http/static.ts'
import type { Services } from '../services/services.ts'
import type { PublishedPage } from '../storage/pages.ts'
import type { PageRenderer, Rendered, RenderInput } from './renderer.ts'
import { stamp, stampedPage, type StampedPage } from './stamped-page.ts'
import { PageFonts, type FontCut } from './page-fonts.ts'

/** A CDN may keep a page a minute, and serve it stale for ten while it asks again. */
export const PAGE_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=600'
const NOT_FOUND_CACHE_CONTROL = 'public, max-age=10'
/** How long an instance trusts what it last read of a slug (another instance may publish). */
const LOOKUP_TTL_MS = 1_000
/** Rendered pages kept per instance (the most recently served). */
const KEPT_PAGES = 500

interface RenderedVersion {
  etag: string
  csp: string
  version: number
  /** The page's own font files by name (page-fonts.ts). */
  fonts: Map<string, FontCut>
  page: StampedPage
}

interface Lookup {
  at: number
  /** null: no published page at this slug. */
  page: { project_id: number; published_version: number } | null
}

const SLUG_PATH = new RegExp(`^[a-z0-9-]{1,${SLUG_MAX}}$`)

/** A response without its body to a HEAD. */
export function answer(
  c: Context<AppEnv>,
  body: string | Uint8Array<ArrayBuffer> | null,
  status: number,
  headers: Record<string, string>,
): Response {
  return new Response(c.req.method === 'HEAD' ? null : body, { status, headers })
}

/** Published pages' routes and what the submit route needs of them. */
export interface PageRoutes {
  /** This instance changed a page: it is read afresh on its next request. */
  forget(): void
  /** A page of the published project's own (a form with errors, a thank-you), stamped. */
  sendStamped(
    c: Context<AppEnv>,
    rendered: Rendered,
    slug: string,
    status: number,
  ): Promise<Response>
  /** The published page at a slug with its rendering input, or null. */
  published(
    c: Context<AppEnv>,
    slug: string,
  ): Promise<{ page: PublishedPage; input: RenderInput; renderer: PageRenderer } | null>
  notFound(c: Context<AppEnv>): Promise<Response>
}

/**
 * `GET /p/{slug}` and `HEAD` (docs/publishing.md, docs/API.md "Published pages"): the page of a
 * published snapshot, rendered once per published version and kept compressed; each answer
 * stamped with its forms' own token and submission id (stamped-page.ts). `ETag` per version (and
 * build of the renderer), `304` on `If-None-Match`. No sign-in, no cookies. Any instance serves
 * any page: the snapshot is read from the database.
 */
export function pageRoutes(
  app: Hono<AppEnv>,
  services: () => Promise<Services>,
  renderer: Promise<PageRenderer | null>,
  /** A page is answered (200 or 304): the analytics count it (docs/analytics.md). */
  onView: (c: Context<AppEnv>, projectId: number) => void = () => undefined,
): PageRoutes {
  const lookups = new Map<string, Lookup>()
  const rendered = new Map<string, RenderedVersion>()
  const rendering = new Map<string, Promise<RenderedVersion | null>>()

  const lookup = async (slug: string): Promise<Lookup['page']> => {
    const kept = lookups.get(slug)
    if (kept && Date.now() - kept.at < LOOKUP_TTL_MS) return kept.page
    const page = await (await services()).pages.version(slug)
    lookups.set(slug, { at: Date.now(), page })
    if (lookups.size > 10_000) lookups.delete(lookups.keys().next().value!)
    return page
  }

  const inputOf = async (c: Context<AppEnv>, page: PublishedPage): Promise<RenderInput> => {
    const origin = (await services()).pages.origin.value ?? new URL(c.req.url).origin
    return { snapshot: page.snapshot, slug: page.slug, url: `${origin}/p/${page.slug}`, origin }
  }

  const render = async (
    c: Context<AppEnv>,
    slug: string,
    etag: string,
    r: PageRenderer,
  ): Promise<RenderedVersion | null> => {
    const kept = rendered.get(slug)
    if (kept?.etag === etag) return kept
    const key = `${slug} ${etag}`
    let pending = rendering.get(key)
    if (!pending) {
      pending = (async () => {
        const page = await (await services()).pages.find(slug)
        if (!page) return null
        const { html, csp, fonts } = r.renderPage({
          ...(await inputOf(c, page)),
          fontBase: `/p/${slug}/fonts/${page.published_version}/`,
        })
        const version: RenderedVersion = {
          etag: `"${page.project_id}.${page.published_version}.${r.revision}"`,
          csp,
          version: page.published_version,
          fonts: new Map((fonts ?? []).map(({ file, ...cut }) => [file, cut])),
          page: stampedPage(html, r.FORM_SLOTS),
        }
        rendered.delete(slug)
        rendered.set(slug, version)
        if (rendered.size > KEPT_PAGES) rendered.delete(rendered.keys().next().value!)
        return version
      })()
      rendering.set(key, pending)
      void pending.finally(() => rendering.delete(key)).catch(() => undefined)
    }
    return pending
  }

  /** The body of one answer: its forms stamped with a fresh token and submission id. */
  const body = async (
    c: Context<AppEnv>,
    page: StampedPage,
    slug: string,
    r: PageRenderer,
  ): Promise<{ bytes: Buffer; encoding: 'br' | 'gzip' | null }> => {
    const encoding = acceptedEncoding(c.req.header('Accept-Encoding'))
    const tokens = (await services()).formTokens
    const token = page.slots.length > 0 ? tokens.issue(slug) : ''
    const submission = randomBytes(12).toString('base64url')
    const value = (slot: string) => (slot === r.FORM_TOKEN_SLOT ? token : submission)
    return { bytes: await stamp(page, value, encoding), encoding }
  }

  const notFound = async (c: Context<AppEnv>) => {
    const r = await renderer
    const headers = {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': NOT_FOUND_CACHE_CONTROL,
      ...(r ? { 'Content-Security-Policy': r.NOT_FOUND_CSP } : {}),
    }
    return answer(c, r ? r.renderNotFound() : errorMessage('not_found'), 404, headers)
  }

  const unavailable = (c: Context<AppEnv>) =>
    answer(c, errorMessage('page_unavailable'), 503, {
      'Content-Type': 'text/plain; charset=utf-8',
      'Retry-After': '30',
    })

  const handler = async (c: Context<AppEnv>) => {
    const r = await renderer
    const slug = c.req.param('slug') ?? ''
    if (!SLUG_PATH.test(slug)) return notFound(c)
    if (!r) return unavailable(c)
    const page = await lookup(slug)
    if (!page) return notFound(c)
    const etag = `"${page.project_id}.${page.published_version}.${r.revision}"`
    const common = {
      ETag: etag,
      'Cache-Control': PAGE_CACHE_CONTROL,
      Vary: 'Accept-Encoding',
    }
    onView(c, page.project_id)
    const asked = c.req.header('If-None-Match')
    if (asked && asked.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
      // The browser keeps the 304's headers with the page it has: without the page's own policy
      // the app's would be added (server/http/security.ts) and block the page's script.
      return answer(c, null, 304, { ...common, 'Content-Security-Policy': r.PAGE_CSP })
    }
    const version = await render(c, slug, etag, r)
    if (!version) {
      lookups.delete(slug)
      return notFound(c)
    }
    const { bytes, encoding } = await body(c, version.page, slug, r)
    const headers: Record<string, string> = {
      ...common,
      ETag: version.etag,
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': version.csp,
      'Content-Length': String(bytes.length),
    }
    if (encoding) headers['Content-Encoding'] = encoding
    return answer(c, new Uint8Array(bytes), 200, headers)
  }

  const published: PageRoutes['published'] = async (c, slug) => {
    const r = await renderer
    if (!r || !SLUG_PATH.test(slug)) return null
    const page = await (await services()).pages.find(slug)
    if (!page) return null
    return { page, input: await inputOf(c, page), renderer: r }
  }

  const sendStamped: PageRoutes['sendStamped'] = async (c, { html, csp }, slug, status) => {
    const r = await renderer
    if (!r) return unavailable(c)
    // Made for one answer: brotli at a quality that costs a millisecond, not tens.
    const page = stampedPage(html, r.FORM_SLOTS, { brotliQuality: 5 })
    const { bytes, encoding } = await body(c, page, slug, r)
    const headers: Record<string, string> = {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': csp,
      'Cache-Control': 'no-store',
      'Content-Length': String(bytes.length),
      Vary: 'Accept-Encoding',
    }
    if (encoding) headers['Content-Encoding'] = encoding
    return answer(c, new Uint8Array(bytes), status, headers)
  }

  app.get('/p/:slug', handler)
  app.get('/p/:slug/', handler)
  // The page's own fonts, cut to its characters: any instance makes them from the snapshot.
  const fonts = new PageFonts()
  app.get('/p/:slug/fonts/:version/:file', async (c) => {
    const r = await renderer
    const slug = c.req.param('slug')
    if (!r || !SLUG_PATH.test(slug)) return notFound(c)
    const page = await lookup(slug)
    const asked = Number(c.req.param('version'))
    if (!page || page.published_version !== asked) return notFound(c)
    const etag = `"${page.project_id}.${page.published_version}.${r.revision}"`
    const version = await render(c, slug, etag, r)
    const cut = version?.version === asked ? version.fonts.get(c.req.param('file')) : undefined
    if (!cut) return notFound(c)
    const bytes = await fonts.cut(cut)
    return answer(c, new Uint8Array(bytes), 200, {
      'Content-Type': 'font/woff2',
      'Cache-Control': 'public, max-age=31536000, immutable',
      'Content-Length': String(bytes.length),
      'Access-Control-Allow-Origin': '*',
    })
  })

  app.get('/p/:slug/privacy', async (c) => {
    const found = await published(c, c.req.param('slug'))
    if (!found) return (await renderer) ? notFound(c) : unavailable(c)
    const { html, csp } = found.renderer.renderPrivacyPage(found.input)
    return answer(c, html, 200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': csp,
      'Cache-Control': PAGE_CACHE_CONTROL,
    })
  })

  return {
    forget: () => lookups.clear(),
    sendStamped,
    published,
    notFound,
  }
}
