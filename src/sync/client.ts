import { useEffect, useSyncExternalStore } from 'react'
import { useOutboxCounts, useParkedEntryRows, useSyncMeta, watchMirror } from '../mirror/live.ts'
import { commands } from '../mirror/commands.ts'
import { onPageWorkerFailure, pageWorker } from '../mirror/worker.ts'
import type { StoredAuth } from '../data/sync-state.ts'
import type { AccountNews } from './live-events.ts'
import type { KnownChange } from './protocol.ts'
import { localFileId } from '../data/ids.ts'
import type { ParkedEntry } from '../data/types.ts'
import { isAnswering, noteAnswer, subscribeAnswering } from './reachability.ts'
import {
  scopeKey,
  STATUS_CHANNEL,
  SYNC_TAG,
  type RefreshScope,
  type ReplayOptions,
  type StatusMessage,
  type SyncWorkerApi,
} from './protocol.ts'

export type { RefreshScope } from './protocol.ts'
export type { ParkedEntry } from '../data/types.ts'

/**
 * Main-thread side of the sync worker: spawns it (comlink), asks it to replay on start, on
 * `online`, on becoming visible and on a slow interval, refreshes the scopes the screens show, and
 * turns the shared state into hooks for the status bar.
 */

const SLOW_INTERVAL_MS = 5 * 60_000

let remote: SyncWorkerApi | null = null
let started = false
const activeScopes = new Map<string, { scope: RefreshScope; count: number }>()

// ---- replaying flag (from any tab's worker or the service worker, over BroadcastChannel) ----
let replaying = false
const replayingListeners = new Set<() => void>()
function setReplaying(next: boolean) {
  if (next === replaying) return
  replaying = next
  for (const listener of replayingListeners) listener()
}

function isOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false
}

/** Without a working module worker the same engine runs on the page (loaded on demand). */
async function pageEngine(): Promise<SyncWorkerApi> {
  const [{ createSyncEngine }, { getDb }] = await Promise.all([
    import('./engine.ts'),
    import('../data/db.ts'),
  ])
  return createSyncEngine({
    db: getDb(),
    channel: typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(STATUS_CHANNEL),
  })
}

function refreshActiveScopes(): void {
  for (const { scope } of activeScopes.values()) void refresh(scope)
}

/** Idempotent: spawns the worker and starts replaying and refreshing. */
export function startSync(): void {
  if (started) return
  started = true
  // Every screen needs the workspaces (switcher, current workspace) and the editors the types.
  for (const scope of [{ kind: 'workspaces' }, { kind: 'projectTypes' }] as RefreshScope[]) {
    activeScopes.set(scopeKey(scope), { scope, count: 1 })
  }
  // comlink's Remote<T> of an API whose methods already return promises has T's shape.
  remote = pageWorker() as SyncWorkerApi | null
  const onPage = () =>
    void pageEngine().then((engine) => {
      remote = engine
      requestSync()
      refreshActiveScopes()
    })
  if (!remote) onPage()
  // A worker that fails to start: the page replays and refreshes itself.
  else onPageWorkerFailure(onPage)
  if (typeof BroadcastChannel !== 'undefined') {
    const channel = new BroadcastChannel(STATUS_CHANNEL)
    channel.onmessage = (event: MessageEvent<StatusMessage>) => {
      const message = event.data
      if (message?.type === 'replaying') setReplaying(message.replaying)
      if (message?.type === 'upload')
        setUploadProgress(message.fileId, message.loaded, message.total)
      if (message?.type === 'answer') noteAnswer(message.answered)
    }
  }
  if (typeof window !== 'undefined') {
    window.addEventListener('online', () => {
      requestSync({ resetBackoff: true })
      refreshActiveScopes()
    })
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState !== 'visible') return
      requestSync({ resetBackoff: true })
      refreshActiveScopes()
    })
    window.setInterval(() => {
      requestSync()
      refreshActiveScopes()
    }, SLOW_INTERVAL_MS)
  }
  // A change queued in this tab or another: replay shortly (a burst of edits becomes one pass).
  let lastSeen = -1
  watchMirror('outboxLastSeq', [], (seq) => {
    if (seq > lastSeen && lastSeen !== -1) scheduleSync(300)
    lastSeen = seq
  })
  // A page (re)opened is a fresh chance: retries an earlier page left waiting out a backoff are due.
  requestSync({ resetBackoff: true })
  refreshActiveScopes()
}

// ---- live changes of the current workspace (docs/SYNC.md, "Live changes") ----------------------

let liveWorkspace: number | null = null
let stopLive: (() => void) | null = null
const liveRefreshes = new Map<string, ReturnType<typeof setTimeout>>()

