import type { MirrorDb } from './db.ts'
import { localFileId } from './ids.ts'
import { refsTo } from './refs.ts'
import { payloadFields, withPayloadField, type OutboxEntry } from './entries.ts'
import { keysOfIds } from './keyed.ts'
import { RECORD_KINDS, type ClientKey, type DiscardedChange, type MirrorTable } from './types.ts'

/**
 * What a local delete takes with it, mirroring the server's foreign keys: a workspace its records,
 * projects and visitors' requests, a project its backgrounds, a background its blocks (ON DELETE CASCADE); a department
 * or location is cleared from specialists (ON DELETE SET NULL). Unsent outbox entries about removed
 * records are dropped too: the server deletes those records itself. Entries name records by key:
 * the keys are read before the rows go. Call inside a transaction over every table.
 */

async function dropEntries(db: MirrorDb, match: (entry: OutboxEntry) => boolean): Promise<void> {
  const entries = await db.outbox.filter((entry) => !entry.sent && match(entry)).toArray()
  for (const entry of entries) {
    // A background never uploaded takes its waiting file along.
    if (entry.table === 'backgrounds' && entry.op === 'create')
      await db.files.delete(entry.payload.file)
  }
  await db.outbox.bulkDelete(entries.map((entry) => entry.seq!))
}

/**
 * `keepQueued`: remove the local rows only. For a project a queued copy still reads on the server:
 * its create and content must reach the server before the copy, and its delete after.
 */
export interface CascadeOptions {
  keepQueued?: boolean
}

export async function removeBackgroundContent(
  db: MirrorDb,
  bgIds: number[],
  options: CascadeOptions = {},
): Promise<void> {
  const blockRows = await db.blocks.where('bg_id').anyOf(bgIds).toArray()
  await db.blocks.bulkDelete(blockRows.map((row) => row.id))
  if (options.keepQueued) return
  const bgs = new Set(await keysOfIds(db, 'backgrounds', bgIds))
  const blocks = new Set(blockRows.map((row) => row.ck))
  await dropEntries(
    db,
    (e) =>
      (e.table === 'blocks' &&
        (blocks.has(e.ck) ||
          (e.op === 'delete' && bgs.has(e.payload.bg_id)) ||
          (e.op === 'save' && bgs.has(e.payload.bg_id)))) ||
      (e.table === 'backgrounds' && bgs.has(e.ck)),
  )
}

export async function removeProjectContent(
  db: MirrorDb,
  projectIds: number[],
  options: CascadeOptions = {},
): Promise<void> {
  const projects = new Set(await keysOfIds(db, 'projects', projectIds))
  const bgIds = await db.backgrounds.where('project_id').anyOf(projectIds).primaryKeys()
  await removeBackgroundContent(db, bgIds, options)
  await db.backgrounds.bulkDelete(bgIds)
  if (options.keepQueued) return
  await dropEntries(
    db,
    (e) =>
      (e.table === 'projects' && projects.has(e.ck) && e.op !== 'delete') ||
      (e.table === 'backgrounds' &&
        e.op !== 'complete' &&
        e.payload.project_id !== undefined &&
        projects.has(e.payload.project_id)),
  )
}

export async function removeWorkspaceContent(db: MirrorDb, workspaceId: number): Promise<void> {
  const [workspace] = await keysOfIds(db, 'workspaces', [workspaceId])
  const projectIds = await db.projects.where('workspace_id').equals(workspaceId).primaryKeys()
  const removed = new Map<MirrorTable, Set<ClientKey>>([
    ['projects', new Set(await keysOfIds(db, 'projects', projectIds))],
  ])
  await removeProjectContent(db, projectIds)
  await db.projects.bulkDelete(projectIds)
  for (const kind of RECORD_KINDS) {
    const ids = await db.recordTable(kind).where('workspace_id').equals(workspaceId).primaryKeys()
    removed.set(kind, new Set(await keysOfIds(db, kind, ids)))
    await db.recordTable(kind).bulkDelete(ids)
  }
  const appeals = await db.appeal.where('workspace_id').equals(workspaceId).primaryKeys()
  removed.set('appeal', new Set(await keysOfIds(db, 'appeal', appeals)))
  await db.appeal.bulkDelete(appeals)
  await dropEntries(
    db,
    (e) =>
      e.table !== 'files' &&
      e.table !== 'workspaces' &&
      (removed.get(e.table)?.has(e.ck) === true || payloadFields(e).workspace_id === workspace),
  )
}

/**
 * Drops a workspace that is no longer the person's from the mirror: its row, everything in it and
 * every change still queued for it, which the server would refuse (sent ones are in flight and
 * settle by themselves). Answers its name and the changes dropped; null when it was not here.
 * Call inside a transaction over every table.
 */
