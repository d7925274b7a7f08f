import { copyName as projectCopyName, type ProjectTypeId } from '../domain/project.ts'
import { isMasked } from '../domain/integration.ts'
import { getDb, type MirrorDb } from './db.ts'
import {
  clearReferences,
  removeBackgroundContent,
  removeProjectContent,
  removeWorkspaceContent,
} from './cascade.ts'
import { isLocalId, localFileUrl } from './ids.ts'
import { enqueue, nextFileId, nextLocalId, resolveUploadedUrls } from './outbox.ts'
import { createsRecord, refsFrom } from './refs.ts'
import { redirectKey } from './sync-state.ts'
import {
  hasEnabled,
  type BlockRow,
  type LocalBlock,
  type MirrorTable,
  type RecordFields,
  type RecordKind,
  type RecordOf,
  type RecordPatch,
  type ToggleKind,
} from './types.ts'

/**
 * Commands (the write path): each is ONE Dexie transaction that writes the local record and appends
 * an outbox entry, so the UI is optimistic and nothing is lost if the tab closes right after.
 */

function write<T>(fn: (db: MirrorDb) => Promise<T>): Promise<T> {
  const db = getDb()
  // An async scope function: Dexie keeps the transaction across native awaits only for those.
  return db.transaction('rw', db.allTables(), async () => fn(db))
}

/**
 * The id a record has now. A screen may still hold a local id whose add replayed a moment ago (the
 * row was re-keyed to the server id): writing under the old id would create a second record.
 */
async function currentId(db: MirrorDb, table: MirrorTable, id: number): Promise<number> {
  if (!isLocalId(id)) return id
  const redirect = await db.meta.get(redirectKey(table, id))
  return typeof redirect?.value === 'number' ? redirect.value : id
}

/** The row with every reference to a since-replayed local id moved to the server id. */
async function withCurrentRefs<T extends Record<string, unknown>>(
  db: MirrorDb,
  table: MirrorTable,
  row: T,
): Promise<T> {
  let next = row
  for (const ref of refsFrom(table)) {
    const value = next[ref.field]
    if (typeof value !== 'number' || !isLocalId(value)) continue
    const id = await currentId(db, ref.target, value)
    if (id !== value) next = { ...next, [ref.field]: id }
  }
  return next
}

export const CURRENT_WORKSPACE = 'currentWorkspace'

export async function setCurrentWorkspace(id: number): Promise<void> {
  await getDb().meta.put({ key: CURRENT_WORKSPACE, value: id })
}

// ---------------------------------------------------------------------------------------------
// Workspaces

export function createWorkspace(name: string): Promise<number> {
  return write(async (db) => {
    const id = await nextLocalId(db)
    await db.workspaces.add({ id, name })
    await enqueue(db, {
      table: 'workspaces',
      recordId: id,
      op: 'create',
      payload: { name },
      label: name,
    })
    return id
  })
}

export function renameWorkspace(id: number, name: string): Promise<void> {
  return write(async (db) => {
    id = await currentId(db, 'workspaces', id)
    await db.workspaces.update(id, { name })
    await enqueue(db, {
      table: 'workspaces',
      recordId: id,
      op: 'update',
      payload: { name },
      label: name,
    })
  })
}

/** Deletes the workspace and, locally, everything in it (the server cascades the same way). */
export function deleteWorkspace(id: number): Promise<void> {
  return write(async (db) => {
    id = await currentId(db, 'workspaces', id)
    const row = await db.workspaces.get(id)
    await removeWorkspaceContent(db, id)
    await db.workspaces.delete(id)
    const current = await db.meta.get(CURRENT_WORKSPACE)
    if (current?.value === id) await db.meta.delete(CURRENT_WORKSPACE)
    await enqueue(db, { table: 'workspaces', recordId: id, op: 'delete', label: row?.name })
  })
}

// ---------------------------------------------------------------------------------------------
// Integrations and directory

