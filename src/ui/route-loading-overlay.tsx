import { Loader } from '@mantine/core'
import { useRouterState } from '@tanstack/react-router'

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
      style={{
        display: pending ? 'flex' : 'none',
        position: 'fixed',
        inset: 0,
        zIndex: 400,
        alignItems: 'center',
        justifyContent: 'center',
        background: 'rgba(255, 255, 255, 0.55)',
        backdropFilter: 'blur(1px)',
        animation: 'route-overlay-in 200ms ease 150ms both',
      }}
    >
      <style>{'@keyframes route-overlay-in{from{opacity:0}to{opacity:1}}'}</style>
      <Loader size="lg" />
    </div>
  )
}
