import type { MirrorDb } from './db.ts'
import { localFileId } from './ids.ts'
import { fieldGroup, type NewEntry, type OutboxEntry } from './entries.ts'
import { queued } from './keyed.ts'
import type { ClientKey } from './types.ts'

/**
 * Outbox helpers used inside the commands' transactions. An entry is appended per user action; the
 * replay engine coalesces entries of one record before sending (src/sync/coalesce.ts).
 */

export function newKey(): string {
  return crypto.randomUUID()
}

/**
 * Queues a command's entry, by keys (data/keyed.ts): its record and the records it refers to are
 * named by their client keys, never by the ids they have now.
 */
export async function enqueue(db: MirrorDb, entry: NewEntry): Promise<number> {
  const { label, baseVersion, base } = entry
  const stored = await queued(db, entry)
  const known = await supersedeConflicts(db, entry, stored.ck)
  const row: OutboxEntry = {
    ...stored,
    ...(baseVersion === undefined ? {} : { baseVersion }),
    ...(base === undefined ? {} : { base }),
    ...(Object.keys(known).length > 0 ? { base: { ...base, ...known } } : {}),
    key: newKey(),
    state: 'pending',
    attempts: 0,
    nextAttemptAt: 0,
    sent: false,
    label: label ?? '',
    createdAt: Date.now(),
  }
  return db.outbox.add(row)
}

const LOCAL_ID_COUNTER = 'localIdCounter'
const FILE_ID_COUNTER = 'fileIdCounter'

/** The next local (negative) id: -1, -2, … Call inside a transaction that includes `meta`. */
export async function nextLocalId(db: MirrorDb): Promise<number> {
  const row = await db.meta.get(LOCAL_ID_COUNTER)
  const next = (typeof row?.value === 'number' ? row.value : 0) - 1
  await db.meta.put({ key: LOCAL_ID_COUNTER, value: next })
  return next
}

export async function nextFileId(db: MirrorDb): Promise<number> {
  const row = await db.meta.get(FILE_ID_COUNTER)
  const next = (typeof row?.value === 'number' ? row.value : 0) + 1
  await db.meta.put({ key: FILE_ID_COUNTER, value: next })
  return next
}

/**
 * Replaces `local-file:<n>` values whose file has already been uploaded by the server url, so a
 * form that still held the local url never writes it back after the upload.
 */
export function resolveUploadedUrls<T extends Record<string, unknown>>(
  db: MirrorDb,
  fields: T,
): Promise<T> {
  const found: [string, number][] = []
  for (const [field, value] of Object.entries(fields)) {
    const fileId = typeof value === 'string' ? localFileId(value) : null
    if (fileId !== null) found.push([field, fileId])
  }
  // Always a Dexie promise (even with nothing to look up): awaiting a bare native promise inside a
  // transaction lets IndexedDB commit it early.
  return db.files.bulkGet(found.map(([, id]) => id)).then((files) => {
    let out = fields
    found.forEach(([field], index) => {
      const url = files[index]?.uploadedUrl
      if (url) out = { ...out, [field]: url }
    })
    return out
  })
}

/** Unsent entries (their content may still change) matching a predicate. */
export async function unsentEntries(
  db: MirrorDb,
  match: (entry: OutboxEntry) => boolean,
): Promise<OutboxEntry[]> {
  return db.outbox.filter((entry) => !entry.sent && match(entry)).toArray()
}

/**
 * A new change of a record supersedes what waits in its conflicts (docs/SYNC.md, "Conflicts"): the
 * fields it sets are no longer in question, a block saved again carries its whole state, a delete
 * ends them all. A conflict left with no field is dropped.
 */
async function supersedeConflicts(
  db: MirrorDb,
  entry: NewEntry,
  ck: ClientKey,
): Promise<Record<string, unknown>> {
  // The server's values of the fields a conflict showed: the new change starts from them (it
  // was made knowing them), so it is not taken for a second conflict with the same write.
  const known: Record<string, unknown> = {}
  if (
    entry.op !== 'update' &&
    entry.op !== 'toggle' &&
    entry.op !== 'save' &&
    entry.op !== 'delete'
  )
    return known
  const waiting = await db.outbox
    .where('[table+ck]')
    .equals([entry.table, ck])
    .filter((e) => e.code === 'conflict' && e.conflict !== undefined)
    .toArray()
  for (const conflict of waiting) {
    // A field taken again takes its group with it (a block's place is x and y together); a delete
    // takes every field: the person deletes the record as the conflict showed it.
    const taken = new Set(Object.keys(entry.payload).flatMap((field) => fieldGroup(field)))
    for (const clash of conflict.conflict!.fields)
      if (entry.op === 'delete' || taken.has(clash.field)) known[clash.field] = clash.theirs
    if (entry.op === 'delete' || entry.op === 'save' || conflict.op === 'delete') {
      await db.outbox.delete(conflict.seq!)
      continue
    }
    const fields = conflict.conflict!.fields.filter((c) => !taken.has(c.field))
    if (fields.length === 0) {
      await db.outbox.delete(conflict.seq!)
      continue
    }
    const keep = fields.map((c) => c.field)
    await db.outbox.put({
      ...conflict,
      payload: pick(conflict.payload as Record<string, unknown>, keep),
      base: pick(conflict.base ?? {}, keep),
      conflict: { ...conflict.conflict!, fields },
    } as OutboxEntry)
  }
  return known
}

/** The named fields of a row. */
export function pick(row: Readonly<Record<string, unknown>>, fields: Iterable<string>) {
  const out: Record<string, unknown> = {}
  for (const field of fields) out[field] = row[field]
  return out
}
