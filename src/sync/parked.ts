import { ApiError } from '../api/client.ts'
import {
  clearReferences,
  rewriteFileUrl,
  removeBackgroundContent,
  removeProjectContent,
  removeWorkspaceContent,
} from '../data/cascade.ts'
import { withClientKeys } from '../data/client-keys.ts'
import type { MirrorDb } from '../data/db.ts'
import type { SendEntry } from '../data/entries.ts'
import { resolveEntry } from '../data/keyed.ts'
import { isLocalId, localFileId } from '../data/ids.ts'
import { newKey } from '../data/outbox.ts'
import { createsRecord } from '../data/refs.ts'
import { RECORD_KINDS, type ClientKey, type MirrorTable, type RecordKind } from '../data/types.ts'
import { editsOf, inAll, type Row } from './mutators/apply.ts'
import { versionOf } from './mutators/local.ts'
import type { SyncApi } from './mutators/context.ts'
import type { Pull } from './pull.ts'

/**
 * Parked entries (docs/SYNC.md "The replay protocol", step 7): what the person does with a change
 * the server refused. «Повторить» sends it again under a new key; «Отменить изменение» drops it and
 * puts the server's copy back.
 */
export interface Parked {
  retryEntry(seq: number): Promise<void>
  discardEntry(seq: number): Promise<void>
}

const RECORD_SET = new Set<string>(RECORD_KINDS)
const isRecordKind = (table: string): table is RecordKind => RECORD_SET.has(table)

export function createParked(db: MirrorDb, api: SyncApi, pull: Pull): Parked {
  async function retryEntry(seq: number): Promise<void> {
    await db.transaction('rw', db.outbox, async () => {
      const stored = await db.outbox.get(seq)
      if (!stored) return
      // «Оставить моё»: the fields in question go with the change, so the colleague whose values
      // they replace is told (docs/API.md, "Conditional writes").
      const kept = stored.conflict?.fields.map((clash) => clash.field) ?? []
      // A new key: the server stored its rejection under the old one and would answer it again.
      await db.outbox.update(seq, {
        state: 'pending',
        attempts: 0,
        nextAttemptAt: 0,
        sent: false,
        key: newKey(),
        message: undefined,
        code: undefined,
        fields: undefined,
        conflict: undefined,
        keeps: kept.length > 0 ? kept : stored.keeps,
      })
    })
  }

  async function discardEntry(seq: number): Promise<void> {
    const stored = await db.outbox.get(seq)
    if (!stored) return
    // The ids its keys name now (data/keyed.ts).
    const { entry } = await resolveEntry(db, stored)
    if (entry.conflict && entry.op !== 'delete' && entry.table !== 'files') {
      // «Взять с сервера»: the fields in question take the server's values; the rest of the
      // row (edits still waiting included) stays as it is.
      const { fields, version } = entry.conflict
      const table = entry.table
      await inAll(db, async () => {
        await db.outbox.delete(seq)
        const row = await db.mirror(table).where('ck').equals(entry.ck).first()
        if (!row) return
        const theirs = Object.fromEntries(fields.map((c) => [c.field, c.theirs]))
        const known = versionOf(row) ?? 0
        await db.mirror(table).put({ ...row, ...theirs, version: Math.max(known, version) })
      })
      return
    }
    // The record's last change gone: the server's copy comes back (after the transaction).
    const restore = await inAll(db, async () => {
      await db.outbox.delete(seq)
      if (entry.table === 'files') {
        await rewriteFileUrl(db, entry.recordId, '')
        await db.files.delete(entry.recordId)
        return false
      }
      if (createsRecord(entry) && isLocalId(entry.recordId)) {
        // The record never reached the server: it goes, with whatever hangs on it.
        await dropRecordLocally(entry.table, entry.recordId, entry.ck)
        return false
      }
      return (await editsOf(db, entry.table, entry.ck)) === 0
    })
    if (restore && entry.table !== 'files') await restoreServerCopy(entry).catch(() => undefined)
  }

  async function dropRecordLocally(table: MirrorTable, id: number, ck: ClientKey) {
    const others = await db.outbox.where('[table+ck]').equals([table, ck]).primaryKeys()
    await db.outbox.bulkDelete(others)
    if (table === 'workspaces') await removeWorkspaceContent(db, id)
    if (table === 'projects') await removeProjectContent(db, [id])
    if (table === 'backgrounds') {
      const bg = await db.backgrounds.get(id)
      await removeBackgroundContent(db, [id])
      const file = bg ? localFileId(bg.image_url) : null
      if (file !== null) await db.files.delete(file)
    }
    if (isRecordKind(table)) await clearReferences(db, table, [id])
    await db.mirror(table).delete(id)
  }

  /** Puts the server's copy of the record back (or removes it locally when the server has none). */
  async function restoreServerCopy(entry: Exclude<SendEntry, { table: 'files' }>): Promise<void> {
    const { table, recordId: id, ck } = entry
    const put = async (row: Row | null) => {
      await inAll(db, async () => {
        if ((await editsOf(db, table, ck)) > 0) return
        if (row) await db.mirror(table).bulkPut(await withClientKeys(db, table, [row]))
        else await db.mirror(table).delete(id)
      })
    }
    try {
      if (isRecordKind(table)) return await put(await api.getRecord(table, id))
      if (table === 'appeal') return await put(await api.getAppeal(id))
      if (entry.table === 'workspaces') {
        return await put((await api.listWorkspaces()).find((w) => w.id === id) ?? null)
      }
      if (entry.table === 'projects') return await pull.refreshProject(id)
      if (entry.table === 'backgrounds') {
        const projectId = entry.op === 'complete' ? undefined : entry.payload.project_id
        if (projectId !== undefined) await pull.refreshProject(projectId)
        return
      }
      if (entry.table === 'blocks') {
        const items = await api.getItems(entry.payload.bg_id)
        return await put(items.find((b) => b.id === id) ?? null)
      }
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) await put(null)
      else throw error
    }
  }

  return { retryEntry, discardEntry }
}
