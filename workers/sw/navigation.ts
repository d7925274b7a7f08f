import { createHandlerBoundToURL } from 'workbox-precaching'
import { NavigationRoute, registerRoute } from 'workbox-routing'

/**
 * Navigations that are not client routes: the API, uploaded files, published pages, and any path whose last segment
 * has an extension (a file such as /sw.js or /manifest.webmanifest opened directly).
 */
export const NOT_CLIENT_ROUTES: readonly RegExp[] = [
  /^\/api(\/|$)/,
  /^\/uploads(\/|$)/,
  // Published pages (docs/publishing.md) are the server's, online only.
  /^\/p(\/|$)/,
  /\/[^/]+\.[^/]+$/,
]

/** Whether a navigation to this path should get the app shell (index.html). */
export function isClientRoute(pathname: string): boolean {
  return !NOT_CLIENT_ROUTES.some((re) => re.test(pathname))
}

/**
 * Every client route (/projects, /department/12, /pages/login?to=…) is answered with the precached
 * index.html, online or not: the router in the page takes it from there, and the page checks the
 * session itself (offline with a stored token = signed in, docs/app-shell.md
 * "Guard (src/features/auth/guard.ts, pure)").
 */
export function routeClientNavigations(): void {
  registerRoute(
    new NavigationRoute(createHandlerBoundToURL('index.html'), {
      denylist: [...NOT_CLIENT_ROUTES],
    }),
  )
}
