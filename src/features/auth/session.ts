import * as v from 'valibot'
import type { AuthResponse, Role, User } from '../../domain/user.ts'
import { ROLES, User as UserSchema } from '../../domain/user.ts'
import { REVOKE_KEY } from './revoke-key.ts'

/**
 * The signed-in session, kept in localStorage under the keys of docs/app-shell.md
 * "Session (src/features/auth/session.ts)". `tokenExpiry` is written as milliseconds since the
 * epoch (a decimal string); reading also accepts an ISO 8601 timestamp. The token is used until
 * that moment; `userInfo` and `userRole` outlive an expired token so the lock screen can greet the
 * user and ask only for the password.
 */
export const SESSION_KEYS = {
  token: 'access_token',
  role: 'userRole',
  user: 'userInfo',
  loggedIn: 'loggedIn',
  expiry: 'tokenExpiry',
} as const

export const DEFAULT_ROLE: Role = 'admin'

export interface SessionSnapshot {
  token: string | null
  /** ms since the epoch, or null when unknown */
  tokenExpiry: number | null
  user: User | null
  role: Role
  loggedIn: boolean
}

type Listener = (snapshot: SessionSnapshot) => void
const listeners = new Set<Listener>()

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null // storage blocked (privacy settings): behave as signed out
  }
}

function read(key: string): string | null {
  try {
    return storage()?.getItem(key) ?? null
  } catch {
    return null
  }
}

function write(key: string, value: string | null): void {
  try {
    const store = storage()
    if (!store) return
    if (value === null) store.removeItem(key)
    else store.setItem(key, value)
  } catch {
    // Quota or privacy errors: the session lives only in memory for this page.
  }
}

/** Parses a stored expiry: ms epoch ("1767225600000") or ISO 8601. Anything else → null. */
export function parseExpiry(raw: string | null): number | null {
  if (!raw) return null
  const trimmed = raw.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed)
  const ms = Date.parse(trimmed)
  return Number.isNaN(ms) ? null : ms
}

function readUser(): User | null {
  const raw = read(SESSION_KEYS.user)
  if (!raw) return null
  try {
    const parsed = v.safeParse(UserSchema, JSON.parse(raw))
    return parsed.success ? parsed.output : null
  } catch {
    return null
  }
}

/**
 * The stored role, defaulting to admin (docs/app-shell.md
 * "Session (src/features/auth/session.ts)").
 */
export function getRole(): Role {
  const raw = read(SESSION_KEYS.role)
  return (ROLES as readonly string[]).includes(raw ?? '') ? (raw as Role) : DEFAULT_ROLE
}

export function readSession(): SessionSnapshot {
  return {
    token: read(SESSION_KEYS.token),
    tokenExpiry: parseExpiry(read(SESSION_KEYS.expiry)),
    user: readUser(),
    role: getRole(),
    loggedIn: read(SESSION_KEYS.loggedIn) === 'true',
  }
}

/** True when a token is stored and its expiry (if known) is still ahead. */
export function hasValidToken(snapshot: SessionSnapshot, now: number = Date.now()): boolean {
  if (!snapshot.token) return false
  return snapshot.tokenExpiry === null || snapshot.tokenExpiry > now
}

/** The token to send, or null when none is stored or it has expired. */
export function getValidToken(now: number = Date.now()): string | null {
  const snapshot = readSession()
  return hasValidToken(snapshot, now) ? snapshot.token : null
}

function notify(): void {
  const snapshot = readSession()
  for (const listener of [...listeners]) {
    try {
      listener(snapshot)
    } catch (error) {
      console.error(error)
    }
  }
}

/**
 * Calls `listener` after every sign-in, sign-out, token drop or profile change (also when another
 * tab changes the session). Returns the unsubscribe function.
 */
export function subscribe(listener: Listener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Alias for modules outside the UI (the sync layer mirrors the token into its worker). */
export const onSessionChange = subscribe

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === null || (Object.values(SESSION_KEYS) as string[]).includes(event.key))
      notify()
  })
}