const DEFAULTS: { [K in RecordKind]: Omit<RecordOf<K>, 'id' | 'workspace_id' | 'name'> } = {
  amo: { subdomain: '', client_id: '', client_secret: '', redirect_uri: '', enabled: true },
  bitrix: { portal_url: '', webhook_url: '', enabled: true },
  department: { description: '' },
  location: { address: '', phone: '' },
  specialist: {
    position: '',
    department_id: null,
    location_id: null,
    phone: '',
    email: '',
    photo_url: '',
    description: '',
    enabled: true,
  },
}

export function createRecord<K extends RecordKind>(
  kind: K,
  workspaceId: number,
  fields: RecordFields<K>,
): Promise<number> {
  return write(async (db) => {
    const id = await nextLocalId(db)
    const uploaded = await resolveUploadedUrls(db, fields as Record<string, unknown>)
    const resolved = await withCurrentRefs(db, kind, uploaded)
    const { enabled, ...input } = resolved as Record<string, unknown> & { enabled?: boolean }
    const row = { ...DEFAULTS[kind], ...input, id, workspace_id: workspaceId } as RecordOf<K>
    if (hasEnabled(kind)) (row as { enabled: boolean }).enabled = enabled !== false
    await db.recordTable(kind).add(row)
    const label = String(input.name ?? '')
    await enqueue(db, {
      table: kind,
      recordId: id,
      op: 'create',
      payload: { workspace_id: workspaceId, ...input },
      label,
    })
    // The add call knows no `enabled`: a record made disabled is disabled right after.
    if (hasEnabled(kind) && enabled === false) {
      await enqueue(db, {
        table: kind,
        recordId: id,
        op: 'toggle',
        payload: { enabled: false },
        label,
      })
    }
    return id
  })
}

/** Changes some fields; a secret left out (or sent back masked) keeps its stored value. */
export function updateRecord<K extends RecordKind>(
  kind: K,
  id: number,
  patch: RecordPatch<K>,
): Promise<void> {
  return write(async (db) => {
    id = await currentId(db, kind, id)
    const uploaded = await resolveUploadedUrls(db, patch as Record<string, unknown>)
    const resolved = await withCurrentRefs(db, kind, uploaded)
    const { enabled, ...fields } = resolved as Record<string, unknown> & { enabled?: boolean }
    for (const [field, value] of Object.entries(fields)) {
      if (typeof value === 'string' && isMasked(value)) delete fields[field]
    }
    const table = db.recordTable(kind)
    const row = await table.get(id)
    if (!row) return
    const label = String(fields.name ?? row.name)
    if (Object.keys(fields).length > 0) {
      await table.update(id, fields as never)
      await enqueue(db, { table: kind, recordId: id, op: 'update', payload: fields, label })
    }
    if (enabled !== undefined && hasEnabled(kind)) {
      await table.update(id, { enabled } as never)
      await enqueue(db, { table: kind, recordId: id, op: 'toggle', payload: { enabled }, label })
    }
  })
}

export function deleteRecord(kind: RecordKind, id: number): Promise<void> {
  return write(async (db) => {
    id = await currentId(db, kind, id)
    const row = await db.recordTable(kind).get(id)
    await db.recordTable(kind).delete(id)
    await clearReferences(db, kind, [id])
    await enqueue(db, { table: kind, recordId: id, op: 'delete', label: row?.name })
  })
}

export function setRecordEnabled(kind: ToggleKind, id: number, enabled: boolean): Promise<void> {
  return write(async (db) => {
    id = await currentId(db, kind, id)
    const table = db.recordTable(kind)
    const row = await table.get(id)
    if (!row) return
    await table.update(id, { enabled } as never)
    await enqueue(db, {
      table: kind,
      recordId: id,
      op: 'toggle',
      payload: { enabled },
      label: row.name,
    })
  })
}

// ---------------------------------------------------------------------------------------------
// Projects and backgrounds

