import { claimMirror } from '../mirror/commands.ts'
import { hasValidToken, type SessionSnapshot } from '../features/auth/session.ts'
import { flushBeforeReload, setSyncToken, startSync, unsyncedChanges } from '../sync/client.ts'

/** The heavy half of src/app/sync.ts (Dexie, the worker client): loaded beside the first render. */
export async function applySession(snapshot: SessionSnapshot): Promise<void> {
  if (snapshot.user) await claimMirror(snapshot.user.id)
  await setSyncToken({ token: snapshot.token, expiry: snapshot.tokenExpiry })
  if (hasValidToken(snapshot)) startSync()
}

export { flushBeforeReload, unsyncedChanges }
