import { ApiError } from '../../api/client.ts'
import { keepingKey } from '../../data/client-keys.ts'
import type { MirrorDb } from '../../data/db.ts'
import type { SendEntry } from '../../data/entries.ts'
import { refsTo, remapRow } from '../../data/refs.ts'
import { CURRENT_WORKSPACE } from '../../data/sync-state.ts'
import type { ClientKey, MirrorTable } from '../../data/types.ts'
import { withoutQueuedDeleteRefs } from '../mirror.ts'
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

/** Queued edits of one record, by its key (the completion step of a background is not an edit of it). */
async function editEntriesOf(db: MirrorDb, table: MirrorTable, ck: ClientKey) {
  const entries = await db.outbox.where('[table+ck]').equals([table, ck]).toArray()
  return entries.filter((e) => e.op !== 'complete')
}

/** How many edits of one record (named by its key) are queued. */
export async function editsOf(db: MirrorDb, table: MirrorTable, ck: ClientKey): Promise<number> {
  return (await editEntriesOf(db, table, ck)).length
}

/**
 * A record answered before a queued delete of what it names replays still names it: a specialist
 * its department or location, a subscribe block its specialist (also when the answer is the
 * stored first answer of a save repeated after a lost one). The server clears that reference when
 * the delete arrives (ON DELETE SET NULL), and so did the local delete: keep it cleared rather
 * than bring it back, by the same rule a refresh follows (`withoutQueuedDeleteRefs`).
 */
async function withoutDeletedRefs(db: MirrorDb, table: MirrorTable, row: Row): Promise<Row> {
  const [cleared] = await withoutQueuedDeleteRefs(db, table, [row])
  return cleared ?? row
}

/**
 * The add of a record (the entry's key, a local id until now) returned `row`: the row takes the
 * server id and the mirror's references follow it; `rekeyed` remembers the id for the key. Queued
 * entries name the record by key and stay as they are: they find the id when they are sent, and a
 * change made here before this answer starts from the version it made (data/keyed.ts).
 */
export async function applyCreated(
  db: MirrorDb,
  entry: SendEntry,
  table: MirrorTable,
  row: Row,
): Promise<void> {
  const to = row.id
  await inAll(db, async () => {
    await db.outbox.delete(entry.seq!)
    const t = db.mirror(table)
    const local = await t.where('ck').equals(entry.ck).first()
    const from = local?.id ?? entry.recordId
    const stillEdited = (await editsOf(db, table, entry.ck)) > 0
    const version = versionOf(row)
    // Later edits are queued: keep the local state (it is newer), only the id and the version
    // change. A row deleted locally meanwhile is not brought back (its delete, if any, finds the
    // id in `rekeyed`). Either way the row keeps its client key.
    if (local) {
      await t.put(
        stillEdited
          ? { ...local, id: to, ...(version === undefined ? {} : { version }) }
          : keepingKey(local, await withoutDeletedRefs(db, table, row)),
      )
      if (local.id !== to) await t.delete(local.id)
    }
    await db.rekeyed.put({
      table,
      ck: entry.ck,
      id: to,
      ...(version === undefined ? {} : { version }),
    })
    if (from === to) return
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
    if (table === 'workspaces') {
      const current = await db.meta.get(CURRENT_WORKSPACE)
      if (current?.value === from) await db.meta.put({ key: CURRENT_WORKSPACE, value: to })
    }
  })
}

/**
 * An update or toggle came back: the server copy replaces the local one unless more edits wait;
 * then only its version is taken, and the waiting edits that started where this one did now start
 * from the version it made (they were made on top of it).
 */
export async function applyUpdated(
  db: MirrorDb,
  entry: SendEntry,
  table: MirrorTable,
  row: Row,
): Promise<void> {
  await inAll(db, async () => {
    await db.outbox.delete(entry.seq!)
    const version = versionOf(row)
    const waiting = await editEntriesOf(db, table, entry.ck)
    if (version !== undefined && entry.baseVersion !== undefined) {
      const rebased = waiting
        .filter((e) => e.baseVersion === entry.baseVersion && e.state === 'pending')
        .map((e) => ({ ...e, baseVersion: version }))
      await db.outbox.bulkPut(rebased)
    }
    const local = await db.mirror(table).where('ck').equals(entry.ck).first()
    if (!local) return
    if (waiting.length === 0)
      await db.mirror(table).put(keepingKey(local, await withoutDeletedRefs(db, table, row)))
    else if (version !== undefined) await db.mirror(table).put({ ...local, version })
  })
}

/** Done, nothing to write back. */
export async function applyDone(db: MirrorDb, entry: { seq?: number }): Promise<void> {
  await db.outbox.delete(entry.seq!)
}

/** A delete the server answers 404 to has nothing left to delete: done. */
export async function applyDeleted(
  db: MirrorDb,
  entry: { seq?: number },
  call: () => Promise<unknown>,
): Promise<void> {
  try {
    await call()
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error
  }
  await applyDone(db, entry)
}
