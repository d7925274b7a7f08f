import { ApiError } from '../../api/client.ts'
import { keepingKey } from '../../data/client-keys.ts'
import type { MirrorDb } from '../../data/db.ts'
import type { OutboxEntry } from '../../data/entries.ts'
import { refsFrom, refsTo, remapEntry, remapRow } from '../../data/refs.ts'
import { CURRENT_WORKSPACE } from '../../data/sync-state.ts'
import type { MirrorTable } from '../../data/types.ts'
import { versionOf } from './local.ts'

/**
 * Step 6 of the replay protocol (docs/SYNC.md): applying the server's answer to the mirror, in one
 * transaction with the entry's removal. The entity mutators call these with what their request
 * returned.
 */

/** A mirror row as the server returns it. */
export type Row = { id: number } & Record<string, unknown>

export function inAll<T>(db: MirrorDb, fn: () => Promise<T>): Promise<T> {
  return db.transaction('rw', db.allTables(), async () => fn())
}

/** Queued edits of one record (the completion step of a background is not an edit of it). */
async function editEntriesOf(db: MirrorDb, table: MirrorTable, id: number) {
  const entries = await db.outbox.where('[table+recordId]').equals([table, id]).toArray()
  return entries.filter((e) => e.op !== 'complete')
}

/** How many edits of one record are queued. */
export async function editsOf(db: MirrorDb, table: MirrorTable, id: number): Promise<number> {
  return (await editEntriesOf(db, table, id)).length
}

/**
 * A specialist answered before a queued delete of its department or location replays still names
 * it; the server clears that reference when the delete arrives (ON DELETE SET NULL), and so did
 * the local delete: keep it cleared rather than bring it back.
 */
async function withoutDeletedRefs(db: MirrorDb, table: MirrorTable, row: Row): Promise<Row> {
  if (table !== 'specialist') return row
  let next = row
  for (const ref of refsFrom(table)) {
    if (ref.field === 'workspace_id') continue
    const value = next[ref.field]
    if (typeof value !== 'number') continue
    const deletes = await db.outbox
      .where('[table+recordId]')
      .equals([ref.target, value])
      .filter((e) => e.op === 'delete')
      .count()
    if (deletes > 0) next = { ...next, [ref.field]: null }
  }
  return next
}

/** The add of a record under local id `entry.recordId` returned `row`: re-key, rewrite references. */
export async function applyCreated(
  db: MirrorDb,
  entry: OutboxEntry,
  table: MirrorTable,
  row: Row,
): Promise<void> {
  const from = entry.recordId
  const to = row.id
  await inAll(db, async () => {
    await db.outbox.delete(entry.seq!)
    const t = db.mirror(table)
    const local = await t.get(from)
    const stillEdited = (await editsOf(db, table, from)) > 0
    // Later edits are queued: keep the local state (it is newer), only the id changes. A row
    // deleted locally meanwhile is not brought back (its delete, if any, follows remapped). Either
    // way the row keeps its client key.
    if (local) {
      await t.put(
        stillEdited
          ? { ...local, id: to }
          : keepingKey(local, await withoutDeletedRefs(db, table, row)),
      )
    }
    if (from !== to) await t.delete(from)
    for (const ref of refsTo(table)) {
      const rows = await db
        .mirror(ref.table)
        .filter((r) => r[ref.field] === from)
        .toArray()
      const moved = rows
        .map((r) => remapRow(ref.table, r, table, from, to))
        .filter((r) => r !== null)
      await db.mirror(ref.table).bulkPut(moved)
    }
    const entries = await db.outbox.toArray()
    const remapped = entries
      .map((e) => remapEntry(e, table, from, to))
      .filter((e) => e !== null)
      .map((e) => startingAtCreate(e, table, to, row))
    await db.outbox.bulkPut(remapped)
    if (table === 'workspaces') {
      const current = await db.meta.get(CURRENT_WORKSPACE)
      if (current?.value === from) await db.meta.put({ key: CURRENT_WORKSPACE, value: to })
    }
  })
}

/**
 * Edits made on a record before its create was answered start from the version the create made
 * (docs/SYNC.md, "Conflicts"): nobody else could have changed it before.
 */
function startingAtCreate(e: OutboxEntry, table: MirrorTable, id: number, row: Row): OutboxEntry {
  const version = versionOf(row)
  if (e.table !== table || e.recordId !== id || e.baseVersion !== undefined) return e
  if (version === undefined || e.op === 'create' || e.op === 'complete') return e
  return { ...e, baseVersion: version }
}

/**
 * An update or toggle came back: the server copy replaces the local one unless more edits wait;
 * then only its version is taken, and the waiting edits that started where this one did now start
 * from the version it made (they were made on top of it).
 */
export async function applyUpdated(
  db: MirrorDb,
  entry: OutboxEntry,
  table: MirrorTable,
  row: Row,
): Promise<void> {
  await inAll(db, async () => {
    await db.outbox.delete(entry.seq!)
    const version = versionOf(row)
    const waiting = await editEntriesOf(db, table, row.id)
    if (version !== undefined && entry.baseVersion !== undefined) {
      const rebased = waiting
        .filter((e) => e.baseVersion === entry.baseVersion && e.state === 'pending')
        .map((e) => ({ ...e, baseVersion: version }))
      await db.outbox.bulkPut(rebased)
    }
    const local = await db.mirror(table).get(row.id)
    if (!local) return
    if (waiting.length === 0)
      await db.mirror(table).put(keepingKey(local, await withoutDeletedRefs(db, table, row)))
    else if (version !== undefined) await db.mirror(table).put({ ...local, version })
  })
}

/** Done, nothing to write back. */
export async function applyDone(db: MirrorDb, entry: OutboxEntry): Promise<void> {
  await db.outbox.delete(entry.seq!)
}

/** A delete the server answers 404 to has nothing left to delete: done. */
export async function applyDeleted(
  db: MirrorDb,
  entry: OutboxEntry,
  call: () => Promise<unknown>,
): Promise<void> {
  try {
    await call()
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error
  }
  await applyDone(db, entry)
}
