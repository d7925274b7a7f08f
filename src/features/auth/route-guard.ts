import { redirect } from '@tanstack/react-router'
import { checkAuth } from '../../api/auth.ts'
import { NetworkError } from '../../api/client.ts'
import type { User } from '../../domain/user.ts'
import {
  type AccessRule,
  createAuthCheckCache,
  LOGIN_PATH,
  NOT_AUTHORIZED_PATH,
  runGuard,
  type GuardTarget,
} from './guard.ts'
import { session, type Session } from './session.ts'
import { noteAnswer } from '../../sync/reachability.ts'

/** What every route's `context` carries (see src/routes/__root.tsx). */
export interface RouterContext {
  session: Session
}

// Keyed by token, so signing in, out or as someone else never reuses another session's check.
const checkCache = createAuthCheckCache(30_000)

let inFlight: Promise<User> | null = null
let inFlightToken: string | null = null

/**
 * One request at a time per token: a preload and a navigation arriving together share the answer,
 * but a check still on its way for a previous session's token is never another person's answer.
 */
function sharedCheck(token: string | null): Promise<User> {
  // The browser knows it is offline: do not wait for a request that cannot succeed.
  if (typeof navigator !== 'undefined' && navigator.onLine === false) {
    return Promise.reject(new NetworkError('offline'))
  }
  if (!inFlight || inFlightToken !== token) {
    inFlightToken = token
    const check: Promise<User> = checkAuth().finally(() => {
      if (inFlight === check) inFlight = null
    })
    inFlight = check
  }
  return inFlight
}

/**
 * How long a guarded screen waits for check_auth before it paints from the device (lie-fi) when
 * the device does not know the user yet; with a stored user it paints at once, and this is how
 * long the check may take before the status says nothing answers.
 */
export const CHECK_AUTH_PATIENCE_MS = 1000

let lateUnauthorized: () => void = () => undefined
let accountReady: () => Promise<void> | undefined = () => undefined

/**
 * What a guarded screen waits for once allowed: the app's switch of the device's data to another
 * person (their mirror claimed, the previous person's cleared), so it never paints the previous
 * person's workspace or records (docs/SYNC.md "Accounts").
 */
export function setAccountReadyWait(wait: () => Promise<void> | undefined): void {
  accountReady = wait
}

/** What the app does when a check that answered after its screen had painted says 401. */
export function setLateUnauthorizedHandler(handler: () => void): void {
  lateUnauthorized = handler
}

/** Forgets the cached auth check (tests; after a 401 seen elsewhere). */
export function resetAuthCheckCache(): void {
  checkCache.clear()
}

/**
 * `beforeLoad` helper: runs the guard with the real API and session, and throws the router
 * redirect it decides on. `rule` null = signed in is enough (plain pages that are not open).
 */
export async function requireAuth(
  target: GuardTarget,
  rule: AccessRule | null,
  current: Session = session,
): Promise<void> {
  const result = await runGuard(target, rule, {
    checkAuth: () => sharedCheck(current.read().token),
    session: () => {
      const { token, tokenExpiry } = current.read()
      return { token, tokenExpiry }
    },
    role: () => current.getRole(),
    now: () => Date.now(),
    cache: checkCache,
    onUser: (user) => current.updateUser(user),
    onUnauthorized: () => current.dropToken(),
    answerWithinMs: CHECK_AUTH_PATIENCE_MS,
    onLateUnauthorized: () => lateUnauthorized(),
    // Its answer, when it comes, turns the status back (the API client tells every answer).
    onNoAnswer: () => noteAnswer(false),
    paintBeforeAnswer: () => current.read().user !== null,
  })
  if (result.kind === 'login') throw redirect({ to: LOGIN_PATH, search: { to: result.to } })
  if (result.kind === 'not-authorized') throw redirect({ to: NOT_AUTHORIZED_PATH })
  await accountReady()
}