/** Stores a successful login/register answer. The role follows the user's server-side role. */
export function startSession(auth: AuthResponse): void {
  const expiry = Date.parse(auth.expires_at)
  write(SESSION_KEYS.token, auth.access_token)
  write(SESSION_KEYS.expiry, Number.isNaN(expiry) ? null : String(expiry))
  write(SESSION_KEYS.user, JSON.stringify(auth.user))
  write(SESSION_KEYS.role, auth.user.role)
  write(SESSION_KEYS.loggedIn, 'true')
  notify()
}

/** Stores a fresh copy of the user (after the auth check or a profile update). */
export function updateUser(user: User): void {
  const before = read(SESSION_KEYS.user)
  const next = JSON.stringify(user)
  const roleChanged = read(SESSION_KEYS.role) !== user.role
  write(SESSION_KEYS.user, next)
  write(SESSION_KEYS.role, user.role)
  if (before !== next || roleChanged) notify()
}

/**
 * Setting the role stores it in the browser (docs/app-shell.md
 * "Session (src/features/auth/session.ts)").
 */
export function setRole(role: Role): void {
  write(SESSION_KEYS.role, role)
  notify()
}

/**
 * The server said the token is no longer valid (401): forget the token but keep who the user is,
 * so the lock screen can ask for the password and nothing local is lost.
 */
export function dropToken(): void {
  if (read(SESSION_KEYS.token) === null && read(SESSION_KEYS.loggedIn) === null) return
  write(SESSION_KEYS.token, null)
  write(SESSION_KEYS.expiry, null)
  write(SESSION_KEYS.loggedIn, null)
  notify()
}

export function clearSession(): void {
  for (const key of Object.values(SESSION_KEYS)) write(key, null)
  notify()
}

let unsyncedChanges: () => Promise<number> = async () => 0

/** The sync layer registers how many local changes have not reached the server yet. */
export function setUnsyncedChangesHook(hook: () => Promise<number>): void {
  unsyncedChanges = hook
}

export async function hasUnsyncedChanges(): Promise<number> {
  try {
    const count = await unsyncedChanges()
    return Number.isFinite(count) && count > 0 ? count : 0
  } catch {
    return 0
  }
}

export type ConfirmSignOut = (pending: number) => Promise<boolean>

// Without a registered dialog, refuse: never drop unsynced work silently.
let confirmSignOut: ConfirmSignOut = async () => false

/** The app registers the dialog that asks before signing out with unsynced changes. */
export function setSignOutConfirm(confirm: ConfirmSignOut): void {
  confirmSignOut = confirm
}

export interface SignOutOptions {
  /** Asked when unsynced changes exist; resolve true to sign out anyway. */
  confirm?: ConfirmSignOut
}

/**
 * Signs out: when local changes still wait for the server, asks first (they would be lost to this
 * account). Resolves true when the session was cleared; the token's revocation goes on after.
 */
export async function signOut({ confirm = confirmSignOut }: SignOutOptions = {}): Promise<boolean> {
  const pending = await hasUnsyncedChanges()
  if (pending > 0 && !(await confirm(pending))) return false
  const token = read(SESSION_KEYS.token)
  clearSession()
  if (token) {
    // The server forgets the token too (src/features/auth/revoke.ts), never awaited. It is kept at
    // once: a page closed right after the sign-out still sends it on its next start.
    write(REVOKE_KEY, `${read(REVOKE_KEY) ?? ''} ${token}`.trim())
    revokeWaiting()
  }
  return true
}

/** Sends the revocations still waiting; the code that sends them loads only then. */
export function revokeWaiting(): void {
  if (read(REVOKE_KEY)) void import('./revoke.ts').then((m) => m.flushRevocations())
}

/** What the router context carries (`context.session`). */
export const session = {
  read: readSession,
  getValidToken,
  getRole,
  setRole,
  startSession,
  updateUser,
  dropToken,
  subscribe,
}
export type Session = typeof session
