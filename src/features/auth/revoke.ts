import { logout } from '../../api/auth.ts'
import { ApiError, isRetryable } from '../../api/client.ts'
import { setSignedOutHook } from './session.ts'

/**
 * Signing out revokes the token on the server (`POST /api/logout`) without ever waiting for it:
 * the session is cleared at once, and a token whose revocation got no answer (offline, a timeout,
 * a 5xx) waits in localStorage and is sent again on the next start and when the network returns.
 * 200 is done; so are 404 (a server without the call) and 401 (the token is already gone).
 */
export const REVOKE_KEY = 'tokensToRevoke'

function readQueue(): string[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(REVOKE_KEY) ?? '[]')
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string') : []
  } catch {
    return []
  }
}

function writeQueue(tokens: string[]): void {
  try {
    if (tokens.length === 0) localStorage.removeItem(REVOKE_KEY)
    else localStorage.setItem(REVOKE_KEY, JSON.stringify(tokens))
  } catch {
    // Storage blocked or full: the token simply expires on its own.
  }
}

/** Tokens signed out of whose revocation has not been answered yet. */
export function tokensToRevoke(): string[] {
  return readQueue()
}

let flushing: Promise<void> | null = null

/** Sends every waiting revocation once (one pass at a time); resolves when the pass is over. */
export function flushRevocations(): Promise<void> {
  flushing ??= (async () => {
    try {
      for (const token of readQueue()) {
        try {
          await logout(token)
        } catch (error) {
          const gone = error instanceof ApiError && (error.status === 404 || error.status === 401)
          // No answer (or a 5xx, 429): keep it for the next start or the network's return.
          if (!gone && isRetryable(error)) continue
        }
        writeQueue(readQueue().filter((t) => t !== token))
      }
    } finally {
      flushing = null
    }
  })()
  return flushing
}

/** Queues `token` for revocation and tries at once; never throws, never blocks the caller. */
export function revokeToken(token: string): Promise<void> {
  const queue = readQueue()
  if (!queue.includes(token)) writeQueue([...queue, token])
  // A pass already running may have read the queue before this token: run another after it.
  const running = flushing
  return (running ?? Promise.resolve()).then(() => flushRevocations())
}

/** Wires sign-out to revocation, and retries waiting ones now and whenever the network returns. */
export function installTokenRevocation(): void {
  setSignedOutHook((token) => void revokeToken(token))
  if (typeof window !== 'undefined') {
    window.addEventListener('online', () => void flushRevocations())
  }
  if (readQueue().length > 0) void flushRevocations()
}
