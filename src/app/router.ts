import { createRouter, type RouterHistory } from '@tanstack/react-router'
import { session, setLateUnauthorizedHandler } from '../features/auth/index.ts'
import { routeTree } from '../routeTree.gen.ts'
import { RouteErrorScreen } from '../ui/error-screens.tsx'
import { NotFoundRedirect } from '../ui/not-found-redirect.tsx'

export function createAppRouter(options: { history?: RouterHistory } = {}) {
  const router = createRouter({
    routeTree,
    history: options.history,
    context: { session },
    defaultPreload: 'intent',
    defaultPreloadStaleTime: 0,
    defaultErrorComponent: RouteErrorScreen,
    defaultNotFoundComponent: NotFoundRedirect,
    notFoundMode: 'root',
    // Every navigation starts at the top of the page (docs/app-shell.md "Routes (src/routes)").
    scrollRestoration: false,
  })
  // check_auth answered 401 after its screen had painted from the device (lie-fi): the lock screen
  // signs the same person in again; nothing on the device is touched.
  setLateUnauthorizedHandler(() => void router.navigate({ to: '/pages/lock-screen' }))
  router.subscribe('onResolved', (event) => {
    if (event.pathChanged || event.hrefChanged) window.scrollTo(0, 0)
  })
  return router
}

export type AppRouter = ReturnType<typeof createAppRouter>

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter
  }
  interface StaticDataRouteOption {
    /**
     * The page draws without Mantine (hand-written components only), so the main layout renders
     * it directly instead of inside a MantineScope, and its first load carries no Mantine code.
     */
    mantineFree?: boolean
  }
}
