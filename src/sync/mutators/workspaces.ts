import * as v from 'valibot'
import { removeWorkspaceContent } from '../../data/cascade.ts'
import { keyFromId } from '../../data/client-keys.ts'
import type { SendOf } from '../../data/entries.ts'
import { enqueue, nextLocalId } from '../../data/outbox.ts'
import { CURRENT_WORKSPACE } from '../../data/sync-state.ts'
import { getDb } from '../../data/db.ts'
import { applyCreated, applyDeleted, applyUpdated } from './apply.ts'
import { command, RecordId } from './command.ts'
import type { SendContext } from './context.ts'
import { currentId, startFrom, write, ifMatchOf } from './local.ts'

/**
 * Workspaces: the local writes, and the requests their entries become (docs/API.md "Workspaces").
 */

declare module '../../data/entries.ts' {
  interface EntryPayloads {
    workspaces: {
      workspaces: { create: { name: string }; update: { name: string }; delete: NoPayload }
    }
  }
}

export async function setCurrentWorkspace(id: number): Promise<void> {
  await getDb().meta.put({ key: CURRENT_WORKSPACE, value: id })
}

export function createWorkspace(name: string): Promise<number> {
  return write(async (db) => {
    const id = await nextLocalId(db)
    await db.mirror('workspaces').add({ id, ck: keyFromId(id), name })
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
    const start = startFrom(await db.workspaces.get(id), ['name'])
    await db.workspaces.update(id, { name })
    await enqueue(db, {
      table: 'workspaces',
      recordId: id,
      op: 'update',
      payload: { name },
      label: name,
      ...start,
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
    await enqueue(db, {
      table: 'workspaces',
      recordId: id,
      op: 'delete',
      payload: {},
      label: row?.name,
      ...startFrom(row, []),
    })
  })
}

export const workspaceCommands = {
  setCurrentWorkspace: command(v.tuple([RecordId]), setCurrentWorkspace),
  createWorkspace: command(v.tuple([v.string()]), createWorkspace),
  renameWorkspace: command(v.tuple([RecordId, v.string()]), renameWorkspace),
  deleteWorkspace: command(v.tuple([RecordId]), deleteWorkspace),
}

export async function sendWorkspace(entry: SendOf<'workspaces'>, ctx: SendContext): Promise<void> {
  const { db, api } = ctx
  switch (entry.op) {
    case 'create':
      return applyCreated(
        db,
        entry,
        'workspaces',
        await api.addWorkspace(entry.payload.name, entry.key),
      )
    case 'update': {
      const { recordId: id, payload, key } = entry
      const row = await api.updateWorkspace(id, payload.name, key, ifMatchOf(entry))
      return applyUpdated(db, entry, 'workspaces', row)
    }
    case 'delete':
      return applyDeleted(db, entry, () =>
        api.deleteWorkspace(entry.recordId, entry.key, ifMatchOf(entry)),
      )
  }
}
