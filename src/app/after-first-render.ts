import { revokeWaiting } from '../features/auth/index.ts'
import { watchDeviceStorage } from './device-storage.ts'
import { watchInstallHint } from './install-hint.ts'
import { runBeforeUpdate } from './service-worker.ts'

/**
 * What starts after the first render, loaded then (src/app/main.tsx): the service worker's
 * registration, the storage check and the iPad/iPhone install hint (those two once someone is
 * signed in), and the revocation of signed-out tokens that got no answer, now and whenever the
 * network returns.
 */
export function afterFirstRender(): void {
  registerServiceWorker()
  watchDeviceStorage()
  watchInstallHint()
  installTokenRevocation()
}

/** Revocations that got no answer (src/features/auth/revoke.ts) go again now and on `online`. */
export function installTokenRevocation(): void {
  revokeWaiting()
  window.addEventListener('online', revokeWaiting)
}

/**
 * Registers /sw.js once the link is idle (docs/performance.md): the first screen is drawn (this
 * module loads only then), no request of the page has finished for `QUIET_MS`, and the browser
 * has an idle moment. The worker's install downloads the whole precache, which must never share
 * a slow link with the first screen's code and data.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || typeof navigator === 'undefined') return
  if (!('serviceWorker' in navigator)) return
  const start = () => {
    import('./service-worker-runtime.ts')
      .then(({ startServiceWorker }) => startServiceWorker(runBeforeUpdate))
      .catch((error: unknown) => console.error('service worker', error))
  }
  void linkIdle().then(() => {
    if ('requestIdleCallback' in window) requestIdleCallback(start, { timeout: 5_000 })
    else setTimeout(start, 0)
  })
}

/** How long no request of the page may have finished before the link counts as idle. */
const QUIET_MS = 1_000

/** Resolves after the page's `load` once `QUIET_MS` pass without a request of the page finishing. */
function linkIdle(): Promise<void> {
  return new Promise((resolve) => {
    const watch = () => {
      let timer = setTimeout(done, QUIET_MS)
      const observer =
        typeof PerformanceObserver === 'undefined'
          ? null
          : new PerformanceObserver(() => {
              clearTimeout(timer)
              timer = setTimeout(done, QUIET_MS)
            })
      observer?.observe({ type: 'resource' })
      function done() {
        observer?.disconnect()
        resolve()
      }
    }
    if (document.readyState === 'complete') watch()
    else window.addEventListener('load', watch, { once: true })
  })
}