/**
 * The scope a screen registers that shows `scope`: a request is shown by its workspace's list (the
 * list and the navigation's count of new requests register it).
 */
function shownBy(scope: RefreshScope): RefreshScope {
  return scope.kind === 'appeal' ? { kind: 'appeals', workspaceId: scope.workspaceId } : scope
}

/** Announced changes waiting to be checked against the mirror, with the scopes they touch. */
let asking: { change: KnownChange; scopes: RefreshScope[] }[] = []
let askTimer: ReturnType<typeof setTimeout> | null = null

/**
 * Refreshes the scopes of a change the mirror does not hold yet. The changes of a burst (a list
 * changed on the server: one event a row) are asked in one call, once the refreshes under way have
 * ended: what they bring is known then, and asking before would refresh the same list again for
 * every batch of events that came while it was read.
 */
function askKnown(change: KnownChange, scopes: RefreshScope[]): void {
  asking.push({ change, scopes })
  askTimer ??= setTimeout(() => void checkAsked(), 20)
}

async function checkAsked(): Promise<void> {
  await Promise.all(running)
  askTimer = null
  const batch = asking
  asking = []
  if (batch.length === 0) return
  const known = await (remote?.knows(batch.map((b) => b.change)) ?? Promise.resolve([])).catch(
    () => [] as boolean[],
  )
  batch.forEach(({ scopes }, i) => {
    if (known[i] !== true) for (const scope of scopes) refreshIfShown(scope)
  })
}

/** Refreshes a scope a change touched if a screen shows it (a burst of changes is one refresh). */
function refreshIfShown(scope: RefreshScope) {
  const key = scopeKey(scope)
  if (!activeScopes.has(scopeKey(shownBy(scope))) || liveRefreshes.has(key)) return
  liveRefreshes.set(
    key,
    setTimeout(() => {
      liveRefreshes.delete(key)
      void refresh(scope)
    }, 150),
  )
}

/** (Re)starts the stream for the current workspace while online and signed in; stops it else. */
function updateLiveStream() {
  const want = isOnline() && syncToken ? liveWorkspace : null
  if (want === null) {
    stopLive?.()
    stopLive = null
    return
  }
  if (stopLive) return
  let stop: (() => void) | null = null
  let cancelled = false
  stopLive = () => {
    cancelled = true
    stop?.()
  }
  void import('./live-events.ts').then(({ listenToWorkspace, heardChange }) => {
    if (cancelled) return
    stop = listenToWorkspace({
      workspaceId: want,
      onChange: (event) => {
        if (event.table === 'workspace' && event.op === 'delete') deleted.add(event.id)
        const { scopes, ask } = heardChange(event, want)
        if (ask) askKnown(ask, scopes)
        else for (const scope of scopes) refreshIfShown(scope)
      },
      onReset: refreshActiveScopes,
      onRemoved: (workspaceId) => {
        // The stream has stopped: the next current workspace opens its own.
        if (liveWorkspace === want) {
          stopLive = null
          liveWorkspace = null
        }
        // A 404 after the workspace's own delete event: deleted, not a removal.
        const reason = leaving.has(workspaceId)
          ? 'left'
          : deleted.has(workspaceId)
            ? 'gone'
            : 'removed'
        void remote?.forgetWorkspace(workspaceId, reason).then(
          () => refresh({ kind: 'workspaces' }),
          (error: unknown) => console.error(error),
        )
      },
      onAccount: (news) => {
        if (news === 'workspaces') refreshIfShown({ kind: 'workspaces' })
        for (const listener of accountListeners) listener(news)
      },
    })
  })
}

/** Workspaces the person is leaving from this tab: their end is no removal. */
const leaving = new Set<number>()
/** Workspaces whose delete came on their stream: a 404 after it is no removal either. */
const deleted = new Set<number>()
/** Workspaces whose loss found by a refresh of the list was told as a removal (once). */
const explained = new Set<number>()

/**
 * Leaves a workspace through `leave` (the server call) and drops it here, with the changes still
 * queued for it (useSyncMeta().workspaceLoss lists them when there were any).
 */
export async function leaveWorkspace(workspaceId: number, leave: () => Promise<unknown>) {
  leaving.add(workspaceId)
  try {
    await leave()
    await remote?.forgetWorkspace(workspaceId, 'left')
    await refresh({ kind: 'workspaces' })
  } finally {
    leaving.delete(workspaceId)
  }
}

const accountListeners = new Set<(news: AccountNews) => void>()

/**
 * Calls `listener` when the person's own workspaces or invitations change, or a colleague kept their
 * values over the person's (the server tells every stream of theirs, docs/API.md "Members");
 * returns the unsubscribe.
 */
export function onAccountNews(listener: (news: AccountNews) => void): () => void {
  accountListeners.add(listener)
  return () => accountListeners.delete(listener)
}

