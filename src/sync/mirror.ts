import type { Table } from 'dexie'
import { withClientKeys } from '../data/client-keys.ts'
import type { MirrorDb } from '../data/db.ts'
import { keyOfId } from '../data/keyed.ts'
import type { ClientKey, MirrorTable } from '../data/types.ts'

/**
 * Writing server data into the mirror (refresh and the completion step), in one bulk transaction
 * per scope. Rule: a record with an outbox entry (pending or parked) is never overwritten by the
 * server copy, and never deleted because the server lacks it.
 */
export async function pendingKeys(db: MirrorDb, table: MirrorTable): Promise<Set<ClientKey>> {
  const entries = await db.outbox.where('table').equals(table).toArray()
  return new Set(entries.filter((e) => e.op !== 'complete').map((e) => e.ck))
}

/** Whether the row with `id` has an outbox entry (entries name it by key). */
export async function hasEntries(db: MirrorDb, table: MirrorTable, id: number): Promise<boolean> {
  return (await pendingKeys(db, table)).has(await keyOfId(db, table, id))
}

type Row = { id: number } & Record<string, unknown>

/**
 * Puts `serverRows` and deletes the local rows of the scope (`inScope`) that the server no longer
 * has. Local (negative) ids are never deleted here: they wait for their add. Rows keep their client
 * keys (data/client-keys.ts). Returns the ids deleted. Call inside a transaction over `table` and `outbox`.
 */
export async function reconcile(
  db: MirrorDb,
  table: MirrorTable,
  inScope: (t: Table<Row, number>) => Promise<Row[]>,
  serverRows: readonly Row[],
): Promise<number[]> {
  const t = db.mirror(table)
  const pending = await pendingKeys(db, table)
  const local = await inScope(t)
  const serverIds = new Set(serverRows.map((row) => row.id))
  const edited = (row: Row) => typeof row.ck === 'string' && pending.has(row.ck)
  const vanished = local
    .filter((row) => row.id > 0 && !serverIds.has(row.id) && !edited(row))
    .map((row) => row.id)
  const keyed = await withClientKeys(db, table, serverRows, local)
  await t.bulkPut(keyed.filter((row) => !edited(row)))
  await t.bulkDelete(vanished)
  return vanished
}
