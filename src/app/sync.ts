import {
  hasValidToken,
  onSessionChange,
  readSession,
  type SessionSnapshot,
  setAccountReadyWait,
  setUnsyncedChangesHook,
} from '../features/auth/index.ts'
import { pageWorker } from '../mirror/worker.ts'
import { holdFirstScreen } from '../ui/first-screen.tsx'
import { setBeforeUpdateHook } from './service-worker.ts'

const loadRuntime = () => import('./sync-runtime.ts')

/**
 * Wires the session into the sync layer (sync/ cannot import features/): the token is mirrored
 * into IndexedDB for the worker and the service worker, the mirror is claimed by the signed-in
 * user, sync starts once signed in, and sign-out asks about unsynced changes. The data layer itself
 * loads beside the first render, not before it.
 */
export function setupSync(): void {
  setUnsyncedChangesHook(async () => (await loadRuntime()).unsyncedChanges())
  // «Обновить» sends what is queued before the new version takes over (the rest replays after it).
  setBeforeUpdateHook(async () => (await loadRuntime()).flushBeforeReload())
  let chain = Promise.resolve()
  // Whose data the device holds (undefined before the first session is applied) and the switch to
  // another person: guarded screens wait for it, so they never paint the previous person's data.
  let user: number | null | undefined
  let switching: Promise<void> | undefined
  setAccountReadyWait(() => switching)
  const apply = (snapshot: SessionSnapshot) => {
    // One after another, so a quick sign-out/sign-in never applies out of order.
    chain = chain
      .then(async () => (await loadRuntime()).applySession(snapshot))
      .catch((error: unknown) => console.error(error))
    const id = snapshot.user?.id ?? null
    if (user !== undefined && id !== null && id !== user) switching = chain
    // A sign-out keeps whose data is on the device.
    if (user === undefined || id !== null) user = id
  }
  // Signed in, the first screen's data comes through the sync: its fallback waits until the
  // session is applied and sync has started (its refreshes then hold it themselves), however long
  // the sync's code and worker take to arrive on a slow link.
  const first = readSession()
  const release = hasValidToken(first) ? holdFirstScreen() : () => undefined
  // Signed in, the sync worker's script (Dexie, ~49 KiB) is asked for as the page starts, not once
  // the sync's code has arrived: by then the route's chunks held the six connections and the
  // worker waited behind them for 1.5 s on the slow link (docs/performance.md).
  if (hasValidToken(first)) pageWorker()
  apply(first)
  void chain.then(release)
  onSessionChange(apply)
}
