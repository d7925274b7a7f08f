import { claimMirror } from '../mirror/commands.ts'
import { hasValidToken, type SessionSnapshot } from '../features/auth/session.ts'
import { flushBeforeReload, setSyncToken, startSync, unsyncedChanges } from '../sync/client.ts'

/** Whose session this page applied last (undefined: none yet, the page has just started). */
let appliedUser: number | null | undefined

/** The heavy half of src/app/sync.ts (Dexie, the worker client): loaded beside the first render. */
export async function applySession(snapshot: SessionSnapshot): Promise<void> {
  const auth = { token: snapshot.token, expiry: snapshot.tokenExpiry }
  const user = snapshot.user
  if (user && appliedUser !== undefined && user.id !== appliedUser) {
    // Another person in this tab (after a sign-out, the lock screen or in another tab): the mirror
    // is theirs before their token is stored, with no replay of the previous person's running.
    await setSyncToken(auth, () => claimMirror(user.id))
  } else {
    if (user) await claimMirror(user.id)
    await setSyncToken(auth)
  }
  if (user) appliedUser = user.id
  else appliedUser ??= null
  if (hasValidToken(snapshot)) startSync()
}

export { flushBeforeReload, unsyncedChanges }
