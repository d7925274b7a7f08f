import { revokeWaiting } from '../features/auth/session.ts'
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

/** Registers /sw.js once the page has loaded, so it never competes with the first render. */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || typeof navigator === 'undefined') return
  if (!('serviceWorker' in navigator)) return
  const start = () => {
    import('./service-worker-runtime.ts')
      .then(({ startServiceWorker }) => startServiceWorker(runBeforeUpdate))
      .catch((error: unknown) => console.error('service worker', error))
  }
  if (document.readyState === 'complete') setTimeout(start, 0)
  else window.addEventListener('load', start, { once: true })
}
