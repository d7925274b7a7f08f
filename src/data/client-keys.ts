import Dexie from 'dexie'
import type { MirrorDb } from './db.ts'
import { isLocalId } from './ids.ts'
import type { ClientKey, MirrorTable } from './types.ts'

/**
 * Client keys (types.ts `ClientKey`, docs/SYNC.md "Ids") live on every mirrored row. The server
 * knows nothing of them, so every row it sends is given the key the mirror already holds for that
 * id, or its id as a key when the row is new here.
 */

type Row = { id: number } & Record<string, unknown>

/** The key of a row born with `id` (on the server, or here under a local id). */
export function keyFromId(id: number): ClientKey {
  return String(id)
}

/**
 * Server rows of `table` with the client keys the mirror holds for their ids (or a re-key recorded,
 * for a row gone from the mirror since). `known`: mirror rows
 * the caller has read already (a scope being reconciled); only ids not among them are looked up.
 */
export async function withClientKeys<R extends Row>(
  db: MirrorDb,
  table: MirrorTable,
  rows: readonly R[],
  known: readonly Row[] = [],
): Promise<R[]> {
  if (rows.length === 0) return []
  const keys = new Map<number, unknown>(known.map((row) => [row.id, row.ck]))
  const missing = rows.filter((row) => !keys.has(row.id)).map((row) => row.id)
  // Many rows new to the scope (a first fill of 10,000) are mostly not in the table at all: its
  // ids alone are read much faster than a row for each of them.
  const ids =
    missing.length > 50 ? new Set(await db.mirror(table).toCollection().primaryKeys()) : null
  const inTable = ids ? missing.filter((id) => ids.has(id)) : missing
  const stored = inTable.length > 0 ? await db.mirror(table).bulkGet(inTable) : []
  stored.forEach((row, i) => keys.set(inTable[i]!, row?.ck))
  // A row made here and deleted here since (its delete still queued): the key its add recorded.
  const gone = missing.filter((id) => keys.get(id) === undefined)
  for (const [id, ck] of await rekeyedKeys(db, table, gone)) keys.set(id, ck)
  return rows.map((row) => ({ ...row, ck: keys.get(row.id) ?? row.ck ?? keyFromId(row.id) }))
}

/**
 * The keys re-keys recorded for rows no longer in the mirror, by id (the first in the index's order
 * where an id has several). Many ids (a first fill, a refresh's thousands of server deletions) read
 * the table's re-keys in one range rather than one read each.
 */
export async function rekeyedKeys(
  db: MirrorDb,
  table: MirrorTable,
  ids: readonly number[],
): Promise<Map<number, ClientKey>> {
  const out = new Map<number, ClientKey>()
  if (ids.length === 0) return out
  const byId = db.rekeyed.where('[table+id]')
  const found =
    ids.length <= 50
      ? await byId.anyOf(ids.map((id) => [table, id])).toArray()
      : await byId.between([table, Dexie.minKey], [table, Dexie.maxKey]).toArray()
  const wanted = new Set(ids)
  for (const row of found) if (wanted.has(row.id) && !out.has(row.id)) out.set(row.id, row.ck)
  return out
}

/** The server's copy of a row that had `local` as its mirror row: it keeps the local row's key. */
export function keepingKey<R extends Row>(local: Row, row: R): R {
  return local.ck === undefined ? row : { ...row, ck: local.ck }
}

/**
 * The id a row born under `id` has now: a local id is the key of the row it was given to, which
 * keeps it when the server's id replaces the local one. A screen or a command still holding the
 * local id (a link, a form opened before the add replayed) reaches the same row. Call inside a
 * transaction or a live query.
 */
export async function currentIdOf(db: MirrorDb, table: MirrorTable, id: number): Promise<number> {
  if (!isLocalId(id)) return id
  const row = await db.mirror(table).where('ck').equals(keyFromId(id)).first()
  return row?.id ?? id
}
