import { logout } from '../../api/logout.ts'
import { ApiError, isRetryable } from '../../api/client.ts'
import { REVOKE_KEY } from './revoke-key.ts'

/**
 * Signing out revokes the token on the server (`POST /api/logout`) without ever waiting for it:
 * the session is cleared at once, and a token whose revocation got no answer (offline, a timeout,
 * a 5xx) waits in localStorage and is sent again on the next start and when the network returns.
 * 200 is done; so are 404 (a server without the call) and 401 (the token is already gone).
 * Loaded on demand (`revokeWaiting` in session.ts): none of it is in the first load.
 */
function readQueue(): string[] {
  try {
    return [...new Set((localStorage.getItem(REVOKE_KEY) ?? '').split(' ').filter(Boolean))]
  } catch {
    return []
  }
}

function writeQueue(tokens: string[]): void {
  try {
    if (tokens.length === 0) localStorage.removeItem(REVOKE_KEY)
    else localStorage.setItem(REVOKE_KEY, tokens.join(' '))
  } catch {
    // Storage blocked or full: the token simply expires on its own.
  }
}

/** Tokens signed out of whose revocation has not been answered yet. */
export function tokensToRevoke(): string[] {
  return readQueue()
}

let flushing: Promise<void> | null = null

/**
 * Sends every waiting revocation once, tokens queued meanwhile included (one pass at a time);
 * resolves when the pass is over.
 */
export function flushRevocations(): Promise<void> {
  flushing ??= (async () => {
    const tried = new Set<string>()
    try {
      for (;;) {
        const token = readQueue().find((t) => !tried.has(t))
        if (token === undefined) break
        tried.add(token)
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
