import { I18nProvider } from '@lingui/react'
import { MantineProvider } from '@mantine/core'
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router'
import { render } from '@testing-library/react'
import type { ReactNode } from 'react'
import { i18n } from '../../../src/app/i18n.ts'
import { NotificationHost } from '../../../src/ui/notification-host.tsx'

/** jsdom lacks what Mantine measures with. */
export function installBrowserStubs(): void {
  if (!window.matchMedia) {
    window.matchMedia = (query: string) =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => undefined,
        removeListener: () => undefined,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        dispatchEvent: () => false,
      }) as MediaQueryList
  }
  if (!('ResizeObserver' in window)) {
    class NoopResizeObserver {
      observe() {}
      unobserve() {}
      disconnect() {}
    }
    Object.assign(window, { ResizeObserver: NoopResizeObserver })
  }
  Element.prototype.scrollIntoView ??= () => undefined
  window.scrollTo = () => undefined
}

/**
 * Renders `ui` at `path` inside Mantine, Lingui (Russian) and a memory router. With
 * `mantine: false` there is no MantineProvider above the page, as for the app's Mantine-free
 * screens (the projects list): anything that needs Mantine must bring its own MantineScope.
 */
export async function renderInApp(
  ui: () => ReactNode,
  path = '/',
  { mantine = true }: { mantine?: boolean } = {},
) {
  installBrowserStubs()
  const rootRoute = createRootRoute()
  const page = createRoute({ getParentRoute: () => rootRoute, path: '$', component: ui })
  const index = createRoute({ getParentRoute: () => rootRoute, path: '/', component: ui })
  const router = createRouter({
    routeTree: rootRoute.addChildren([index, page]),
    history: createMemoryHistory({ initialEntries: [path] }),
  })
  await router.load()
  const app = (
    <I18nProvider i18n={i18n}>
      <NotificationHost />
      <RouterProvider router={router as never} />
    </I18nProvider>
  )
  const result = render(mantine ? <MantineProvider>{app}</MantineProvider> : app)
  return { ...result, router }
}
