import * as v from 'valibot'
import { isMasked } from '../../domain/integration.ts'
import { clearReferences } from '../../data/cascade.ts'
import { keyFromId } from '../../data/client-keys.ts'
import type { NoPayload, SendOf } from '../../data/entries.ts'
import { enqueue, nextLocalId, resolveUploadedUrls } from '../../data/outbox.ts'
import {
  hasEnabled,
  RECORD_KINDS,
  TOGGLE_KINDS,
  type RecordFields,
  type RecordKind,
  type RecordOf,
  type RecordPatch,
  type ToggleKind,
} from '../../data/types.ts'
import { applyCreated, applyDeleted, applyUpdated } from './apply.ts'
import { command, Fields, RecordId, shaped } from './command.ts'
import type { SendContext } from './context.ts'
import { currentId, startFrom, withCurrentRefs, write, ifMatchOf } from './local.ts'

/**
 * Integrations (amo, bitrix) and the directory (department, location, specialist): the seven calls
 * of docs/API.md "Integrations and directory" — the local writes, and the requests their entries
 * become.
 */

/** A record's own fields, as an add or an update sends them (`enabled` has calls of its own). */
type RecordInput<K extends RecordKind> = Omit<RecordOf<K>, 'id' | 'workspace_id' | 'enabled'>

/** The operations on a record of kind `K`; toggle (disable/able) only for kinds that have it. */
type RecordPayloads<K extends RecordKind> = {
  create: { workspace_id: number } & Partial<RecordInput<K>>
  update: Partial<RecordInput<K>>
  delete: NoPayload
} & (K extends ToggleKind ? { toggle: { enabled: boolean } } : unknown)

declare module '../../data/entries.ts' {
  interface EntryPayloads {
    /** Every operation on an integration or a directory record, by kind. */
    records: { [K in RecordKind]: RecordPayloads<K> }
  }
}

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

/** A form's fields split into the record's own fields and `enabled` (which has calls of its own). */
function splitEnabled<K extends RecordKind>(
  fields: RecordPatch<K> | RecordFields<K>,
): { input: Partial<RecordInput<K>>; enabled: boolean | undefined } {
  const { enabled, ...input } = fields as Partial<RecordInput<K>> & { enabled?: boolean }
  return { input: input as Partial<RecordInput<K>>, enabled }
}

export function createRecord<K extends RecordKind>(
  kind: K,
  workspaceId: number,
  fields: RecordFields<K>,
): Promise<number> {
  return write(async (db) => {
    const id = await nextLocalId(db)
    const resolved = await withCurrentRefs(db, kind, await resolveUploadedUrls(db, fields))
    const { input, enabled } = splitEnabled<K>(resolved)
    const row = { ...DEFAULTS[kind], ...input, id, ck: keyFromId(id), workspace_id: workspaceId }
    await db.mirror(kind).add(hasEnabled(kind) ? { ...row, enabled: enabled !== false } : row)
    const label = String(input.name ?? '')
    // TypeScript cannot tie a generic kind to its member of the entry union: the literal is the
    // create entry of `kind`, which the assertion names.
    await enqueue(db, {
      table: kind,
      recordId: id,
      op: 'create',
      payload: { workspace_id: workspaceId, ...input },
      label,
    } as SendOf<K, 'create'>)
    // The add call knows no `enabled`: a record made disabled is disabled right after.
    if (hasEnabled(kind) && enabled === false) {
      await enqueue(db, { table: kind, recordId: id, op: 'toggle', payload: { enabled }, label })
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
    const resolved = await withCurrentRefs(db, kind, await resolveUploadedUrls(db, patch))
    const { input, enabled } = splitEnabled<K>(resolved)
    const fields = Object.fromEntries(
      Object.entries(input).filter(([, value]) => !(typeof value === 'string' && isMasked(value))),
    )
    const table = db.mirror(kind)
    const row = await table.get(id)
    if (!row) return
    const label = String(fields.name ?? row.name)
    if (Object.keys(fields).length > 0) {
      const start = startFrom(row, Object.keys(fields))
      await table.update(id, fields)
      await enqueue(db, {
        table: kind,
        recordId: id,
        op: 'update',
        payload: fields,
        label,
        ...start,
      } as SendOf<K, 'update'>)
    }
    if (enabled !== undefined && hasEnabled(kind)) {
      const start = startFrom(row, ['enabled'])
      await table.update(id, { enabled })
      await enqueue(db, {
        table: kind,
        recordId: id,
        op: 'toggle',
        payload: { enabled },
        label,
        ...start,
      })
    }
  })
}

export function deleteRecord(kind: RecordKind, id: number): Promise<void> {
  return write(async (db) => {
    id = await currentId(db, kind, id)
    const row = await db.recordTable(kind).get(id)
    await db.recordTable(kind).delete(id)
    await clearReferences(db, kind, [id])
    await enqueue(db, {
      table: kind,
      recordId: id,
      op: 'delete',
      payload: {},
      label: row?.name,
      // What the person saw when deleting: a refusal is a conflict only if someone changed it.
      ...startFrom(row, row ? seenFields(row) : []),
    })
  })
}

export function setRecordEnabled(kind: ToggleKind, id: number, enabled: boolean): Promise<void> {
  return write(async (db) => {
    id = await currentId(db, kind, id)
    const table = db.mirror(kind)
    const row = await db.recordTable(kind).get(id)
    if (!row) return
    await table.update(id, { enabled })
    await enqueue(db, {
      table: kind,
      recordId: id,
      op: 'toggle',
      payload: { enabled },
      label: row.name,
      ...startFrom(row, ['enabled']),
    })
  })
}

const Kind = v.picklist(RECORD_KINDS)

export const recordCommands = {
  createRecord: command(
    v.tuple([Kind, RecordId, shaped<RecordFields<RecordKind>>(Fields)]),
    createRecord,
  ),
  updateRecord: command(
    v.tuple([Kind, RecordId, shaped<RecordPatch<RecordKind>>(Fields)]),
    updateRecord,
  ),
  deleteRecord: command(v.tuple([Kind, RecordId]), deleteRecord),
  setRecordEnabled: command(
    v.tuple([v.picklist(TOGGLE_KINDS), RecordId, v.boolean()]),
    setRecordEnabled,
  ),
}

export async function sendRecord(entry: SendOf<RecordKind>, ctx: SendContext): Promise<void> {
  const { db, api } = ctx
  const { table: kind, recordId: id, key } = entry
  switch (entry.op) {
    case 'create':
      return applyCreated(db, entry, kind, await api.addRecord(kind, entry.payload, key))
    case 'update': {
      const row = await api.updateRecord(kind, id, entry.payload, key, ifMatchOf(entry))
      return applyUpdated(db, entry, kind, row)
    }
    case 'toggle': {
      const { enabled } = entry.payload
      const row = await api.setRecordEnabled(entry.table, id, enabled, key, ifMatchOf(entry))
      return applyUpdated(db, entry, kind, row)
    }
    case 'delete':
      return applyDeleted(db, entry, () => api.deleteRecord(kind, id, key, ifMatchOf(entry)))
  }
}

/** A row's fields a person sees (no id, key, version or timestamps). */
function seenFields(row: object): string[] {
  return Object.keys(row).filter((f) => !['id', 'ck', 'version'].includes(f) && !f.endsWith('_at'))
}
