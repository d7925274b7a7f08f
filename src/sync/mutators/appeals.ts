import * as v from 'valibot'
import { APPEAL_STATUSES, type AppealStatus } from '../../domain/appeal.ts'
import type { SendOf } from '../../data/entries.ts'
import { enqueue } from '../../data/outbox.ts'
import { applyDeleted, applyUpdated } from './apply.ts'
import { command, RecordId } from './command.ts'
import type { SendContext } from './context.ts'
import { startFrom, write, ifMatchOf } from './local.ts'

/**
 * Visitors' requests (docs/requests.md): the server makes them, the app changes their status
 * (Новое → В работе → Обработано, Спам) and an admin deletes them. Each change is written to the
 * mirror and queued in one transaction, and sent with `If-Match` from the version it was made on:
 * a status someone else changed meanwhile is a conflict (docs/SYNC.md "Conflicts").
 */

declare module '../../data/entries.ts' {
  interface EntryPayloads {
    appeals: {
      /** A request's status (Новое → В работе → Обработано, Спам), its delete (admins). */
      appeal: { update: { status: AppealStatus }; delete: NoPayload }
    }
  }
}

/** The label of a request in the list of refused changes: «Обращение №31». */
const label = (id: number) => `№${id}`

export function setAppealStatus(id: number, status: AppealStatus): Promise<void> {
  return write(async (db) => {
    const row = await db.appeal.get(id)
    if (!row || row.status === status) return
    const start = startFrom(row, ['status'])
    await db.appeal.update(id, { status })
    await enqueue(db, {
      table: 'appeal',
      recordId: id,
      op: 'update',
      payload: { status },
      label: label(id),
      ...start,
    })
  })
}

export function deleteAppeal(id: number): Promise<void> {
  return write(async (db) => {
    const row = await db.appeal.get(id)
    if (!row) return
    await db.appeal.delete(id)
    await enqueue(db, {
      table: 'appeal',
      recordId: id,
      op: 'delete',
      payload: {},
      label: label(id),
      // Deleted as the person saw it: a refusal is a conflict only if its status moved meanwhile.
      ...startFrom(row, ['status']),
    })
  })
}

export const appealCommands = {
  setAppealStatus: command(v.tuple([RecordId, v.picklist(APPEAL_STATUSES)]), setAppealStatus),
  deleteAppeal: command(v.tuple([RecordId]), deleteAppeal),
}

export async function sendAppeal(entry: SendOf<'appeal'>, ctx: SendContext): Promise<void> {
  const { db, api } = ctx
  switch (entry.op) {
    case 'update': {
      const { status } = entry.payload
      const row = await api.updateAppeal(entry.recordId, status, entry.key, ifMatchOf(entry))
      return applyUpdated(db, entry, 'appeal', row)
    }
    case 'delete':
      return applyDeleted(db, entry, () =>
        api.deleteAppeal(entry.recordId, entry.key, ifMatchOf(entry)),
      )
  }
}
