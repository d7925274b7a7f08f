import type { ServerRow } from '../api/client.ts'
import type { MirrorDb } from '../data/db.ts'
import {
  fieldGroup,
  type EntryConflict,
  type FieldClash,
  type OutboxEntry,
  type SendEntry,
} from '../data/entries.ts'
import { keyedPayload, resolveEntry } from '../data/keyed.ts'
import { newKey, pick } from '../data/outbox.ts'
import { applyUpdated, inAll } from './mutators/apply.ts'
import { sameValue } from '../domain/same-value.ts'

/**
 * A write refused with `409 conflict` because the row changed on the server since the change was
 * made (docs/SYNC.md, "Conflicts"). Fields changed here that the other write left alone merge on
 * their own: the change is sent again from the server's version. A field both sides changed to
 * different values is a conflict the person decides: that part of the change is parked with both
 * values, and nothing is overwritten or dropped meanwhile.
 */

export interface Split {
  /** Fields changed here that the server's write did not touch: they go as they are. */
  send: Record<string, unknown>
  /** Fields both sides changed, to different values. */
  clashes: FieldClash[]
}

/**
 * Splits a change (`mine`, made from `base`) against the server's row now (`current`). Only the
 * fields that differ from `base` are the change (a form sends its untouched fields too, a block
 * save the whole block). A field whose value before the change is not known counts as changed by
 * both when the values differ. Grouped fields (`FIELD_GROUPS`) merge or conflict together.
 */
export function splitChange(
  base: Readonly<Record<string, unknown>> | undefined,
  mine: Readonly<Record<string, unknown>>,
  current: Readonly<Record<string, unknown>>,
): Split {
  const send: Record<string, unknown> = {}
  const clashes: FieldClash[] = []
  const seen = new Set<string>()
  const known = (field: string) => base !== undefined && field in base
  for (const field of Object.keys(mine)) {
    if (seen.has(field)) continue
    const fields = fieldGroup(field).filter((f) => f in mine)
    for (const f of fields) seen.add(f)
    // Not changed here (a form sends its untouched fields too): whatever the server has stays.
    const changedHere = fields.filter((f) => !(known(f) && sameValue(mine[f], base![f])))
    if (changedHere.length === 0) continue
    if (fields.every((f) => sameValue(current[f], mine[f]))) continue
    const changedThere = fields.some((f) => !(known(f) && sameValue(current[f], base![f])))
    if (!changedThere) for (const f of changedHere) send[f] = mine[f]
    else for (const f of fields) clashes.push({ field: f, mine: mine[f], theirs: current[f] })
  }
  return { send, clashes }
}

/**
 * Whether `current` holds every value of `base` (a delete's record as the person saw it), the
 * references compared by key so a local id and the server id it became are the same record. An
 * empty or unknown base (an entry queued before deletes remembered it) is never taken as unchanged.
 */
async function unchangedSince(
  db: MirrorDb,
  table: OutboxEntry['table'],
  base: Readonly<Record<string, unknown>> | undefined,
  current: Readonly<Record<string, unknown>>,
): Promise<boolean> {
  if (base === undefined || Object.keys(base).length === 0) return false
  const seen = await keyedPayload(db, table, base)
  const now = await keyedPayload(db, table, pick(current, Object.keys(base)))
  return Object.keys(seen).every((field) => sameValue(seen[field], now[field]))
}

/** The row's own fields: what a block save sends (no id, version or key). */
function ownFields(row: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { id: _id, version: _version, ck: _ck, ...fields } = row
  return fields
}

/** Whether a refused entry can be settled here (creates, copies and uploads cannot conflict). */
export function settles(entry: SendEntry): boolean {
  return entry.baseVersion !== undefined && changesRow(entry)
}

