import { ApiError } from '../../api/client.ts'
import type { Role, User } from '../../domain/user.ts'

/**
 * Route guard rules (docs/app-shell.md "Guard (src/features/auth/guard.ts, pure)"). Pure:
 * everything it needs comes in through `GuardDeps`, so every branch is unit-tested without a router
 * or a network.
 */

export type AccessRule = 'admin' | 'editor'

export const LOGIN_PATH = '/pages/login'
export const NOT_AUTHORIZED_PATH = '/pages/not-authorized'

/**
 * Paths that need no auth check: login, forgot-password, error-404, error-500, register, /callback
 * and comingsoon, plus reset-password, which a signed-out user reaches from the e-mail link, and
 * lock-screen, which exists to sign an expired session back in.
 */
export const OPEN_PATHS: readonly string[] = [
  '/pages/login',
  '/pages/forgot-password',
  '/pages/error-404',
  '/pages/error-500',
  '/pages/register',
  '/callback',
  '/pages/comingsoon',
  '/pages/reset-password',
  '/pages/lock-screen',
]

export function normalizePath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '')
  return trimmed === '' ? '/' : trimmed
}

export function isOpenPath(pathname: string): boolean {
  return OPEN_PATHS.includes(normalizePath(pathname))
}

/** admin allows admin only; editor allows editor or admin. */
export function hasAccess(role: Role, rule: AccessRule): boolean {
  if (rule === 'admin') return role === 'admin'
  return role === 'editor' || role === 'admin'
}

/**
 * Where to go after sign-in: only a same-origin relative path ("/projects?x=1"). Anything that could
 * leave the site ("//evil", "/\\evil", "https://…", "javascript:…") or carries control characters
 * falls back to `fallback`.
 */
export function safeRedirectTarget(to: unknown, fallback: string = '/'): string {
  if (typeof to !== 'string' || to.length === 0 || to.length > 2048) return fallback
  if (!to.startsWith('/')) return fallback
  if (to.startsWith('//') || to.startsWith('/\\')) return fallback
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(to)) return fallback
  try {
    const base = 'https://app.invalid'
    const url = new URL(to, base)
    if (url.origin !== base) return fallback
  } catch {
    return fallback
  }
  return to
}

/** A short-lived memory of the last successful check, keyed by token. */
export interface AuthCheckCache {
  get(token: string | null, now: number): User | null
  set(token: string | null, user: User, now: number): void
  clear(): void
}

export function createAuthCheckCache(ttlMs: number = 30_000): AuthCheckCache {
  let entry: { token: string | null; user: User; at: number } | null = null
  return {
    get(token, now) {
      if (!entry || entry.token !== token) return null
      if (now - entry.at >= ttlMs || now < entry.at) return null
      return entry.user
    },
    set(token, user, now) {
      entry = { token, user, at: now }
    },
    clear() {
      entry = null
    },
  }
}

export interface GuardDeps {
  /** GET /api/check_auth: resolves the user on 200, rejects with ApiError / NetworkError. */
  checkAuth: () => Promise<User>
  /** The stored token and its expiry (ms epoch, null = unknown). */
  session: () => { token: string | null; tokenExpiry: number | null }
  /** The stored role (read after a successful check has stored the server's role). */
  role: () => Role
  now: () => number
  cache: AuthCheckCache
  /** Called with the user of a successful check (to store it). */
  onUser: (user: User) => void
  /** Called on a 401 (to drop the stale token). */
  onUnauthorized: () => void
  /**
   * With a stored token still valid, how long the check may take before the screen goes on as
   * offline (lie-fi: connected, but nothing answers). Unset: wait for the check's own outcome.
   */
  answerWithinMs?: number
  /** Resolves after `ms` (setTimeout; tests pass their own). */
  wait?: (ms: number) => Promise<void>
  /**
   * A check that answered after the screen went on: 401 → the token is dropped and this is told
   * (the app shows the lock screen; everything on the device stays).
   */
  onLateUnauthorized?: () => void
  /** The check outlasted `answerWithinMs`: the screen goes on as offline (the sync status says so). */
  onNoAnswer?: () => void
  /**
   * True when the device knows who is signed in (a stored user): with a token still valid, the
   * screen then paints from the device at once and the check runs beside it, as on lie-fi (its
   * user is stored when it comes, a 401 goes to `onLateUnauthorized`, no answer within
   * `answerWithinMs` to `onNoAnswer`). The first screen never waits for a round trip
   * (docs/performance.md).
   */
  paintBeforeAnswer?: () => boolean
}

