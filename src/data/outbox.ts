import type { MirrorDb } from './db.ts'
import { localFileId } from './ids.ts'
import type { NewEntry, OutboxEntry } from './entries.ts'

/**
 * Outbox helpers used inside the commands' transactions. An entry is appended per user action; the
 * replay engine coalesces entries of one record before sending (src/sync/coalesce.ts).
 */

export function newKey(): string {
  return crypto.randomUUID()
}

export async function enqueue(db: MirrorDb, entry: NewEntry): Promise<number> {
  const row: OutboxEntry = {
    ...entry,
    key: newKey(),
    state: 'pending',
    attempts: 0,
    nextAttemptAt: 0,
    sent: false,
    label: entry.label ?? '',
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
