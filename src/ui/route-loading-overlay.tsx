import { useRouterState } from '@tanstack/react-router'
import classes from './route-loading-overlay.module.css'

/**
 * Global overlay while a navigation is pending (loading a route chunk, running the auth check).
 * Always in the DOM with data-testid="loading-overlay"; hidden (display: none) once the navigation
 * resolves. It fades in after 150 ms so quick navigations never flash.
 */
export function RouteLoadingOverlay() {
  const pending = useRouterState({ select: (state) => state.status === 'pending' })
  return (
    <div
      data-testid="loading-overlay"
      data-visible={pending}
      aria-hidden={!pending}
      aria-busy={pending}
      className={classes.overlay}
      // Inline, so hidden means hidden even before the stylesheet applies.
      style={{ display: pending ? 'flex' : 'none' }}
    >
      <span className={classes.spinner} />
    </div>
  )
}
