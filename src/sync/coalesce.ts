import { entryRefs } from '../data/refs.ts'
import type { ClientKey } from '../data/types.ts'
import {
  payloadFields,
  startOf,
  withMergedFields,
  type FieldsEntry,
  type OutboxEntry,
} from '../data/entries.ts'

/**
 * Step 3 of the replay protocol (docs/SYNC.md): many edits of one record between two replays send
 * one request with the latest state. Pure: takes the outbox in seq order, says which entries get a
 * merged payload and which are dropped.
 *
 * - create + updates → the create with the merged fields (at the create's place, so whatever refers
 *   to the new record still comes after it); an update referring to a record created later stays a
 *   separate update, or it would be sent before that record exists.
 * - updates → one update with the merged fields, at the place of the last edit.
 * - block saves → one save with the latest state, at the place of the last save.
 * - toggles → the last one; completion steps of one background → the last one; a project page's
 *   addresses → the last one.
 * - create (or a local block's save) + delete → nothing at all; update + delete → the delete.
 * Entries already sent (their Idempotency-Key may have reached the server) and parked entries are
 * frozen: never merged into. A parked create of a record deleted since is dropped with the delete.
 * Entries name records by client key (docs/SYNC.md "Ids"): records are told apart by key.
 */
export interface CoalescePlan {
  /** Entries whose payload changed (write them back). */
  changed: OutboxEntry[]
  /** Seqs of entries to delete. */
  dropped: number[]
}

interface RecordState {
  /** The unsent entry later edits merge into (create, update or save). */
  anchor: OutboxEntry | null
  /** The record's create in this outbox when it can still be dropped (unsent or parked). */
  create: OutboxEntry | null
  /** Unsent or parked data/toggle entries kept so far for this record. */
  droppable: OutboxEntry[]
  toggle: OutboxEntry | null
  /** The unsent address of a project's page a later one replaces. */
  slug: OutboxEntry | null
}

const frozen = (e: OutboxEntry) => e.sent || e.state === 'parked'

/** The record an entry is about, across tables. */
const recordOf = (e: OutboxEntry) => `${e.table}:${e.ck}`

/**
 * The coalescing plan of the outbox (docs/SYNC.md "The replay protocol", step 3). A project copy
 * reads the whole project as the server has it when the copy runs, so nothing queued before a copy
 * merges with anything queued after it: a rename before the copy folded into a create or a later
 * rename would name the copy after the wrong name, a block edit folded into a later save would be
 * missing from the copy, a block created before and deleted after would vanish from it. A publish
 * reads the project the same way (docs/SYNC.md "Publishing"). The outbox is coalesced in segments
 * that copies and publishes separate.
 */
export function coalesce(
  entries: readonly OutboxEntry[],
  localBlocks: ReadonlySet<ClientKey>,
): CoalescePlan {
  // A save of a block that has no server id yet creates it.
  const isCreate = (e: OutboxEntry) =>
    e.op === 'create' || e.op === 'copy' || (e.op === 'save' && localBlocks.has(e.ck))
  const sorted = [...entries].sort((a, b) => a.seq! - b.seq!)
  const plan: CoalescePlan = { changed: [], dropped: [] }
  // Records whose create is queued in an earlier segment or was already sent: a later save of such
  // a block (still under its local id) is an edit, not its creation — with a delete after it, the
  // delete must still reach the server.
  const createdBefore = new Set<string>()
  let segment: OutboxEntry[] = []
  const close = () => {
    const part = coalesceSegment(segment, createdBefore, isCreate)
    plan.changed.push(...part.changed)
    plan.dropped.push(...part.dropped)
    for (const e of segment) if (isCreate(e)) createdBefore.add(recordOf(e))
    segment = []
  }
  for (const e of sorted) {
    if (e.op === 'copy' || e.op === 'publish') close()
    segment.push(e)
  }
  close()
  return plan
}

