import {
  onSessionChange,
  readSession,
  setUnsyncedChangesHook,
  type SessionSnapshot,
} from '../features/auth/session.ts'

const loadRuntime = () => import('./sync-runtime.ts')

/**
 * Wires the session into the sync layer (sync/ cannot import features/): the token is mirrored
 * into IndexedDB for the worker and the service worker, the mirror is claimed by the signed-in
 * user, sync starts once signed in, and sign-out asks about unsynced changes. The data layer itself
 * loads beside the first render, not before it.
 */
export function setupSync(): void {
  setUnsyncedChangesHook(async () => (await loadRuntime()).unsyncedChanges())
  let chain = Promise.resolve()
  const apply = (snapshot: SessionSnapshot) => {
    // One after another, so a quick sign-out/sign-in never applies out of order.
    chain = chain
      .then(async () => (await loadRuntime()).applySession(snapshot))
      .catch((error: unknown) => console.error(error))
  }
  apply(readSession())
  onSessionChange(apply)
}
