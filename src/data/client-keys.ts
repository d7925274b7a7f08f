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

/** Server rows of `table` with the client keys the mirror holds for their ids. */
export async function withClientKeys<R extends Row>(
  db: MirrorDb,
  table: MirrorTable,
  rows: readonly R[],
): Promise<R[]> {
  if (rows.length === 0) return []
  const stored = await db.mirror(table).bulkGet(rows.map((row) => row.id))
  return rows.map((row, i) => ({ ...row, ck: stored[i]?.ck ?? row.ck ?? keyFromId(row.id) }))
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
