import { useLiveQuery } from 'dexie-react-hooks'
import { useMemo } from 'react'
import { CURRENT_WORKSPACE } from './commands.ts'
import { getDb } from './db.ts'
import { creationOrder, isLocalId, localFileId } from './ids.ts'
import { DEFAULT_SYNC_META, readSyncMeta, redirectKey } from './sync-state.ts'
import type {
  Background,
  BlockRow,
  FileRow,
  MirrorTable,
  ParkedEntry,
  Project,
  ProjectType,
  RecordKind,
  RecordOf,
  SyncMeta,
  Workspace,
} from './types.ts'

/**
 * React hooks over the mirror (live queries): a screen paints from IndexedDB at once and updates
 * when a refresh or a command lands. `undefined` means still loading.
 */

const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, 'ru', { sensitivity: 'base' }) || a.name.localeCompare(b.name)
const byCreation = (a: { id: number }, b: { id: number }) =>
  creationOrder(a.id) - creationOrder(b.id)

export function useWorkspaces(): Workspace[] | undefined {
  return useLiveQuery(async () => (await getDb().workspaces.toArray()).sort(byName), [])
}

/** The remembered workspace, else the first one by name; null when there is none. */
export function useCurrentWorkspaceId(): number | null | undefined {
  return useLiveQuery(async () => {
    const db = getDb()
    const remembered = (await db.meta.get(CURRENT_WORKSPACE))?.value
    if (typeof remembered === 'number' && (await db.workspaces.get(remembered))) return remembered
    const all = (await db.workspaces.toArray()).sort(byName)
    return all[0]?.id ?? null
  }, [])
}

export function useRecords<K extends RecordKind>(
  kind: K,
  workspaceId: number | null,
): RecordOf<K>[] | undefined {
  return useLiveQuery(async () => {
    if (workspaceId === null) return []
    const rows = await getDb().recordTable(kind).where('workspace_id').equals(workspaceId).toArray()
    return rows.sort(byCreation)
  }, [kind, workspaceId])
}

export function useRecord<K extends RecordKind>(
  kind: K,
  id: number,
): RecordOf<K> | null | undefined {
  return useLiveQuery(
    async () => (Number.isFinite(id) ? ((await getDb().recordTable(kind).get(id)) ?? null) : null),
    [kind, id],
  )
}

/** Ids of `table` with unsynced ('pending') or rejected ('parked') changes. */
export function useSyncMarks(table: MirrorTable): Map<number, 'pending' | 'parked'> {
  const marks = useLiveQuery(async () => {
    const entries = await getDb().outbox.where('table').equals(table).toArray()
    const out = new Map<number, 'pending' | 'parked'>()
    for (const entry of entries) {
      if (entry.op === 'complete') continue
      if (entry.state === 'parked') out.set(entry.recordId, 'parked')
      else if (!out.has(entry.recordId)) out.set(entry.recordId, 'pending')
    }
    return out
  }, [table])
  return marks ?? EMPTY_MARKS
}
const EMPTY_MARKS = new Map<number, 'pending' | 'parked'>()

export function useProjects(workspaceId: number | null): Project[] | undefined {
  return useLiveQuery(async () => {
    if (workspaceId === null) return []
    const rows = await getDb().projects.where('workspace_id').equals(workspaceId).toArray()
    return rows.sort(byCreation)
  }, [workspaceId])
}

export function useProject(id: number): Project | null | undefined {
  return useLiveQuery(
    async () => (Number.isFinite(id) ? ((await getDb().projects.get(id)) ?? null) : null),
    [id],
  )
}

export function useProjectTypes(): ProjectType[] | undefined {
  return useLiveQuery(
    async () => (await getDb().projectTypes.toArray()).sort((a, b) => a.id - b.id),
    [],
  )
}

export function useBackgrounds(projectId: number): Background[] | undefined {
  return useLiveQuery(async () => {
    const rows = await getDb().backgrounds.where('project_id').equals(projectId).toArray()
    return rows.sort((a, b) => a.position - b.position || byCreation(a, b))
  }, [projectId])
}

const byLayer = (a: BlockRow, b: BlockRow) => a.zindex - b.zindex || byCreation(a, b)

export function useBlocks(bgId: number): BlockRow[] | undefined {
  return useLiveQuery(
    async () => (await getDb().blocks.where('bg_id').equals(bgId).toArray()).sort(byLayer),
    [bgId],
  )
}

export function useBlocksOfProject(projectId: number): BlockRow[] | undefined {
  return useLiveQuery(async () => {
    const db = getDb()
    const bgIds = await db.backgrounds.where('project_id').equals(projectId).primaryKeys()
    return (await db.blocks.where('bg_id').anyOf(bgIds).toArray()).sort(byLayer)
  }, [projectId])
}

// One object URL per waiting file for the page's lifetime (a handful of images; the blob is
// already held in IndexedDB, and a revoked URL would break another component showing the same file).
const objectUrls = new WeakMap<Blob, string>()

function objectUrlOf(blob: Blob): string {
  let url = objectUrls.get(blob)
  if (!url) {
    url = URL.createObjectURL(blob)
    objectUrls.set(blob, url)
  }
  return url
}

/**
 * Resolves `local-file:<n>` (an upload waiting in IndexedDB) to an object URL, or to the server url
 * once uploaded; any other url passes through. '' while the file is being read or is missing.
 */
export function useFileUrl(url: string): string {
  const fileId = localFileId(url)
  const file = useLiveQuery(
    async () => (fileId === null ? null : ((await getDb().files.get(fileId)) ?? null)),
    [fileId],
  )
  if (fileId === null) return url
  return file ? fileAddress(file) : ''
}

/** Where a stored file loads from: the server once uploaded, else its blob; '' when it has neither. */
function fileAddress(file: FileRow): string {
  if (file.uploadedUrl) return file.uploadedUrl
  return file.blob instanceof Blob ? objectUrlOf(file.blob) : ''
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
  const resolved = useLiveQuery(async () => {
    const files = await getDb().files.toArray()
    return files.map((file): [number, string] => [file.id, fileAddress(file)])
  }, [])
  // Keyed by content: a live-query rerun with the same answers keeps the same function.
  const key = JSON.stringify(resolved ?? [])
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
  const target = useLiveQuery(async () => {
    if (!isLocalId(id)) return null
    const row = await getDb().meta.get(redirectKey(table, id))
    return typeof row?.value === 'number' ? row.value : null
  }, [table, id])
  return target ?? null
}

// ---------------------------------------------------------------------------------------------
// Sync status (used by src/sync/client.ts)

export function useOutboxCounts(): { pending: number; parked: number } | undefined {
  return useLiveQuery(async () => {
    const db = getDb()
    const parked = await db.outbox.where('state').equals('parked').count()
    return { pending: (await db.outbox.count()) - parked, parked }
  }, [])
}

export function useSyncMeta(): SyncMeta {
  return useLiveQuery(() => readSyncMeta(), []) ?? DEFAULT_SYNC_META
}

export function useParkedEntryRows(): ParkedEntry[] | undefined {
  return useLiveQuery(async () => {
    const rows = await getDb().outbox.where('state').equals('parked').sortBy('seq')
    return rows.map((entry) => ({
      seq: entry.seq!,
      table: entry.table,
      recordId: entry.recordId,
      op: entry.op,
      label: entry.label,
      message: entry.message ?? '',
      code: entry.code ?? '',
      fields: entry.fields ?? {},
    }))
  }, [])
}