/** The operations that change an existing row (the ones sent with If-Match). */
function changesRow(
  entry: SendEntry,
): entry is Extract<SendEntry, { op: 'update' | 'toggle' | 'save' | 'delete' }> {
  return (
    entry.op === 'update' || entry.op === 'toggle' || entry.op === 'save' || entry.op === 'delete'
  )
}

export type Settled = 'resend' | 'done' | 'parked'

/**
 * Settles entry `seq` refused with `current`, in one transaction: sent again from the server's
 * version (`resend`), nothing left to send (`done`), or parked as a conflict (`parked`; a part
 * that merges on its own is still sent, and the outcome is then `resend`).
 */
export async function settleConflict(
  db: MirrorDb,
  seq: number,
  current: ServerRow,
  message: string,
): Promise<Settled> {
  return inAll(db, async () => {
    const stored = await db.outbox.get(seq)
    if (!stored) return 'done'
    // Compared with the server's row by ids; written back by keys (data/keyed.ts).
    const { entry } = await resolveEntry(db, stored)
    if (!changesRow(entry)) return 'done'
    const keyed = (payload: Record<string, unknown>) => keyedPayload(db, stored.table, payload)
    const version = current.version ?? entry.baseVersion ?? 0
    const conflictOf = (fields: FieldClash[]): EntryConflict => ({ version, fields, current })
    const park = {
      state: 'parked' as const,
      code: 'conflict',
      message,
      key: newKey(),
      sent: false,
      attempts: 0,
      nextAttemptAt: 0,
      baseVersion: version,
      // A choice made before is not one about this conflict (a change sent again without one
      // keeps the person's choice: its fields are still the ones they kept).
      keeps: undefined,
    }
    if (entry.op === 'delete') {
      // The server's row is still what the person saw when deleting (its version moved by this
      // device's own earlier write, e.g. a department's delete clearing it from a specialist):
      // nobody else changed it, so the delete goes from the server's version without asking.
      if (await unchangedSince(db, stored.table, entry.base, current)) {
        await db.outbox.put({ ...stored, key: newKey(), sent: false, baseVersion: version })
        return 'resend'
      }
      await db.outbox.put({ ...stored, ...park, conflict: conflictOf([]) })
      return 'parked'
    }
    const whole = entry.op === 'save'
    const mine = entry.payload as Record<string, unknown>
    const { send, clashes } = splitChange(entry.base, mine, current)
    const fresh = { key: newKey(), sent: false, baseVersion: version }
    // What goes now: for a block the whole block (the server's, with the fields that merge).
    const sendable = Object.keys(send).length > 0
    const payloadNow = whole ? { ...ownFields(current), ...send } : send
    const baseNow = whole ? ownFields(current) : pick(current, Object.keys(send))
    if (clashes.length === 0) {
      if (!sendable) {
        // The server already holds what this change meant.
        await applyUpdated(db, entry, entry.table, current)
        return 'done'
      }
      const payload = await keyed(payloadNow)
      await db.outbox.put({ ...stored, ...fresh, payload, base: baseNow } as OutboxEntry)
      return 'resend'
    }
    const clashed = clashes.map((c) => c.field)
    const parkedPayload = whole ? { ...payloadNow, ...pick(mine, clashed) } : pick(mine, clashed)
    const parkedBase = whole ? ownFields(current) : pick(current, clashed)
    const parked = {
      ...stored,
      ...park,
      payload: await keyed(parkedPayload),
      base: parkedBase,
      conflict: conflictOf(clashes),
    } as OutboxEntry
    if (!sendable) {
      await db.outbox.put(parked)
      return 'parked'
    }
    // The part that merges keeps the entry's place in the queue; the conflict waits after it.
    const payload = await keyed(payloadNow)
    await db.outbox.put({ ...stored, ...fresh, payload, base: baseNow } as OutboxEntry)
    const { seq: _seq, ...rest } = parked
    await db.outbox.add({ ...rest, createdAt: entry.createdAt } as OutboxEntry)
    return 'resend'
  })
}