/** The person has read the notice of a workspace they lost (useSyncMeta().workspaceLoss). */
export function dismissWorkspaceLoss(): Promise<void> {
  return remote?.dismissWorkspaceLoss() ?? Promise.resolve()
}

/**
 * Follows the current workspace's live changes from now on (the app starts it once the first
 * screen is drawn: the stream does not share the link with it). Idempotent.
 */
let following = false
export function followLiveChanges(): void {
  if (following) return
  following = true
  watchMirror('currentWorkspaceId', [], (id) => {
    if (id === liveWorkspace) return
    liveWorkspace = id
    stopLive?.()
    stopLive = null
    updateLiveStream()
  })
  // A refresh of the list can find a workspace gone before its stream hears why (back online, the
  // list is asked first). Told by the same rule as a stream answered 404: a removal, unless its
  // delete was heard or the person left it.
  watchMirror('syncMeta', [], (meta) => {
    const loss = meta?.workspaceLoss
    if (loss?.reason !== 'gone') return
    const id = loss.workspaceId
    if (deleted.has(id) || leaving.has(id) || explained.has(id)) return
    explained.add(id)
    void remote?.forgetWorkspace(id, 'removed').catch((error: unknown) => console.error(error))
  })
  if (typeof window === 'undefined') return
  window.addEventListener('online', updateLiveStream)
  window.addEventListener('offline', updateLiveStream)
}

let pendingTimer: ReturnType<typeof setTimeout> | null = null
function scheduleSync(delayMs: number) {
  if (pendingTimer) clearTimeout(pendingTimer)
  pendingTimer = setTimeout(() => {
    pendingTimer = null
    requestSync()
  }, delayMs)
}

/** Replay now. Offline, registers a Background Sync so the service worker replays on reconnect. */
export function requestSync(options: ReplayOptions = {}): void {
  if (!isOnline()) {
    void registerBackgroundSync()
    return
  }
  if (!remote) return
  remote.replay(options).then(
    (outcome) => {
      if (outcome === 'backoff') void registerBackgroundSync()
      // Another tab or the service worker is replaying; it may have finished its last look at the
      // outbox before our entry landed, so look again shortly.
      if (outcome === 'busy') scheduleSync(2_000)
    },
    (error: unknown) => console.error(error),
  )
}

interface SyncManagerLike {
  register(tag: string): Promise<void>
}

/** Asks the service worker to replay when the network returns (Chromium; iPadOS has none). */
export async function registerBackgroundSync(): Promise<void> {
  try {
    if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return
    if ((await commands.unsyncedCount()) === 0) return
    const registration = await navigator.serviceWorker.getRegistration()
    const sync = (
      registration as (ServiceWorkerRegistration & { sync?: SyncManagerLike }) | undefined
    )?.sync
    await sync?.register(SYNC_TAG)
  } catch {
    // Not supported or refused: the page replays on `online` and when it becomes visible.
  }
}

/**
 * Fetches a scope from the API into the mirror (in the worker). Offline, or before the session's
 * token is in the mirror (signed out, or a sign-in still being applied), it quietly does nothing:
 * a request without the token would only earn a 401 and «Войти снова». Storing a new token
 * refreshes every scope on screen.
 */
export async function refresh(scope: RefreshScope): Promise<void> {
  if (!remote || !isOnline() || !syncToken) return
  const release = refreshHold()
  const run = remote.refresh(scope).catch(() => {
    // A failed refresh leaves the mirror as it was; the next trigger tries again.
  })
  running.add(run)
  try {
    await run
  } finally {
    running.delete(run)
    release()
  }
}

/** The refreshes under way (announced changes are checked once they end). */
const running = new Set<Promise<void>>()

let refreshHold: () => () => void = () => () => undefined

/**
 * Called as each refresh starts; the function it returns when it ends. src/app holds the first
 * screen's fallback with it, so a screen whose data is still coming is not taken for drawn
 * (docs/performance.md).
 */
export function setRefreshHold(hold: () => () => void): void {
  refreshHold = hold
}

/** Refreshes `scope` while the calling screen is mounted (and on online/visible/interval). */
export function useRefresh(scope: RefreshScope | null): void {
  const key = scope ? scopeKey(scope) : null
  useEffect(() => {
    if (!key) return
    const parsed = JSON.parse(key) as RefreshScope
    const entry = activeScopes.get(key)
    if (entry) entry.count += 1
    else activeScopes.set(key, { scope: parsed, count: 1 })
    void refresh(parsed)
    return () => {
      const current = activeScopes.get(key)
      if (!current) return
      current.count -= 1
      if (current.count <= 0) activeScopes.delete(key)
    }
  }, [key])
}

