import type { Table } from 'dexie'
import { withClientKeys } from '../data/client-keys.ts'
import type { MirrorDb } from '../data/db.ts'
import { NULLABLE_REFS } from '../data/cascade.ts'
import { idOfKey, keyOfId } from '../data/keyed.ts'
import { refsFrom } from '../data/refs.ts'
import { sameRow } from '../domain/same-value.ts'
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
 * The nullable references of `table` (a subscribe block's specialist, a specialist's department
 * and location) whose target has a delete queued here, as field → ids. The server clears them
 * when the delete arrives (ON DELETE SET NULL), and the local delete already did.
 */
async function queuedDeleteTargets(
  db: MirrorDb,
  table: MirrorTable,
): Promise<Map<string, Set<number>>> {
  const out = new Map<string, Set<number>>()
  for (const ref of refsFrom(table)) {
    if (!NULLABLE_REFS.has(`${table}.${ref.field}`)) continue
    const deletes = await db.outbox
      .where('table')
      .equals(ref.target)
      .filter((e) => e.op === 'delete')
      .toArray()
    if (deletes.length === 0) continue
    const ids = new Set<number>()
    for (const entry of deletes) ids.add(await idOfKey(db, ref.target, entry.ck))
    out.set(ref.field, ids)
  }
  return out
}

/**
 * `rows` as the server sent them, with the references to records whose delete is still queued
 * cleared: a refresh between the local delete and its replay must not bring them back.
 */
export async function withoutQueuedDeleteRefs<R extends Row>(
  db: MirrorDb,
  table: MirrorTable,
  rows: readonly R[],
): Promise<readonly R[]> {
  const targets = await queuedDeleteTargets(db, table)
  if (targets.size === 0) return rows
  return rows.map((row) => {
    let next = row
    for (const [field, ids] of targets) {
      const value = next[field]
      if (typeof value === 'number' && ids.has(value)) next = { ...next, [field]: null }
    }
    return next
  })
}

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
  const cleared = await withoutQueuedDeleteRefs(db, table, serverRows)
  const keyed = await withClientKeys(db, table, cleared, local)
  // A row the mirror already holds as it is is not written again: a refresh that finds nothing
  // changed (most of them, and the second of two refreshes a burst of live events starts) writes
  // nothing, and its live queries are not run again.
  const held = new Map(local.map((row) => [row.id, row]))
  const changed = keyed.filter((row) => {
    const mine = held.get(row.id)
    return !edited(row) && !(mine && sameRow(mine, row))
  })
  await t.bulkPut(changed)
  await t.bulkDelete(vanished)
  return vanished
}
