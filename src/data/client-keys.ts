import type { MirrorDb } from './db.ts'
import type { ClientKey, MirrorTable } from './types.ts'

/**
 * Client keys (types.ts `ClientKey`, docs/SYNC.md "Ids") live on blocks and backgrounds. The server
 * knows nothing of them, so every row it sends is given the key the mirror already holds for that
 * id, or its id as a key when the row is new here.
 */
export const KEYED_TABLES: ReadonlySet<MirrorTable> = new Set(['blocks', 'backgrounds'])

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
  if (!KEYED_TABLES.has(table) || rows.length === 0) return [...rows]
  const stored = await db.mirror(table).bulkGet(rows.map((row) => row.id))
  return rows.map((row, i) => ({ ...row, ck: stored[i]?.ck ?? row.ck ?? keyFromId(row.id) }))
}

/** The server's copy of a row that had `local` as its mirror row: it keeps the local row's key. */
export function keepingKey<R extends Row>(local: Row, row: R): R {
  return local.ck === undefined ? row : { ...row, ck: local.ck }
}