export function createProject(workspaceId: number, name: string): Promise<number> {
  return write(async (db) => {
    const id = await nextLocalId(db)
    await db.projects.add({
      id,
      workspace_id: workspaceId,
      name,
      type: null,
      updated_at: new Date().toISOString(),
    })
    await enqueue(db, {
      table: 'projects',
      recordId: id,
      op: 'create',
      payload: { workspace_id: workspaceId, name },
      label: name,
    })
    return id
  })
}

export function renameProject(id: number, name: string): Promise<void> {
  return write(async (db) => {
    id = await currentId(db, 'projects', id)
    await db.projects.update(id, { name, updated_at: new Date().toISOString() })
    await enqueue(db, {
      table: 'projects',
      recordId: id,
      op: 'update',
      payload: { name },
      label: name,
    })
  })
}

export function setProjectType(id: number, type: ProjectTypeId): Promise<void> {
  return write(async (db) => {
    id = await currentId(db, 'projects', id)
    const row = await db.projects.get(id)
    await db.projects.update(id, { type, updated_at: new Date().toISOString() })
    await enqueue(db, {
      table: 'projects',
      recordId: id,
      op: 'update',
      payload: { type },
      label: row?.name,
    })
  })
}

/**
 * Copies a project. The server copies backgrounds and blocks; locally the copy shows the project
 * row at once (named `name`, by default like the original) and its content once the copy replays.
 */
export function copyProject(id: number, name?: string): Promise<number> {
  return write(async (db) => {
    id = await currentId(db, 'projects', id)
    const source = await db.projects.get(id)
    const copyId = await nextLocalId(db)
    const copyName = name ?? (source ? projectCopyName(source.name) : '')
    await db.projects.add({
      id: copyId,
      workspace_id: source?.workspace_id ?? 0,
      name: copyName,
      type: source?.type ?? null,
      updated_at: new Date().toISOString(),
      cover_url: source?.cover_url ?? null,
    })
    await enqueue(db, {
      table: 'projects',
      recordId: copyId,
      op: 'copy',
      payload: { source_id: id },
      label: copyName,
    })
    return copyId
  })
}

/**
 * After a cascade: false when the record is local and its create (or copy) is no longer queued. The
 * cascade dropped it unsent, so the server never heard of the record and a delete would wait for a
 * server id forever.
 */
async function mayBeOnServer(db: MirrorDb, table: 'projects' | 'backgrounds', id: number) {
  if (!isLocalId(id)) return true
  const entries = await db.outbox.where('[table+recordId]').equals([table, id]).toArray()
  return entries.some(createsRecord)
}

export function deleteProject(id: number): Promise<void> {
  return write(async (db) => {
    id = await currentId(db, 'projects', id)
    const row = await db.projects.get(id)
    // A copy of it waits in the outbox: the server must get the project (and its content) first.
    const copied = await db.outbox
      .filter((e) => e.op === 'copy' && e.payload.source_id === id)
      .count()
    await removeProjectContent(db, [id], { keepQueued: copied > 0 })
    await db.projects.delete(id)
    if (!(await mayBeOnServer(db, 'projects', id))) return
    await enqueue(db, { table: 'projects', recordId: id, op: 'delete', label: row?.name })
  })
}

/** Adds a background image; the file waits in `files` until add_bg replays. */
export function addBackground(
  projectId: number,
  file: Blob,
  size: { width: number; height: number },
): Promise<number> {
  return write(async (db) => {
    const id = await nextLocalId(db)
    const fileId = await nextFileId(db)
    await db.files.add({ id: fileId, blob: file, type: file.type, createdAt: Date.now() })
    const last = await db.backgrounds.where('project_id').equals(projectId).toArray()
    const position = last.reduce((max, bg) => Math.max(max, bg.position + 1), 0)
    await db.backgrounds.add({
      id,
      project_id: projectId,
      image_url: localFileUrl(fileId),
      width: size.width,
      height: size.height,
      position,
    })
    await enqueue(db, {
      table: 'backgrounds',
      recordId: id,
      op: 'create',
      payload: { project_id: projectId, file: fileId, width: size.width, height: size.height },
    })
    return id
  })
}

