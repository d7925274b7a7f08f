import { hasValidToken, onSessionChange, readSession } from '../features/auth/index.ts'
import { loadStorageWarning } from '../features/device-storage/index.ts'

/**
 * Once a user is signed in (at start or after signing in), asks for persistent storage and warns
 * when space is short — once per page load, after the first render, and never on the sign-in page
 * of a signed-out visitor. The warning, with Mantine's notifications, loads only when space is
 * short: it is not part of the first screen (docs/performance.md).
 */
export function watchDeviceStorage(): void {
  if (typeof navigator === 'undefined' || !navigator.storage) return
  let done = false
  const check = () => {
    if (done || !hasValidToken(readSession())) return
    done = true
    unsubscribe()
    setTimeout(() => {
      import('../sync/storage-status.ts')
        .then(({ checkStorage }) => checkStorage())
        .then(async (report) => {
          if (!report.short) return
          const { warnStorageShort } = await loadStorageWarning()
          warnStorageShort(report.freeBytes)
        })
        .catch((error: unknown) => console.error('storage check', error))
    }, 0)
  }
  const unsubscribe = onSessionChange(check)
  check()
}
