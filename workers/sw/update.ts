/** The message workbox-window's `messageSkipWaiting()` posts to the waiting worker. */
export const SKIP_WAITING = 'SKIP_WAITING'

/**
 * A new version installs and then waits (prompt strategy): the page asks the user, flushes what it
 * must, and only then tells this worker to take over. Never skip waiting on our own: the open page
 * would run old code against new precached chunks.
 */
export function acceptUpdateWhenAsked(sw: ServiceWorkerGlobalScope): void {
  sw.addEventListener('message', (event) => {
    const data: unknown = event.data
    if (data && typeof data === 'object' && (data as { type?: unknown }).type === SKIP_WAITING) {
      void sw.skipWaiting()
    }
  })
}