export interface GuardTarget {
  pathname: string
  /** The wanted path with its search and hash, e.g. "/projects?page=2". */
  href: string
}

export type GuardResult =
  | { kind: 'allow'; user: User | null; offline: boolean }
  | { kind: 'login'; to: string }
  | { kind: 'not-authorized' }

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * 1. Open paths pass without a check.
 * 2. A check that succeeded less than the cache TTL ago for the same token counts as a 200.
 * 3. GET /api/check_auth: 200 → store the user and go on; 401 → sign-in page with `to`.
 * 4. No answer (network error, timeout) or any other failure (5xx, malformed answer): a stored token
 *    before its known expiry lets the user work offline; without one → sign-in page. With such a
 *    token the check also gets only `answerWithinMs`: on a link that connects but never answers
 *    (lie-fi) the screen goes on as offline and paints from the device, and the check's late
 *    answer still counts (a 401 then drops the token and `onLateUnauthorized` is told). When the
 *    device also knows the user (`paintBeforeAnswer`), the screen does not wait at all.
 * 5. With a rule, the role must satisfy it, else → not-authorized.
 */
export async function runGuard(
  target: GuardTarget,
  rule: AccessRule | null,
  deps: GuardDeps,
): Promise<GuardResult> {
  if (isOpenPath(target.pathname)) return { kind: 'allow', user: null, offline: false }

  const login: GuardResult = { kind: 'login', to: safeRedirectTarget(target.href) }
  const { token, tokenExpiry } = deps.session()
  const now = deps.now()

  let user: User | null = deps.cache.get(token, now)
  let offline = false
  // Offline work needs a token whose expiry is known and still ahead.
  const tokenValid = token !== null && tokenExpiry !== null && tokenExpiry > now
  if (!user) {
    // An answer about a token no longer stored (someone signed out, or in as another person, while
    // the check was on its way) says nothing about the session now: it stores no user and drops
    // nothing (docs/app-shell.md, "Guard (src/features/auth/guard.ts, pure)").
    const current = () => deps.session().token === token
    const accepted = (checked: User) => {
      if (!current()) return
      deps.cache.set(token, checked, deps.now())
      deps.onUser(checked)
    }
    const refused = (error: unknown) => {
      if (!(error instanceof ApiError && error.status === 401)) return false
      if (!current()) return true
      deps.cache.clear()
      deps.onUnauthorized()
      return true
    }
    const check = deps.checkAuth()
    const late = () =>
      check.then(accepted, (error: unknown) => {
        const stillStored = current()
        if (refused(error) && stillStored) deps.onLateUnauthorized?.()
      })
    const patience =
      tokenValid && deps.answerWithinMs !== undefined
        ? (deps.wait ?? sleep)(deps.answerWithinMs).then(() => 'too slow' as const)
        : null
    if (tokenValid && deps.paintBeforeAnswer?.()) {
      // The device knows the user: paint now; the answer, when it comes, still counts.
      let answered = false
      void check.then(
        () => (answered = true),
        () => (answered = true),
      )
      void patience?.then(() => {
        if (!answered) deps.onNoAnswer?.()
      })
      void late()
      if (rule && !hasAccess(deps.role(), rule)) return { kind: 'not-authorized' }
      return { kind: 'allow', user: null, offline: false }
    }
    const limit: Promise<'too slow'> = patience ?? new Promise<never>(() => undefined)
    try {
      const answer = await Promise.race([check, limit])
      if (answer === 'too slow') {
        // Lie-fi: go on from the device; the answer, when it comes, still counts.
        deps.onNoAnswer?.()
        void late()
        offline = true
      } else {
        user = answer
        accepted(answer)
      }
    } catch (error) {
      if (refused(error)) return login
      if (!tokenValid) return login
      offline = true
    }
  }

  if (rule && !hasAccess(deps.role(), rule)) return { kind: 'not-authorized' }
  return { kind: 'allow', user, offline }
}
