/**
 * Service worker registration (production builds only). This module stays tiny because it is part
 * of the first load: workbox-window and the update prompt load after the first render.
 */

type BeforeUpdateHook = () => Promise<void>

let beforeUpdate: BeforeUpdateHook = () => Promise.resolve()

/**
 * Registers what must happen before a new version replaces this one (the outbox flush). It runs
 * when the user presses «Обновить»; if it rejects, the update is cancelled and the user told why.
 */
export function setBeforeUpdateHook(hook: BeforeUpdateHook): void {
  beforeUpdate = hook
}

/** Registers /sw.js once the page has loaded, so it never competes with the first render. */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || typeof navigator === 'undefined') return
  if (!('serviceWorker' in navigator)) return
  const start = () => {
    import('./service-worker-runtime.ts')
      .then(({ startServiceWorker }) => startServiceWorker(() => beforeUpdate()))
      .catch((error: unknown) => console.error('service worker', error))
  }
  if (document.readyState === 'complete') setTimeout(start, 0)
  else window.addEventListener('load', start, { once: true })
}
