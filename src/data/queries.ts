import { Dexie } from 'dexie'
import { getDb } from './db.ts'
import { creationOrder } from './ids.ts'
import { currentIdOf } from './client-keys.ts'
import { idOfKey } from './keyed.ts'
import { CURRENT_WORKSPACE, countOutbox, readSyncMeta } from './sync-state.ts'
import type {
  AppealRow,
  Background,
  BlockRow,
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
 * The mirror's reads, by name. They run where the database lives (the sync worker; the page only
 * without module workers and in tests): the page watches them through src/mirror/live.ts, and each
 * answer is re-sent whenever the tables it read change. Answers cross postMessage, so they hold
 * plain data (rows, Maps, Blobs), never functions.
 */

const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, 'ru', { sensitivity: 'base' }) || a.name.localeCompare(b.name)
const byCreation = (a: { id: number }, b: { id: number }) =>
  creationOrder(a.id) - creationOrder(b.id)
const byLayer = (a: BlockRow, b: BlockRow) => a.zindex - b.zindex || byCreation(a, b)

/** A file on this device: its server url once uploaded, else the blob waiting to be sent. */
export interface StoredFile {
  id: number
  uploadedUrl: string | null
  blob: Blob | null
}

// The lists' own order (ui/list-query.ts: Russian collation, numbers by value, then id). A list of
// 10,000 rows answered in it is already sorted when the screen sorts it, which then takes one pass
// instead of ~100 ms on the main thread.
const listCollator = new Intl.Collator('ru', { sensitivity: 'base', numeric: true })
const inListOrder = (a: { id: number; name: string }, b: { id: number; name: string }) =>
  listCollator.compare(a.name, b.name) || a.id - b.id

/** A workspace's records of one kind, in the lists' order (by name). */
async function records<K extends RecordKind>(
  kind: K,
  workspaceId: number | null,
): Promise<RecordOf<K>[]> {
  if (workspaceId === null) return []
  const rows = await getDb().recordTable(kind).where('workspace_id').equals(workspaceId).toArray()
  return rows.sort(inListOrder)
}

/** The first rows of a long list, and whether there are more. */
export interface ListHead<T> {
  rows: T[]
  more: boolean
}

/**
 * The first `limit` records of a workspace in name order (by the [workspace_id+name] index: the
 * database's code-point order, which the page's Russian collation then refines), and whether there
 * are more: a list's first screen at 10,000 rows costs what it costs at 100 (not even a count of
 * the rest, which takes tens of ms at that size).
 */
async function recordsHead<K extends RecordKind>(
  kind: K,
  workspaceId: number | null,
  limit: number,
): Promise<ListHead<RecordOf<K>>> {
  if (workspaceId === null) return { rows: [], more: false }
  const rows = await getDb()
    .recordTable(kind)
    .where('[workspace_id+name]')
    .between([workspaceId, Dexie.minKey], [workspaceId, Dexie.maxKey])
    .limit(limit + 1)
    .toArray()
  return { rows: rows.slice(0, limit), more: rows.length > limit }
}

async function record<K extends RecordKind>(kind: K, id: number): Promise<RecordOf<K> | null> {
  return Number.isFinite(id) ? ((await getDb().recordTable(kind).get(id)) ?? null) : null
}

/** What a list row says of a record's changes not on the server yet (src/ui/sync-mark.tsx). */
export type RecordSyncMark = 'pending' | 'parked' | 'conflict'
const MARK_WEIGHT: Record<RecordSyncMark, number> = { pending: 0, parked: 1, conflict: 2 }

/** A workspace's requests by [workspace_id+id]: newest first (ids rise with arrival). */
function appealsNewestFirst(workspaceId: number) {
  return getDb()
    .appeal.where('[workspace_id+id]')
    .between([workspaceId, Dexie.minKey], [workspaceId, Dexie.maxKey])
    .reverse()
}