export async function dropWorkspace(
  db: MirrorDb,
  workspaceId: number,
): Promise<{ name: string; discarded: DiscardedChange[] } | null> {
  const row = await db.workspaces.get(workspaceId)
  if (!row) return null
  const [key] = await keysOfIds(db, 'workspaces', [workspaceId])
  // Changes the server already refused (a 404 once the person was out) are about it too: they
  // go with the rest rather than wait for a «Повторить» that cannot succeed.
  const inside = new Set<string>([`workspaces:${key}`])
  const note = async (table: MirrorTable, rows: { id: number }[]) => {
    const keys = await keysOfIds(
      db,
      table,
      rows.map((r) => r.id),
    )
    for (const ck of keys) inside.add(`${table}:${ck}`)
  }
  const projects = await db.projects.where('workspace_id').equals(workspaceId).toArray()
  const bgs = await db.backgrounds
    .where('project_id')
    .anyOf(projects.map((p) => p.id))
    .toArray()
  await note('projects', projects)
  await note('backgrounds', bgs)
  await note(
    'blocks',
    await db.blocks
      .where('bg_id')
      .anyOf(bgs.map((b) => b.id))
      .toArray(),
  )
  for (const kind of RECORD_KINDS)
    await note(kind, await db.recordTable(kind).where('workspace_id').equals(workspaceId).toArray())
  const refused = (await db.outbox.where('state').equals('parked').toArray()).filter(
    (e) =>
      e.table !== 'files' &&
      (inside.has(`${e.table}:${e.ck}`) || payloadFields(e).workspace_id === key),
  )
  const queued = [
    ...(await db.outbox.filter((entry) => !entry.sent).toArray()),
    ...refused.filter((entry) => entry.sent),
  ]
  await removeWorkspaceContent(db, workspaceId)
  await dropEntries(db, (e) => e.table === 'workspaces' && e.ck === key)
  await db.outbox.bulkDelete(refused.map((entry) => entry.seq!))
  await db.workspaces.delete(workspaceId)
  const left = new Set(await db.outbox.toCollection().primaryKeys())
  return { name: row.name, discarded: discardedOf(queued, left) }
}

/** The queued changes not among `left` (outbox seqs), as the notice lists them. */
export function discardedOf(
  queued: readonly OutboxEntry[],
  left: ReadonlySet<number>,
): DiscardedChange[] {
  return queued
    .filter((entry) => !left.has(entry.seq!))
    .map((entry) => ({ table: entry.table, op: entry.op, label: entry.label }))
}

/** References that the server sets to null when their target is deleted (the rest cascade). */
export const NULLABLE_REFS: ReadonlySet<string> = new Set([
  'specialist.department_id',
  'specialist.location_id',
  'blocks.specialist_id',
])

/**
 * Clears references to deleted records: a specialist's department_id/location_id, a subscribe
 * block's specialist_id → null, in the mirror and in unsent queued payloads. Takes every deleted id
 * at once: a refresh may reflect thousands of server deletions, and each pass scans whole tables.
 */
export async function clearReferences(
  db: MirrorDb,
  target: MirrorTable,
  ids: Iterable<number>,
): Promise<void> {
  const gone = new Set(ids)
  // The outbox read comes first so this function always awaits IndexedDB (see resolveUploadedUrls).
  const queued = await db.outbox.filter((e) => !e.sent).toArray()
  if (gone.size === 0) return
  // Queued payloads name the records by key.
  const goneKeys = new Set(await keysOfIds(db, target, [...gone]))
  const points = (value: unknown) => typeof value === 'string' && goneKeys.has(value)
  for (const ref of refsTo(target)) {
    if (!NULLABLE_REFS.has(`${ref.table}.${ref.field}`)) continue
    // Indexed since schema version 2 (db.ts).
    const rows = await db
      .mirror(ref.table)
      .where(ref.field)
      .anyOf([...gone])
      .toArray()
    await db.mirror(ref.table).bulkPut(rows.map((row) => ({ ...row, [ref.field]: null })))
    const entries = queued.filter(
      (e) => e.table === ref.table && points(payloadFields(e)[ref.field]),
    )
    await db.outbox.bulkPut(entries.map((e) => withPayloadField(e, ref.field, null)))
  }
}

/** Every `local-file:<n>` value in the mirror and the outbox becomes `url`. */
export async function rewriteFileUrl(db: MirrorDb, fileId: number, url: string): Promise<void> {
  const matches = (value: unknown) => typeof value === 'string' && localFileId(value) === fileId
  const replace = <T extends object>(obj: T): T | null => {
    let out: T | null = null
    for (const [field, value] of Object.entries(obj)) {
      if (matches(value)) out = { ...(out ?? obj), [field]: url }
    }
    return out
  }
  for (const table of ['blocks', 'backgrounds', 'specialist'] as const) {
    const changed = (await db.mirror(table).toArray()).map(replace).filter((row) => row !== null)
    await db.mirror(table).bulkPut(changed)
  }
  const entries = await db.outbox.toArray()
  const updated: OutboxEntry[] = []
  for (const entry of entries) {
    let next = entry
    for (const [field, value] of Object.entries(payloadFields(entry))) {
      if (matches(value)) next = withPayloadField(next, field, url)
    }
    if (next !== entry) updated.push(next)
  }
  await db.outbox.bulkPut(updated)
}
