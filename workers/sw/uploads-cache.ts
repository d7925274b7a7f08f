import { ExpirationPlugin } from 'workbox-expiration'
import { registerRoute } from 'workbox-routing'
import { CacheFirst } from 'workbox-strategies'

export const UPLOADS_CACHE = 'uploads'

/**
 * Uploaded images (backgrounds, image blocks, specialists' photos) never change under their name,
 * so the first copy is good forever: served from the cache first, which keeps the editor's canvas
 * drawn offline. Only 200 responses are stored (CacheFirst's default); the oldest go first when the
 * cache grows or the browser runs short of space.
 */
export function cacheUploads(): void {
  registerRoute(
    ({ url, request, sameOrigin }) =>
      sameOrigin && request.method === 'GET' && url.pathname.startsWith('/uploads/'),
    new CacheFirst({
      cacheName: UPLOADS_CACHE,
      plugins: [
        new ExpirationPlugin({
          maxEntries: 400,
          maxAgeSeconds: 60 * 24 * 60 * 60,
          purgeOnQuotaError: true,
        }),
      ],
    }),
  )
}
