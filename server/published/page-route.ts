import { promisify } from 'node:util'
import { brotliCompress, constants as zlib, gzip } from 'node:zlib'
import type { Context, Hono } from 'hono'
import { SLUG_MAX } from '../../src/domain/publish.ts'
import type { AppEnv } from '../http/env.ts'
import { errorMessage } from '../http/messages.ts'
import { acceptedEncoding } from '../http/static.ts'
import type { Services } from '../services/services.ts'
import type { PageRenderer } from './renderer.ts'

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

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
  raw: Buffer
  br: Promise<Buffer>
  gzip: Promise<Buffer>
}

interface Lookup {
  at: number
  /** null: no published page at this slug. */
  page: { project_id: number; published_version: number } | null
}

/** A response without its body to a HEAD. */
function answer(
  c: Context<AppEnv>,
  body: string | Uint8Array<ArrayBuffer> | null,
  status: number,
  headers: Record<string, string>,
): Response {
  return new Response(c.req.method === 'HEAD' ? null : body, { status, headers })
}

const SLUG_PATH = new RegExp(`^[a-z0-9-]{1,${SLUG_MAX}}$`)

/**
 * `GET /p/{slug}` and `HEAD` (docs/publishing.md, docs/API.md "Published pages"): the page of a
 * published snapshot, rendered once per published version and kept with its brotli and gzip
 * copies; `ETag` per version (and build of the renderer), `304` on `If-None-Match`. No sign-in,
 * no cookies. Any instance serves any page: the snapshot is read from the database.
 */
export function pageRoutes(
  app: Hono<AppEnv>,
  services: () => Promise<Services>,
  renderer: Promise<PageRenderer | null>,
): { forget(slug?: string): void } {
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

  const render = async (
    slug: string,
    etag: string,
    origin: string,
    r: PageRenderer,
  ): Promise<RenderedVersion | null> => {
    const kept = rendered.get(slug)
    if (kept?.etag === etag) return kept
    const key = `${slug} ${etag}`
    let pending = rendering.get(key)
    if (!pending) {
      pending = (async () => {
        const s = await services()
        const page = await s.pages.find(slug)
        if (!page) return null
        const url = `${s.pages.origin.value ?? origin}/p/${slug}`
        const { html, csp } = r.renderPage({
          snapshot: page.snapshot,
          url,
          origin: s.pages.origin.value ?? origin,
        })
        const raw = Buffer.from(html)
        const version: RenderedVersion = {
          etag: `"${page.project_id}.${page.published_version}.${r.revision}"`,
          csp,
          raw,
          br: brotli(raw, {
            params: {
              [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
              [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length,
            },
          }),
          gzip: gzipAsync(raw, { level: 9 }),
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

  const notFound = (c: Context<AppEnv>, r: PageRenderer | null) => {
    const headers = {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': NOT_FOUND_CACHE_CONTROL,
      ...(r ? { 'Content-Security-Policy': r.NOT_FOUND_CSP } : {}),
    }
    const body = r ? r.renderNotFound() : errorMessage('not_found')
    return answer(c, body, 404, headers)
  }

  const handler = async (c: Context<AppEnv>) => {
    const r = await renderer
    const slug = c.req.param('slug') ?? ''
    if (!SLUG_PATH.test(slug)) return notFound(c, r)
    if (!r) {
      return answer(c, errorMessage('page_unavailable'), 503, {
        'Content-Type': 'text/plain; charset=utf-8',
        'Retry-After': '30',
      })
    }
    const page = await lookup(slug)
    if (!page) return notFound(c, r)
    const etag = `"${page.project_id}.${page.published_version}.${r.revision}"`
    const common = {
      ETag: etag,
      'Cache-Control': PAGE_CACHE_CONTROL,
      Vary: 'Accept-Encoding',
    }
    const asked = c.req.header('If-None-Match')
    if (asked && asked.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
      return answer(c, null, 304, common)
    }
    const version = await render(slug, etag, new URL(c.req.url).origin, r)
    if (!version) {
      lookups.delete(slug)
      return notFound(c, r)
    }
    const encoding = acceptedEncoding(c.req.header('Accept-Encoding'))
    const body = encoding ? await version[encoding === 'br' ? 'br' : 'gzip'] : version.raw
    const headers: Record<string, string> = {
      ...common,
      ETag: version.etag,
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': version.csp,
      'Content-Length': String(body.length),
    }
    if (encoding) headers['Content-Encoding'] = encoding
    return answer(c, new Uint8Array(body), 200, headers)
  }
  app.get('/p/:slug', handler)
  app.get('/p/:slug/', handler)
  app.all('/p/*', async (c) => notFound(c, await renderer))

  return {
    /** This instance changed a page: it is read afresh on its next request. */
    forget(slug?: string) {
      if (slug === undefined) lookups.clear()
      else lookups.delete(slug)
    },
  }
}
