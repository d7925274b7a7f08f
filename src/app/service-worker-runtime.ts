import { Workbox } from 'workbox-window'
import { showUpdatePrompt, wireUpdatePrompt } from '../features/app-update/index.ts'

/** How often an open app looks for a new version (also whenever it becomes visible again). */
const UPDATE_CHECK_MS = 60 * 60 * 1000

/** Loaded after the first render: registers the worker and wires the update prompt. */
export async function startServiceWorker(beforeUpdate: () => Promise<void>): Promise<void> {
  const wb = new Workbox('/sw.js', { scope: '/' })
  wireUpdatePrompt(wb, {
    beforeUpdate,
    showPrompt: showUpdatePrompt,
    reload: () => window.location.reload(),
  })
  await wb.register()
  const check = () => {
    if (navigator.onLine) wb.update().catch(() => undefined)
  }
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') check()
  })
  setInterval(check, UPDATE_CHECK_MS)
}