export const QUERIES = {
  async workspaces(): Promise<Workspace[]> {
    return (await getDb().workspaces.toArray()).sort(byName)
  },

  /** The remembered workspace, else the first one by name; null when there is none. */
  async currentWorkspaceId(): Promise<number | null> {
    const db = getDb()
    const remembered = (await db.meta.get(CURRENT_WORKSPACE))?.value
    if (typeof remembered === 'number' && (await db.workspaces.get(remembered))) return remembered
    const all = (await db.workspaces.toArray()).sort(byName)
    return all[0]?.id ?? null
  },

  records,
  recordsHead,
  record,

  /**
   * Ids of `table` with unsynced ('pending'), rejected ('parked') or conflicting ('conflict')
   * changes; a record with several says the one that needs the person most.
   */
  async syncMarks(table: MirrorTable): Promise<Map<number, RecordSyncMark>> {
    const db = getDb()
    const entries = await db.outbox.where('table').equals(table).toArray()
    // Entries name their records by key: the ids shown are the ones those keys name now.
    const byKey = new Map<string, RecordSyncMark>()
    for (const entry of entries) {
      if (entry.op === 'complete') continue
      const mark: RecordSyncMark =
        entry.state !== 'parked' ? 'pending' : entry.conflict ? 'conflict' : 'parked'
      const before = byKey.get(entry.ck)
      if (!before || MARK_WEIGHT[mark] > MARK_WEIGHT[before]) byKey.set(entry.ck, mark)
    }
    const out = new Map<number, RecordSyncMark>()
    for (const [ck, mark] of byKey) out.set(await idOfKey(db, table, ck), mark)
    return out
  },

  /** A workspace's visitors' requests, newest first (docs/requests.md). */
  async appeals(workspaceId: number | null): Promise<AppealRow[]> {
    if (workspaceId === null) return []
    return appealsNewestFirst(workspaceId).toArray()
  },

  /** The newest `limit` requests of a workspace, and whether there are more: a list's first screen. */
  async appealsHead(workspaceId: number | null, limit: number): Promise<ListHead<AppealRow>> {
    if (workspaceId === null) return { rows: [], more: false }
    const rows = await appealsNewestFirst(workspaceId)
      .limit(limit + 1)
      .toArray()
    return { rows: rows.slice(0, limit), more: rows.length > limit }
  },

  async appeal(id: number): Promise<AppealRow | null> {
    return Number.isFinite(id) ? ((await getDb().appeal.get(id)) ?? null) : null
  },

  /** How many of a workspace's requests are new (the navigation's badge). */
  async newAppealCount(workspaceId: number | null): Promise<number> {
    if (workspaceId === null) return 0
    return getDb().appeal.where('[workspace_id+status]').equals([workspaceId, 'new']).count()
  },

  async projects(workspaceId: number | null): Promise<Project[]> {
    if (workspaceId === null) return []
    const rows = await getDb().projects.where('workspace_id').equals(workspaceId).toArray()
    return rows.sort(byCreation)
  },

  async project(id: number): Promise<Project | null> {
    return Number.isFinite(id) ? ((await getDb().projects.get(id)) ?? null) : null
  },

  async projectTypes(): Promise<ProjectType[]> {
    return (await getDb().projectTypes.toArray()).sort((a, b) => a.id - b.id)
  },

  async backgrounds(projectId: number): Promise<Background[]> {
    const rows = await getDb().backgrounds.where('project_id').equals(projectId).toArray()
    return rows.sort((a, b) => a.position - b.position || byCreation(a, b))
  },

  async blocks(bgId: number): Promise<BlockRow[]> {
    return (await getDb().blocks.where('bg_id').equals(bgId).toArray()).sort(byLayer)
  },

  async blocksOfProject(projectId: number): Promise<BlockRow[]> {
    const db = getDb()
    const bgIds = await db.backgrounds.where('project_id').equals(projectId).primaryKeys()
    return (await db.blocks.where('bg_id').anyOf(bgIds).toArray()).sort(byLayer)
  },

  /** One file of this device (`local-file:<id>`), or null when there is none. */
  async file(id: number | null): Promise<StoredFile | null> {
    if (id === null) return null
    const file = await getDb().files.get(id)
    return file ? storedFile(file) : null
  },

  /** Every file of this device: small rows, blobs by reference. */
  async files(): Promise<StoredFile[]> {
    return (await getDb().files.toArray()).map(storedFile)
  },

  /** The server id that replaced a local id (the row keyed by it has another id now), or null. */
  async idRedirect(table: MirrorTable, id: number): Promise<number | null> {
    const now = await currentIdOf(getDb(), table, id)
    return now === id ? null : now
  },

  outboxCounts(): Promise<{ pending: number; parked: number; conflicts: number }> {
    return countOutbox()
  },

  syncMeta(): Promise<SyncMeta> {
    return readSyncMeta()
  },

  /** The newest outbox seq (0 when empty): it grows whenever any tab queues a change. */
  async outboxLastSeq(): Promise<number> {
    return (await getDb().outbox.orderBy('seq').last())?.seq ?? 0
  },

  /**
   * Projects whose page has a publish or an unpublish waiting to be sent (not refused), with the
   * last one asked for: the screens say it will happen once the network allows.
   */
  async waitingPages(): Promise<Map<number, 'publish' | 'unpublish'>> {
    const db = getDb()
    const entries = await db.outbox.where('table').equals('projects').sortBy('seq')
    const out = new Map<number, 'publish' | 'unpublish'>()
    for (const entry of entries) {
      if (entry.state !== 'pending') continue
      if (entry.op !== 'publish' && entry.op !== 'unpublish') continue
      out.set(await idOfKey(db, 'projects', entry.ck), entry.op)
    }
    return out
  },

  async parkedEntries(): Promise<ParkedEntry[]> {
    const db = getDb()
    const rows = await db.outbox.where('state').equals('parked').sortBy('seq')
    const ids: number[] = []
    for (const entry of rows) ids.push(await idOfKey(db, entry.table, entry.ck))
    // A block's conflict is shown in per cent of its background (docs/SYNC.md "Conflicts").
    const backgrounds = new Map<number, { width: number; height: number }>()
    for (const entry of rows) {
      const bgId = entry.table === 'blocks' ? entry.conflict?.current.bg_id : undefined
      if (typeof bgId !== 'number' || backgrounds.has(bgId)) continue
      const bg = await db.backgrounds.get(bgId)
      if (bg) backgrounds.set(bgId, { width: bg.width, height: bg.height })
    }
    return rows.map((entry, i) => ({
      seq: entry.seq!,
      table: entry.table,
      recordId: ids[i]!,
      op: entry.op,
      label: entry.label,
      message: entry.message ?? '',
      code: entry.code ?? '',
      fields: entry.fields ?? {},
      conflict: entry.conflict
        ? {
            fields: entry.conflict.fields,
            current: entry.conflict.current,
            background: backgrounds.get(Number(entry.conflict.current.bg_id)),
          }
        : undefined,
    }))
  },
}

function storedFile(file: { id: number; uploadedUrl?: string | null; blob?: unknown }): StoredFile {
  return {
    id: file.id,
    uploadedUrl: file.uploadedUrl || null,
    blob: file.blob instanceof Blob ? file.blob : null,
  }
}

export type Queries = typeof QUERIES
export type QueryName = keyof Queries
