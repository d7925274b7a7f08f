import { useCallback, useMemo, useSyncExternalStore } from 'react'
import { localFileId } from '../data/ids.ts'
import type { ListHead, Queries, QueryName, RecordSyncMark, StoredFile } from '../data/queries.ts'
import type { WatchMessage } from '../sync/service.ts'
import {
  DEFAULT_SYNC_META,
  type AppealRow,
  type Background,
  type BlockRow,
  type MirrorTable,
  type ParkedEntry,
  type Project,
  type ProjectType,
  type RecordKind,
  type RecordOf,
  type SyncMeta,
  type Workspace,
} from '../data/types.ts'
import { unwatch, watch } from './port.ts'

/**
 * React hooks over the mirror (live queries answered by the sync worker, src/mirror/port.ts): a
 * screen paints from IndexedDB at once and updates when a refresh or a command lands. `undefined`
 * means still loading. Screens showing the same query share one watch.
 */

type Answer<Q extends QueryName> = Awaited<ReturnType<Queries[Q]>>

interface Watched {
  id: number
  key: string
  query: QueryName
  args: readonly unknown[]
  watching: boolean
  answered: boolean
  value: unknown
  error: Error | null
  listeners: Set<() => void>
  release: ReturnType<typeof setTimeout> | null
}

const watched = new Map<string, Watched>()
let nextId = 1

function watchedFor(query: QueryName, args: readonly unknown[]): Watched {
  const key = JSON.stringify([query, args])
  let entry = watched.get(key)
  if (!entry) {
    entry = {
      id: nextId++,
      key,
      query,
      args,
      watching: false,
      answered: false,
      value: undefined,
      error: null,
      listeners: new Set(),
      release: null,
    }
    watched.set(key, entry)
  }
  return entry
}

function receive(entry: Watched, message: WatchMessage): void {
  if ('error' in message) {
    entry.error = Object.assign(new Error(message.error.message), message.error)
  } else {
    entry.value = message.value
    entry.answered = true
    entry.error = null
  }
  for (const listener of entry.listeners) listener()
}

function subscribe(entry: Watched, listener: () => void): () => void {
  if (entry.release) clearTimeout(entry.release)
  entry.release = null
  if (!entry.watching) {
    entry.watching = true
    watched.set(entry.key, entry)
    watch(entry.id, entry.query, entry.args, (message) => receive(entry, message))
  }
  entry.listeners.add(listener)
  return () => {
    entry.listeners.delete(listener)
    if (entry.listeners.size > 0) return
    // Released a moment later: a screen that re-subscribes at once (React's strict mode, a
    // re-render with the same query) keeps the watch and its answer.
    entry.release = setTimeout(() => {
      if (entry.listeners.size === 0) release(entry)
    }, 0)
  }
}

function release(entry: Watched): void {
  if (entry.release) clearTimeout(entry.release)
  entry.release = null
  unwatch(entry.id)
  if (watched.get(entry.key) === entry) watched.delete(entry.key)
  entry.watching = false
  entry.answered = false
  entry.value = undefined
  entry.error = null
}

/** `query(...args)` from the mirror, kept current; undefined until the first answer. */
export function useMirror<Q extends QueryName>(
  query: Q,
  ...args: Parameters<Queries[Q]>
): Answer<Q> | undefined {
  const key = JSON.stringify([query, args])
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the key stands for query and args
  const entry = useMemo(() => watchedFor(query, args), [key])
  const subscribeToEntry = useCallback(
    (listener: () => void) => subscribe(entry, listener),
    [entry],
  )
  const value = useSyncExternalStore(
    subscribeToEntry,
    () => entry.value,
    () => undefined,
  )
  if (entry.error) throw entry.error
  return value as Answer<Q> | undefined
}

/** The same outside React: `onValue` with every answer; returns the unsubscribe function. */
export function watchMirror<Q extends QueryName>(
  query: Q,
  args: Parameters<Queries[Q]>,
  onValue: (value: Answer<Q>) => void,
): () => void {
  const entry = watchedFor(query, args)
  const listener = () => {
    if (entry.answered) onValue(entry.value as Answer<Q>)
  }
  const stop = subscribe(entry, listener)
  if (entry.answered) listener()
  return stop
}

export function useWorkspaces(): Workspace[] | undefined {
  return useMirror('workspaces')
}

/** The remembered workspace, else the first one by name; null when there is none. */
export function useCurrentWorkspaceId(): number | null | undefined {
  return useMirror('currentWorkspaceId')
}

export function useRecords<K extends RecordKind>(
  kind: K,
  workspaceId: number | null,
): RecordOf<K>[] | undefined {
  return useMirror('records', kind, workspaceId) as RecordOf<K>[] | undefined
}

/** How many rows a list screen first paints while the whole list is read (a tall screen's worth). */
export const LIST_FIRST_ROWS = 40

/**
 * A workspace's records for a list screen. A long list paints its first screen at once: the first
 * rows in name order come first (one small indexed read), and only then is the whole kind read
 * (hundreds of ms at 10,000 rows, which would otherwise hold the worker before the first row);
 * until it has been, `items` is that first screen and `partial` is true. A list that fits in the
 * first screen is read once.
 */
export function useRecordList<K extends RecordKind>(
  kind: K,
  workspaceId: number | null,
): { items: RecordOf<K>[] | undefined; partial: boolean } {
  const head = useMirror('recordsHead', kind, workspaceId, LIST_FIRST_ROWS) as
    ListHead<RecordOf<K>> | undefined
  const more = head?.more === true
  const all = useRecords(kind, more ? workspaceId : null)
  if (!head) return { items: undefined, partial: false }
  if (!more) return { items: head.rows, partial: false }
  return all ? { items: all, partial: false } : { items: head.rows, partial: true }
}

