import { ExpirationPlugin } from 'workbox-expiration'
import { registerRoute } from 'workbox-routing'
import { CacheFirst } from 'workbox-strategies'

export const UPLOADS_CACHE = 'uploads'

/** Uploaded videos: streamed by the browser in byte ranges, up to 100 MB each. */
const VIDEO = /\.(mp4|webm)$/i

/**
 * Uploaded images (backgrounds, image blocks, specialists' photos) never change under their name,
 * so the first copy is good forever: served from the cache first, which keeps the editor's canvas
 * drawn offline. Only 200 responses are stored (CacheFirst's default); the oldest go first when the
 * cache grows or the browser runs short of space.
 *
 * Videos go straight to the network: the browser asks for them in ranges (206, never cached), and
 * keeping whole videos would crowd the images out of the storage the editor needs offline. A video
 * still waiting for upload plays from IndexedDB.
 */
export function cacheUploads(): void {
  registerRoute(
    ({ url, request, sameOrigin }) =>
      sameOrigin &&
      request.method === 'GET' &&
      url.pathname.startsWith('/uploads/') &&
      !VIDEO.test(url.pathname),
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
