import { watchDeviceStorage } from './device-storage.ts'
import { watchInstallHint } from './install-hint.ts'
import { runBeforeUpdate } from './service-worker.ts'

/**
 * What starts after the first render, loaded then (src/app/main.tsx): the service worker's
 * registration, the storage check and the iPad/iPhone install hint (those two once someone is
 * signed in).
 */
export function afterFirstRender(): void {
  registerServiceWorker()
  watchDeviceStorage()
  watchInstallHint()
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
