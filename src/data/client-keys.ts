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
  const stored = missing.length > 0 ? await db.mirror(table).bulkGet(missing) : []
  stored.forEach((row, i) => keys.set(missing[i]!, row?.ck))
  // A row made here and deleted here since (its delete still queued): the key its add recorded.
  // Many rows new here (a first fill of 10,000) read the table's re-keyed rows in one range rather
  // than asking for each id.
  const gone = missing.filter((id) => keys.get(id) === undefined)
  const byId = db.rekeyed.where('[table+id]')
  const rekeyed =
    gone.length === 0
      ? []
      : gone.length <= 50
        ? await byId.anyOf(gone.map((id) => [table, id])).toArray()
        : await byId.between([table, Dexie.minKey], [table, Dexie.maxKey]).toArray()
  const wanted = new Set(gone)
  for (const row of rekeyed) if (wanted.has(row.id)) keys.set(row.id, row.ck)
  return rows.map((row) => ({ ...row, ck: keys.get(row.id) ?? row.ck ?? keyFromId(row.id) }))
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
