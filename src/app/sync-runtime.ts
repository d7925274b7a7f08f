import { commands } from '../mirror/commands.ts'
import { draftStorage, restoreDrafts } from '../features/editor/index.ts'
import { defaultLocks, withLock } from '../sync/lock.ts'
import { REPLAY_LOCK } from '../sync/protocol.ts'
import { hasValidToken, type SessionSnapshot } from '../features/auth/index.ts'
import {
  flushBeforeReload,
  followLiveChanges,
  setRefreshHold,
  setSyncToken,
  startSync,
  unsyncedChanges,
} from '../sync/client.ts'
import { firstScreenDrawn, holdFirstScreen } from '../ui/first-screen.tsx'

// A refresh under way holds the first screen's fallback: a cold start's list is empty until its
// records arrive, which is no drawn screen (docs/performance.md).
setRefreshHold(holdFirstScreen)

/** Whose session this page applied last (undefined: none yet, the page has just started). */
let appliedUser: number | null | undefined

/** The heavy half of src/app/sync.ts (Dexie, the worker client): loaded beside the first render. */
export async function applySession(snapshot: SessionSnapshot): Promise<void> {
  const auth = { token: snapshot.token, expiry: snapshot.tokenExpiry }
  const user = snapshot.user
  if (user && appliedUser !== undefined && user.id !== appliedUser) {
    // Another person in this tab (after a sign-out, the lock screen or in another tab): the mirror
    // is claimed (cleared) and their token stored holding the replay lock, so a replay or refresh
    // still running for the previous person finishes first: none of their queued changes goes out
    // under the new token, and nothing of theirs is written after the mirror was cleared.
    await withLock(defaultLocks(), REPLAY_LOCK, false, async () => {
      await commands.claimMirror(user.id)
      await commands.storeAuthToken(auth)
    })
  } else if (user) {
    await commands.claimMirror(user.id)
  }
  await setSyncToken(auth)
  // Editor changes a previous page kept as drafts when it went away go into the outbox now
  // (docs/editor.md "Edits survive the page going away"); another person's are dropped unsent.
  if (user) await restoreDrafts(draftStorage(), user.id, commands)
  if (user) appliedUser = user.id
  else appliedUser ??= null
  if (!hasValidToken(snapshot)) return
  startSync()
  // Live changes once the first screen is drawn: the stream does not share the link with it.
  void firstScreenDrawn().then(followLiveChanges)
}

export { flushBeforeReload, unsyncedChanges }
