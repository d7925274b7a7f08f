import { claimMirror } from '../data/sync-state.ts'
import {
  hasValidToken,
  onSessionChange,
  readSession,
  setUnsyncedChangesHook,
  type SessionSnapshot,
} from '../features/auth/session.ts'
import { setSyncToken, startSync, unsyncedChanges } from '../sync/client.ts'

/**
 * Wires the session into the sync layer (sync/ cannot import features/): the token is mirrored
 * into IndexedDB for the worker and the service worker, the mirror is claimed by the signed-in
 * user, sync starts once signed in, and sign-out asks about unsynced changes.
 */
export function setupSync(): void {
  setUnsyncedChangesHook(unsyncedChanges)
  let chain = Promise.resolve()
  const apply = (snapshot: SessionSnapshot) => {
    // One after another, so a quick sign-out/sign-in never applies out of order.
    chain = chain
      .then(async () => {
        if (snapshot.user) await claimMirror(snapshot.user.id)
        await setSyncToken({ token: snapshot.token, expiry: snapshot.tokenExpiry })
        if (hasValidToken(snapshot)) startSync()
      })
      .catch((error: unknown) => console.error(error))
  }
  apply(readSession())
  onSessionChange(apply)
}
