import { hasValidToken, readSession, subscribe } from '../features/auth/session.ts'

/**
 * After sign-in (at start or later), offers the iPad/iPhone install hint. The check and the notice
 * load on demand after the first render, so the first load carries none of it.
 */
export function watchInstallHint(): void {
  if (typeof navigator === 'undefined') return
  let done = false
  const check = () => {
    if (done || !hasValidToken(readSession())) return
    done = true
    unsubscribe()
    setTimeout(() => {
      import('../features/install-hint/install-hint.tsx')
        .then(({ showIosInstallHint }) => showIosInstallHint())
        .catch((error: unknown) => console.error('install hint', error))
    }, 0)
  }
  const unsubscribe = subscribe(check)
  check()
}
