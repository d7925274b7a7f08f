import { hasValidToken, onSessionChange, readSession } from '../features/auth/index.ts'
import { loadInstallCheck, loadInstallHint } from '../features/install-hint/index.ts'

/**
 * After sign-in (at start or later), offers the iPad/iPhone install hint. The check loads on
 * demand after the first render, and the notice, with Mantine's notifications, only on a device
 * that needs it, so the first screen carries none of it (docs/performance.md).
 */
export function watchInstallHint(): void {
  if (typeof navigator === 'undefined') return
  let done = false
  const check = () => {
    if (done || !hasValidToken(readSession())) return
    done = true
    unsubscribe()
    setTimeout(() => {
      loadInstallCheck()
        .then(async ({ currentInstallEnvironment, needsIosInstallHint }) => {
          if (!needsIosInstallHint(currentInstallEnvironment())) return
          const { showIosInstallHint } = await loadInstallHint()
          showIosInstallHint()
        })
        .catch((error: unknown) => console.error('install hint', error))
    }, 0)
  }
  const unsubscribe = onSessionChange(check)
  check()
}
