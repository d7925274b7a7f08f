import * as v from 'valibot'
import {
  copyName as projectCopyName,
  PROJECT_TYPE_IDS,
  type ProjectTypeId,
} from '../../domain/project.ts'
import { removeProjectContent } from '../../data/cascade.ts'
import { keyFromId } from '../../data/client-keys.ts'
import type { MirrorDb } from '../../data/db.ts'
import type { SendOf } from '../../data/entries.ts'
import { keyOfId } from '../../data/keyed.ts'
import { isLocalId } from '../../data/ids.ts'
import { enqueue, nextLocalId } from '../../data/outbox.ts'
import { applyCreated, applyDeleted, applyDone, applyUpdated } from './apply.ts'
import { command, RecordId } from './command.ts'
import type { SendContext } from './context.ts'
import { currentId, startFrom, versionOf, write, ifMatchOf } from './local.ts'
import { markPageChanged } from './page-changed.ts'
import { sendPublishing } from './publishing.ts'

/**
 * Projects (docs/API.md "Projects, backgrounds, uploads"): the local writes, and the requests their
 * entries become.
 */

declare module '../../data/entries.ts' {
  interface EntryPayloads {
    /** The operations on a project's page (publish, unpublish, set_slug) are publishing.ts's. */
    projects: {
      projects: {
        /** `type`: chosen before the add replayed, merged in by coalescing (sent as set_type). */
        create: { workspace_id: number; name: string; type?: ProjectTypeId | null }
        /** A rename and/or set_type. */
        update: { name?: string; type?: ProjectTypeId | null }
        /** The entry's record is the copy (a local id until answered); `source_id` the original. */
        copy: { source_id: number }
        delete: NoPayload
      }
    }
  }
}

export function createProject(workspaceId: number, name: string): Promise<number> {
  return write(async (db) => {
    const id = await nextLocalId(db)
    await db.mirror('projects').add({
      id,
      ck: keyFromId(id),
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
    const start = startFrom(await db.projects.get(id), ['name'])
    await db.projects.update(id, { name, updated_at: new Date().toISOString() })
    await markPageChanged(db, id)
    await enqueue(db, {
      table: 'projects',
      recordId: id,
      op: 'update',
      payload: { name },
      label: name,
      ...start,
    })
  })
}

export function setProjectType(id: number, type: ProjectTypeId): Promise<void> {
  return write(async (db) => {
    id = await currentId(db, 'projects', id)
    const row = await db.projects.get(id)
    await db.projects.update(id, { type, updated_at: new Date().toISOString() })
    await markPageChanged(db, id)
    await enqueue(db, {
      table: 'projects',
      recordId: id,
      op: 'update',
      payload: { type },
      label: row?.name,
      ...startFrom(row, ['type']),
    })
  })
}

/**
 * Copies a project. The server copies backgrounds and blocks; locally the copy shows the project
 * row at once (named `name`, by default as the server names it) and its content once the copy
 * replays.
 */
export function copyProject(id: number, name?: string): Promise<number> {
  return write(async (db) => {
    id = await currentId(db, 'projects', id)
    const source = await db.projects.get(id)
    const copyId = await nextLocalId(db)
    const copyName = name ?? (source ? projectCopyName(source.name) : '')
    await db.mirror('projects').add({
      id: copyId,
      ck: keyFromId(copyId),
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

/** Whether a copy of the project waits in the outbox (it reads the project on the server). */
export async function copyQueued(db: MirrorDb, projectId: number): Promise<boolean> {
  const ck = await keyOfId(db, 'projects', projectId)
  const copies = await db.outbox
    .filter((e) => e.table === 'projects' && e.op === 'copy' && e.payload.source_id === ck)
    .count()
  return copies > 0
}

/**
 * After a cascade: false when the record is local and its create (or copy) is no longer queued. The
 * cascade dropped it unsent, so the server never heard of the record and a delete would wait for a
 * server id forever.
 */
export async function mayBeOnServer(db: MirrorDb, table: 'projects' | 'backgrounds', id: number) {
  if (!isLocalId(id)) return true
  const ck = await keyOfId(db, table, id)
  const entries = await db.outbox.where('[table+ck]').equals([table, ck]).toArray()
  return entries.some((e) => e.op === 'create' || e.op === 'copy')
}

export function deleteProject(id: number): Promise<void> {
  return write(async (db) => {
    id = await currentId(db, 'projects', id)
    const row = await db.projects.get(id)
    // A copy of it waits in the outbox: the server must get the project (and its content) first.
    await removeProjectContent(db, [id], { keepQueued: await copyQueued(db, id) })
    await db.projects.delete(id)
    if (!(await mayBeOnServer(db, 'projects', id))) return
    await enqueue(db, {
      table: 'projects',
      recordId: id,
      op: 'delete',
      payload: {},
      label: row?.name,
      ...startFrom(row, []),
    })
  })
}

export const projectCommands = {
  createProject: command(v.tuple([RecordId, v.string()]), createProject),
  renameProject: command(v.tuple([RecordId, v.string()]), renameProject),
  setProjectType: command(v.tuple([RecordId, v.picklist(PROJECT_TYPE_IDS)]), setProjectType),
  copyProject: command(v.tuple([RecordId, v.optional(v.string())]), copyProject),
  deleteProject: command(v.tuple([RecordId]), deleteProject),
}

export async function sendProject(entry: SendOf<'projects'>, ctx: SendContext): Promise<void> {
  const { db, api } = ctx
  const { recordId: id, key } = entry
  switch (entry.op) {
    case 'create': {
      const { workspace_id, name, type } = entry.payload
      let project = await api.addProject(workspace_id, name, key)
      // add knows only the name: a type chosen before the add replayed (merged into the create
      // by coalescing) follows as set_type, under a key derived from the entry's.
      if (type) project = await api.setProjectType(project.id, type, `${key}:type`)
      return applyCreated(db, entry, 'projects', project)
    }
    case 'copy': {
      const copy = await api.copyProject(entry.payload.source_id, key)
      await applyCreated(db, entry, 'projects', copy)
      return ctx.refreshProject(copy.id).catch(() => undefined)
    }
    case 'update': {
      // Two calls for one entry: each gets its own key derived from the entry's key.
      const { name, type } = entry.payload
      // The second call starts from the version the first one made.
      let row = null
      let version = entry.baseVersion
      if (name !== undefined) {
        row = await api.renameProject(id, name, `${key}:rename`, ifMatchOf(entry, version))
        if (version !== undefined) version = versionOf(row)
      }
      if (type) row = await api.setProjectType(id, type, `${key}:type`, ifMatchOf(entry, version))
      return row ? applyUpdated(db, entry, 'projects', row) : applyDone(db, entry)
    }
    case 'delete':
      return applyDeleted(db, entry, () => api.deleteProject(id, key, ifMatchOf(entry)))
    case 'publish':
    case 'unpublish':
    case 'set_slug':
      return sendPublishing(entry, ctx)
  }
}
