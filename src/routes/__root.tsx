import { createRootRouteWithContext, Outlet } from '@tanstack/react-router'
import type { RouterContext } from '../features/auth/index.ts'
import { NavigationChrome } from '../ui/navigation-chrome.tsx'

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Root,
})

function Root() {
  return (
    <NavigationChrome>
      <Outlet />
    </NavigationChrome>
  )
}
