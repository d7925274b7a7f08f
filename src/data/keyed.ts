import { keyFromId, rekeyedKeys } from './client-keys.ts'
import type { MirrorDb } from './db.ts'
import type { EntryOp, NewEntry, OutboxEntry, SendEntry, SendOp } from './entries.ts'
import { isLocalId } from './ids.ts'
import { entryRefs } from './refs.ts'
import type { ClientKey, MirrorTable, OutboxTable } from './types.ts'

/**
 * Queued entries name records by client key (docs/SYNC.md "Ids"). A command's entry is stored by
 * keys (`queued`), and the ids are looked up when it is sent (`resolveEntry`): the mirror row
 * with that key holds the id now, so the server id replacing a local one changes the row only.
 */

/**
 * The id of a row that never had a server id and is gone from the mirror under a key that is no
 * id (a block keyed by the editor): local, like every id the server has not given.
 */
export const NO_SERVER_ID = Number.MIN_SAFE_INTEGER

/** What a key names now: the row's id and, when known, the version the server last gave it. */
export interface KeyedRow {
  id: number
  version?: number | undefined
}

/**
 * The row a key names now: the mirror row with that key; a row gone since, the id its add was
 * answered with (`rekeyed`); else the id the key was made from (`keyFromId`). Call inside a
 * transaction or a live query.
 */
export async function rowOfKey(db: MirrorDb, table: OutboxTable, ck: ClientKey): Promise<KeyedRow> {
  if (table !== 'files') {
    const row = await db.mirror(table).where('ck').equals(ck).first()
    if (row) return { id: row.id, version: versionField(row) }
    const rekeyed = await db.rekeyed.get([table, ck])
    if (rekeyed) return { id: rekeyed.id, version: rekeyed.version }
  }
  const id = Number(ck)
  return { id: Number.isInteger(id) ? id : NO_SERVER_ID }
}

function versionField(row: Record<string, unknown>): number | undefined {
  return typeof row.version === 'number' ? row.version : undefined
}

/** The id the row keyed `ck` has now (see `rowOfKey`). */
export async function idOfKey(db: MirrorDb, table: OutboxTable, ck: ClientKey): Promise<number> {
  return (await rowOfKey(db, table, ck)).id
}

/**
 * The key of the row with `id`: the mirror row's; a row gone since, the key a re-key recorded
 * for that id; else the id as a key (a row the server made, or one made here and never answered).
 */
export async function keyOfId(db: MirrorDb, table: OutboxTable, id: number): Promise<ClientKey> {
  if (table === 'files') return keyFromId(id)
  const row = await db.mirror(table).get(id)
  if (typeof row?.ck === 'string') return row.ck
  const rekeyed = await db.rekeyed.where('[table+id]').equals([table, id]).first()
  return rekeyed?.ck ?? keyFromId(id)
}

/** The keys of rows by id (see `keyOfId`), in the same order. */
export async function keysOfIds(
  db: MirrorDb,
  table: MirrorTable,
  ids: readonly number[],
): Promise<ClientKey[]> {
  const rows = await db.mirror(table).bulkGet([...ids])
  const keyOf = (i: number) => {
    const ck = rows[i]?.ck
    return typeof ck === 'string' ? ck : undefined
  }
  const rekeyed = await rekeyedKeys(
    db,
    table,
    ids.filter((_, i) => keyOf(i) === undefined),
  )
  return ids.map((id, i) => keyOf(i) ?? rekeyed.get(id) ?? keyFromId(id))
}

/** `payload` with each reference field of `table` mapped by `map` (null and absent kept). */
async function mapRefs<V, W>(
  table: OutboxTable,
  payload: Readonly<Record<string, unknown>>,
  isValue: (value: unknown) => value is V,
  map: (target: MirrorTable, value: V) => Promise<W>,
): Promise<Record<string, unknown>> {
  let out: Record<string, unknown> = { ...payload }
  for (const ref of entryRefs(table)) {
    const value = payload[ref.field]
    if (isValue(value)) out = { ...out, [ref.field]: await map(ref.target, value) }
  }
  return out
}

const isId = (value: unknown): value is number => typeof value === 'number'
const isKey = (value: unknown): value is ClientKey => typeof value === 'string'

/** A payload with ids (a command's, a server row's) as queued: its references by key. */
export async function keyedPayload(
  db: MirrorDb,
  table: OutboxTable,
  payload: Readonly<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  return mapRefs(table, payload, isId, (target, id) => keyOfId(db, target, id))
}

/**
 * A command's entry as the outbox stores it: its record's key (`entry.ck`, else the key of the
 * row with `recordId`) and its payload's references by key.
 */
export async function queued(db: MirrorDb, entry: NewEntry): Promise<EntryOp & { ck: ClientKey }> {
  const { recordId, ck, ...rest } = entry
  const payload = await keyedPayload(db, entry.table, entry.payload)
  // The payload keeps its fields, references turned into keys: the queued form of this operation.
  const stored = { ...rest, payload } as EntryOp
  return { ...stored, ck: ck ?? (await keyOfId(db, entry.table, recordId)) }
}

/**
 * An entry as it is sent: the id its record has now, the ids of the records its payload names,
 * and, for a change of a record first made here, the version its create made (the row's), which
 * it starts from (docs/SYNC.md "Conflicts"). `waits`: a reference, or the record of an entry that
 * does not create it, has no server id yet (its add not answered, or refused).
 */
export async function resolveEntry(
  db: MirrorDb,
  entry: OutboxEntry,
): Promise<{ entry: SendEntry; waits: boolean }> {
  let waits = false
  const payload = await mapRefs(entry.table, entry.payload, isKey, async (target, ck) => {
    const id = await idOfKey(db, target, ck)
    if (isLocalId(id)) waits = true
    return id
  })
  const row = await rowOfKey(db, entry.table, entry.ck)
  const changes =
    entry.op === 'update' || entry.op === 'toggle' || entry.op === 'save' || entry.op === 'delete'
  const baseVersion = entry.baseVersion ?? (changes ? row.version : undefined)
  // The payload keeps its fields, references turned into ids: the sent form of this operation.
  const op = { table: entry.table, op: entry.op, payload } as SendOp
  const sendable: SendEntry = {
    ...entry,
    ...op,
    recordId: row.id,
    ...(baseVersion === undefined ? {} : { baseVersion }),
  }
  const creates =
    entry.op === 'create' ||
    entry.op === 'copy' ||
    entry.op === 'upload' ||
    (entry.op === 'save' && isLocalId(row.id))
  if (entry.table !== 'files' && !creates && isLocalId(row.id)) waits = true
  return { entry: sendable, waits }
}

/**
 * The keys of the blocks queued saves name that have no server id yet: their save creates them
 * (what coalescing needs to know, src/sync/coalesce.ts).
 */
export async function localBlockKeys(
  db: MirrorDb,
  entries: readonly OutboxEntry[],
): Promise<Set<ClientKey>> {
  const out = new Set<ClientKey>()
  for (const e of entries)
    if (e.table === 'blocks' && e.op === 'save' && isLocalId(await idOfKey(db, e.table, e.ck)))
      out.add(e.ck)
  return out
}