function coalesceSegment(
  sorted: readonly OutboxEntry[],
  createdBefore: ReadonlySet<string>,
  isCreate: (e: OutboxEntry) => boolean,
): CoalescePlan {
  // Creates already sent in this segment: their record may exist on the server.
  const sentCreate = new Set<string>()
  const records = new Map<string, RecordState>()
  const completes = new Map<ClientKey, OutboxEntry>()
  const createdAt = new Map<string, number>()
  const dropped = new Set<number>()
  const changed = new Map<number, OutboxEntry>()

  const state = (e: OutboxEntry): RecordState => {
    const key = recordOf(e)
    let s = records.get(key)
    if (!s) {
      s = { anchor: null, create: null, droppable: [], toggle: null, slug: null }
      records.set(key, s)
    }
    return s
  }
  const drop = (e: OutboxEntry) => {
    dropped.add(e.seq!)
    changed.delete(e.seq!)
  }
  /** `e`, which replaces `older`, starting where `older` started; written back when that moves. */
  const started = <E extends OutboxEntry>(e: E, older: OutboxEntry): E => {
    const start = startOf(older, e)
    if (start.baseVersion === e.baseVersion && start.base === e.base) return e
    const next = { ...e, ...start }
    changed.set(e.seq!, next)
    return next
  }
  /** `e` with the fields of `older` overlaid by `newer`'s, to be written back. */
  const merge = (e: FieldsEntry, older: FieldsEntry, newer: FieldsEntry): OutboxEntry => {
    const next = withMergedFields(e, older, newer)
    changed.set(e.seq!, next)
    return next
  }
  // Can `e` merge into an anchor at `anchorSeq`? Not if it refers to a record created after it.
  const refersToLaterCreate = (e: OutboxEntry, anchorSeq: number) =>
    entryRefs(e.table).some((ref) => {
      const value = payloadFields(e)[ref.field]
      if (typeof value !== 'string') return false
      const seq = createdAt.get(`${ref.target}:${value}`)
      return seq !== undefined && seq > anchorSeq
    })

  // Local records other entries refer to (a copy's source, a specialist's department, a block's
  // specialist): their create must reach the server even when a delete follows.
  const referenced = new Set<string>()
  for (const e of sorted) {
    for (const ref of entryRefs(e.table)) {
      const value = payloadFields(e)[ref.field]
      if (typeof value === 'string') referenced.add(`${ref.target}:${value}`)
    }
  }

  for (const e of sorted) {
    if (e.op === 'upload') continue
    if (e.op === 'complete') {
      const previous = completes.get(e.ck)
      if (previous && !frozen(previous)) drop(previous)
      completes.set(e.ck, e)
      continue
    }
    const s = state(e)
    if (isCreate(e)) createdAt.set(recordOf(e), e.seq!)

    if (e.op === 'set_slug') {
      // The page's address: the last one asked for, at its place (like a toggle).
      if (frozen(e)) {
        s.slug = null
        continue
      }
      if (s.slug) drop(s.slug)
      s.slug = e
      continue
    }
    if (e.op === 'publish' || e.op === 'unpublish') continue

    if (e.op === 'toggle') {
      if (frozen(e)) {
        s.toggle = null
        continue
      }
      let toggle = e
      if (s.toggle) {
        drop(s.toggle)
        s.droppable = s.droppable.filter((x) => x !== s.toggle)
        // The change starts where the dropped one started (its version, its value before).
        toggle = started(e, s.toggle)
      }
      s.toggle = toggle
      s.droppable.push(toggle)
      continue
    }

    if (e.op === 'delete') {
      if (frozen(e)) {
        s.anchor = null
        continue
      }
      if (s.create && referenced.has(recordOf(e))) {
        // Still needed by another entry: create (with its edits), then delete, all sent.
        s.anchor = null
        continue
      }
      if (s.create) {
        // Never reached the server: the record and everything about it vanish without a request.
        for (const x of s.droppable) drop(x)
        drop(e)
        records.delete(recordOf(e))
        continue
      }
      for (const x of s.droppable) if (!frozen(x)) drop(x)
      s.droppable = []
      s.anchor = null
      s.toggle = null
      continue
    }

    if (frozen(e)) {
      // A create that is parked can still vanish with a later delete; one that was sent cannot.
      if (isCreate(e) && e.state === 'parked') {
        s.create = e
        s.droppable.push(e)
      } else if (isCreate(e)) {
        s.create = null
        sentCreate.add(recordOf(e))
      }
      s.anchor = null
      continue
    }

    const anchor = s.anchor
    if (isCreate(e) && e.op !== 'save') {
      s.anchor = e.op === 'create' ? e : null
      s.create = e
      s.droppable.push(e)
      continue
    }
    if (e.op === 'save') {
      // Blocks are saved whole: the latest state wins, sent at the place of the last save.
      let save = e
      if (anchor && anchor.op === 'save') {
        drop(anchor)
        s.droppable = s.droppable.filter((x) => x !== anchor)
        save = started(e, anchor)
      }
      const key = recordOf(e)
      const createdElsewhere = createdBefore.has(key) || sentCreate.has(key)
      if (isCreate(e) && !createdElsewhere && (s.create === null || s.create === anchor))
        s.create = save
      s.anchor = save
      s.droppable.push(save)
      continue
    }
    // update
    if (e.op !== 'update') continue
    if (anchor && anchor.op === 'create' && !refersToLaterCreate(e, anchor.seq!)) {
      s.anchor = merge(anchor, anchor, e)
      s.droppable = s.droppable.map((x) => (x.seq === anchor.seq ? s.anchor! : x))
      if (s.create?.seq === anchor.seq) s.create = s.anchor
      drop(e)
      continue
    }
    if (anchor && anchor.op === 'update') {
      drop(anchor)
      s.droppable = s.droppable.filter((x) => x !== anchor)
      const merged = merge(e, anchor, e)
      s.anchor = merged
      s.droppable.push(merged)
      continue
    }
    s.anchor = e
    s.droppable.push(e)
  }
  return { changed: [...changed.values()], dropped: [...dropped] }
}