function subscribeOnline(listener: () => void) {
  window.addEventListener('online', listener)
  window.addEventListener('offline', listener)
  return () => {
    window.removeEventListener('online', listener)
    window.removeEventListener('offline', listener)
  }
}

function subscribeReplaying(listener: () => void) {
  replayingListeners.add(listener)
  return () => replayingListeners.delete(listener)
}

export interface SyncStatus {
  /** The browser has a network and the API answers requests (src/sync/reachability.ts). */
  online: boolean
  /** The browser has a network (it may still get no answer: `online` false then). */
  network: boolean
  pending: number
  /** Parked entries: refused by the server, or conflicts waiting for the person's choice. */
  parked: number
  /** Of the parked, the conflicts. */
  conflicts: number
  /** False until the outbox's counts have been read: nothing may be called saved before. */
  counted: boolean
  replaying: boolean
  lastSyncedAt: number | null
  needsSignIn: boolean
}

/**
 * The browser has a network and the API answers (the sync status's `online`), without reading the
 * outbox: for a screen that only needs to say whether a change will go now or wait.
 */
export function useOnline(): boolean {
  const network = useSyncExternalStore(subscribeOnline, isOnline, () => true)
  const answering = useSyncExternalStore(subscribeAnswering, isAnswering, () => true)
  return network && answering
}

export function useSyncStatus(): SyncStatus {
  const network = useSyncExternalStore(subscribeOnline, isOnline, () => true)
  const answering = useSyncExternalStore(subscribeAnswering, isAnswering, () => true)
  const busy = useSyncExternalStore(
    subscribeReplaying,
    () => replaying,
    () => false,
  )
  const counts = useOutboxCounts()
  const meta = useSyncMeta()
  return {
    online: network && answering,
    network,
    pending: counts?.pending ?? 0,
    parked: counts?.parked ?? 0,
    conflicts: counts?.conflicts ?? 0,
    counted: counts !== undefined,
    replaying: busy,
    lastSyncedAt: meta.lastSyncedAt,
    needsSignIn: meta.needsSignIn,
  }
}

export function useParkedEntries(): ParkedEntry[] {
  return useParkedEntryRows() ?? []
}

/** Sends a rejected change again (with a new Idempotency-Key: the server keeps the rejection). */
export async function retryEntry(seq: number): Promise<void> {
  await remote?.retryEntry(seq)
  requestSync()
}

/** Drops a rejected change and restores the server's copy of the record. */
export async function discardEntry(seq: number): Promise<void> {
  await remote?.discardEntry(seq)
}

/** Before reloading for an update: replays until the outbox is idle (at most 10 s). */
export async function flushBeforeReload(): Promise<void> {
  if (!remote || !isOnline()) return
  try {
    // Bounded even if the worker never answers: the update must not hang on it.
    await Promise.race([
      remote.flush(10_000),
      new Promise((resolve) => setTimeout(resolve, 12_000)),
    ])
  } catch {
    // Whatever is left stays in IndexedDB and replays after the reload.
  }
}

/** The token this page last stored in the mirror (null: signed out). */
let syncToken: string | null = null

/**
 * The page mirrors its session token into the mirror (the worker and the SW read it there). A new
 * token refreshes every scope on screen at once (the workspaces, the current list): docs/SYNC.md
 * "Accounts".
 */
export async function setSyncToken(auth: StoredAuth): Promise<void> {
  const changed = auth.token !== syncToken
  await commands.storeAuthToken(auth)
  syncToken = auth.token
  if (changed) {
    // Another person's session: the stream restarts under their token (or stops).
    stopLive?.()
    stopLive = null
    updateLiveStream()
  }
  if (!auth.token) return
  requestSync()
  if (changed) refreshActiveScopes()
}

/** Changes not yet on the server (pending and rejected): for the sign-out confirmation. */
export function unsyncedChanges(): Promise<number> {
  return commands.unsyncedCount()
}

// ---- upload progress of files waiting in IndexedDB ----------------------------------------------

const uploads = new Map<number, number>()
const uploadListeners = new Set<() => void>()

function setUploadProgress(fileId: number, loaded: number, total: number) {
  if (total > 0 && loaded >= total) uploads.delete(fileId)
  else uploads.set(fileId, total > 0 ? loaded / total : 0)
  for (const listener of uploadListeners) listener()
}

/**
 * 0…1 while the file behind a `local-file:<n>` url is being uploaded, else null (waiting, done,
 * or any other url).
 */
export function useUploadProgress(url: string): number | null {
  const fileId = localFileId(url)
  return useSyncExternalStore(
    (listener) => {
      uploadListeners.add(listener)
      return () => uploadListeners.delete(listener)
    },
    () => (fileId === null ? null : (uploads.get(fileId) ?? null)),
    () => null,
  )
}
