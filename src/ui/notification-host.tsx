import { lazy, useSyncExternalStore } from 'react'
import { MantineScope } from './mantine-scope.tsx'

/**
 * Mounts Mantine's notification container (bottom right, docs/app-shell.md "Errors and texts")
 * the first time something is shown, so pages that never notify do not load its code (nor
 * Mantine's: it has its own scope). Notifications raised before it mounts wait in the store and
 * appear as soon as it does.
 */
const Notifications = lazy(() =>
  import('@mantine/notifications').then((m) => ({ default: m.Notifications })),
)

let needed = false
const listeners = new Set<() => void>()

export function requestNotificationHost(): void {
  if (needed) return
  needed = true
  listeners.forEach((listener) => listener())
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function NotificationHost() {
  const show = useSyncExternalStore(
    subscribe,
    () => needed,
    () => false,
  )
  if (!show) return null
  return (
    <MantineScope>
      <Notifications position="bottom-right" limit={4} />
    </MantineScope>
  )
}