export function useRecord<K extends RecordKind>(
  kind: K,
  id: number,
): RecordOf<K> | null | undefined {
  return useMirror('record', kind, id) as RecordOf<K> | null | undefined
}

/** Ids of `table` with unsynced ('pending') or rejected ('parked') changes. */
export function useSyncMarks(table: MirrorTable): Map<number, RecordSyncMark> {
  return useMirror('syncMarks', table) ?? EMPTY_MARKS
}
const EMPTY_MARKS = new Map<number, RecordSyncMark>()

/**
 * A workspace's visitors' requests, newest first, as `useRecordList` reads a long list: the newest
 * screenful at once, then all of them (`partial` until then).
 */
export function useAppealList(workspaceId: number | null): {
  items: AppealRow[] | undefined
  partial: boolean
} {
  const head = useMirror('appealsHead', workspaceId, LIST_FIRST_ROWS)
  const more = head?.more === true
  const all = useMirror('appeals', more ? workspaceId : null)
  if (!head) return { items: undefined, partial: false }
  if (!more) return { items: head.rows, partial: false }
  return all ? { items: all, partial: false } : { items: head.rows, partial: true }
}

export function useAppeal(id: number): AppealRow | null | undefined {
  return useMirror('appeal', id)
}

/** How many of the workspace's requests are new (undefined while it is read). */
export function useNewAppealCount(workspaceId: number | null): number | undefined {
  return useMirror('newAppealCount', workspaceId)
}

export function useProjects(workspaceId: number | null): Project[] | undefined {
  return useMirror('projects', workspaceId)
}

export function useProject(id: number): Project | null | undefined {
  return useMirror('project', id)
}

export function useProjectTypes(): ProjectType[] | undefined {
  return useMirror('projectTypes')
}

export function useBackgrounds(projectId: number): Background[] | undefined {
  return useMirror('backgrounds', projectId)
}

export function useBlocks(bgId: number): BlockRow[] | undefined {
  return useMirror('blocks', bgId)
}

export function useBlocksOfProject(projectId: number): BlockRow[] | undefined {
  return useMirror('blocksOfProject', projectId)
}

/** Projects with a publish or unpublish waiting to be sent, and which (docs/SYNC.md "Publishing"). */
export function useWaitingPages(): Map<number, 'publish' | 'unpublish'> {
  return useMirror('waitingPages') ?? NO_WAITING_PAGES
}
const NO_WAITING_PAGES = new Map<number, 'publish' | 'unpublish'>()

// One object URL per waiting file for the page's lifetime (a handful of images; the blob is
// already held in IndexedDB, and a revoked URL would break another component showing the same
// file). Keyed by file id: every answer from the worker carries a new Blob object for the same file.
const objectUrls = new Map<number, string>()

/** Where a stored file loads from: the server once uploaded, else its blob; '' when it has neither. */
function fileAddress(file: StoredFile): string {
  if (file.uploadedUrl) return file.uploadedUrl
  if (!file.blob) return ''
  let url = objectUrls.get(file.id)
  if (!url) {
    url = URL.createObjectURL(file.blob)
    objectUrls.set(file.id, url)
  }
  return url
}

/**
 * Resolves `local-file:<n>` (an upload waiting in IndexedDB) to an object URL, or to the server url
 * once uploaded; any other url passes through. '' while the file is being read or is missing.
 */
export function useFileUrl(url: string): string {
  const fileId = localFileId(url)
  const file = useMirror('file', fileId)
  if (fileId === null) return url
  return file ? fileAddress(file) : ''
}

/**
 * `useFileUrl` for any number of urls (the editor's backgrounds and blocks, including edits not in
 * the mirror yet): one live query over the device's files. Returns a function giving the address to
 * load for any url: a server url, a blob: url, or '' while a file on the device is still being read
 * or is missing (never the `local-file:` address itself, which nothing can load). Stable while the
 * answers stay the same. The files table holds only this device's uploads: small rows, blobs by
 * reference.
 */
export function useFileUrlResolver(): (url: string) => string {
  const files = useMirror('files')
  // Keyed by content: a new answer with the same addresses keeps the same function.
  const key = JSON.stringify((files ?? []).map((file) => [file.id, fileAddress(file)]))
  return useMemo(() => {
    const map = new Map<number, string>(JSON.parse(key) as [number, string][])
    return (url: string) => {
      const id = localFileId(url)
      return id === null ? url : (map.get(id) ?? '')
    }
  }, [key])
}

/** The server id that replaced a local id (follow `/specialist/-3` to `/specialist/42`), or null. */
export function useIdRedirect(table: MirrorTable, id: number): number | null {
  return useMirror('idRedirect', table, id) ?? null
}

// ---------------------------------------------------------------------------------------------
// Sync status (used by src/sync/client.ts)

export function useOutboxCounts():
  { pending: number; parked: number; conflicts: number } | undefined {
  return useMirror('outboxCounts')
}

export function useSyncMeta(): SyncMeta {
  return useMirror('syncMeta') ?? DEFAULT_SYNC_META
}

export function useParkedEntryRows(): ParkedEntry[] | undefined {
  return useMirror('parkedEntries')
}

/**
 * Tests: drops every answer no screen is showing, at once (a test that swaps the database with
 * `setDb` must not see the previous database's answers kept for a quick re-subscribe).
 */
export function forgetIdleAnswers(): void {
  for (const entry of [...watched.values()]) {
    if (entry.listeners.size === 0) release(entry)
  }
}