export function deleteBackground(id: number): Promise<void> {
  return write(async (db) => {
    id = await currentId(db, 'backgrounds', id)
    const row = await db.backgrounds.get(id)
    // A copy of its project waits in the outbox: the server must get the background and its blocks
    // first (the copy reads them there), and their delete after.
    const copied = row
      ? await db.outbox
          .filter((e) => e.op === 'copy' && e.payload.source_id === row.project_id)
          .count()
      : 0
    await removeBackgroundContent(db, [id], { keepQueued: copied > 0 })
    await db.backgrounds.delete(id)
    if (!(await mayBeOnServer(db, 'backgrounds', id))) return
    await enqueue(db, {
      table: 'backgrounds',
      recordId: id,
      op: 'delete',
      payload: row ? { project_id: row.project_id } : {},
    })
  })
}

// ---------------------------------------------------------------------------------------------
// Blocks: the stage save (spec §4 "saving the stage is a chain")

function blockLabel(block: LocalBlock): string {
  if ('name' in block && block.name) return block.name
  if ('text' in block && block.text) return block.text
  return ''
}

function sameBlock(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)])
  for (const key of keys) if (!Object.is(a[key], b[key])) return false
  return true
}

/**
 * Upserts blocks (no id → a new local id) and queues a save per changed block, then the
 * completion step of every touched background. Unchanged blocks send nothing. Returns the ids.
 */
export function saveBlocks(blocks: LocalBlock[]): Promise<number[]> {
  return write(async (db) => {
    const ids: number[] = []
    const touched = new Set<number>()
    for (const input of blocks) {
      const known =
        input.id === undefined ? input : { ...input, id: await currentId(db, 'blocks', input.id) }
      const resolved = await resolveUploadedUrls(db, known as Record<string, unknown>)
      const block = (await withCurrentRefs(db, 'blocks', resolved)) as LocalBlock
      const id = block.id ?? (await nextLocalId(db))
      ids.push(id)
      const row = { ...block, id } as BlockRow
      const stored = block.id === undefined ? undefined : await db.blocks.get(id)
      if (stored && sameBlock(stored, row)) continue
      await db.blocks.put(row)
      const { id: _id, ...payload } = row
      await enqueue(db, {
        table: 'blocks',
        recordId: id,
        op: 'save',
        payload,
        label: blockLabel(block),
      })
      touched.add(row.bg_id)
    }
    for (const bgId of touched) {
      await enqueue(db, {
        table: 'backgrounds',
        recordId: bgId,
        op: 'complete',
        payload: { bg_id: bgId },
      })
    }
    return ids
  })
}

export function deleteBlocks(ids: number[]): Promise<void> {
  return write(async (db) => {
    const touched = new Set<number>()
    for (const known of ids) {
      const id = await currentId(db, 'blocks', known)
      const row = await db.blocks.get(id)
      if (!row) continue
      await db.blocks.delete(id)
      await enqueue(db, {
        table: 'blocks',
        recordId: id,
        op: 'delete',
        payload: { type: row.type, bg_id: row.bg_id },
        label: blockLabel(row),
      })
      touched.add(row.bg_id)
    }
    for (const bgId of touched) {
      await enqueue(db, {
        table: 'backgrounds',
        recordId: bgId,
        op: 'complete',
        payload: { bg_id: bgId },
      })
    }
  })
}

// ---------------------------------------------------------------------------------------------
// Uploads

/**
 * Keeps an image in IndexedDB and returns `local-file:<n>`, usable at once (`useFileUrl`). The
 * worker uploads it first when the network allows and rewrites every field holding that url.
 */
export function uploadFile(file: Blob): Promise<string> {
  return write(async (db) => {
    const fileId = await nextFileId(db)
    await db.files.add({ id: fileId, blob: file, type: file.type, createdAt: Date.now() })
    await enqueue(db, { table: 'files', recordId: fileId, op: 'upload' })
    return localFileUrl(fileId)
  })
}
