import type { Table } from 'dexie'
import { withClientKeys } from '../data/client-keys.ts'
import type { MirrorDb } from '../data/db.ts'
import type { MirrorTable } from '../data/types.ts'

/**
 * Writing server data into the mirror (refresh and the completion step), in one bulk transaction
 * per scope. Rule: a record with an outbox entry (pending or parked) is never overwritten by the
 * server copy, and never deleted because the server lacks it.
 */
export async function pendingIds(db: MirrorDb, table: MirrorTable): Promise<Set<number>> {
  const entries = await db.outbox.where('table').equals(table).toArray()
  return new Set(entries.filter((e) => e.op !== 'complete').map((e) => e.recordId))
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
  const pending = await pendingIds(db, table)
  const local = await inScope(t)
  const serverIds = new Set(serverRows.map((row) => row.id))
  const vanished = local
    .filter((row) => row.id > 0 && !serverIds.has(row.id) && !pending.has(row.id))
    .map((row) => row.id)
  const fresh = serverRows.filter((row) => !pending.has(row.id))
  await t.bulkPut(await withClientKeys(db, table, fresh, local))
  await t.bulkDelete(vanished)
  return vanished
}
