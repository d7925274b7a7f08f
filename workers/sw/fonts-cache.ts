import { ExpirationPlugin } from 'workbox-expiration'
import { registerRoute } from 'workbox-routing'
import { CacheFirst } from 'workbox-strategies'

export const FONTS_CACHE = 'fonts'

/** What the route needs to know of a request (workbox's RouteMatchCallbackOptions has more). */
export interface FontRequestInfo {
  url: URL
  request: Pick<Request, 'method' | 'destination'>
  sameOrigin: boolean
}

const FONT_FILE = /\.(woff2?|ttf|otf)$/i

/**
 * The app's own font files: fetched as fonts (a FontFace or an @font-face) or named like one. Never
 * the API, whatever it answers, and never another origin's files.
 */
export function isFontRequest({ url, request, sameOrigin }: FontRequestInfo): boolean {
  if (!sameOrigin || request.method !== 'GET') return false
  if (/^\/api(\/|$)/.test(url.pathname)) return false
  return request.destination === 'font' || FONT_FILE.test(url.pathname)
}

/**
 * The editor's web fonts are not precached (most users never open the editor, and the precache
 * stays lean): each file is cached the first time the editor loads it, and served from the cache
 * from then on, so the canvas keeps its fonts offline. The files have hashed names and never
 * change; a handful of families × weights × subsets fit well within the limit, which leaves room
 * for the old files of a few releases before they expire.
 */
export function cacheFonts(): void {
  registerRoute(
    isFontRequest,
    new CacheFirst({
      cacheName: FONTS_CACHE,
      plugins: [
        new ExpirationPlugin({
          maxEntries: 80,
          maxAgeSeconds: 365 * 24 * 60 * 60,
          purgeOnQuotaError: true,
        }),
      ],
    }),
  )
}
