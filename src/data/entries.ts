import type { REFS } from './refs.ts'
import type { ClientKey } from './types.ts'

/**
 * Outbox entries (docs/SYNC.md, "Tables (schema version 6)"): one union, discriminated by `table`
 * and `op`, so each operation's payload has its own type and the replay's code for it
 * (src/sync/mutators/) reads it without casts. Each mutator module declares its operations
 * (`EntryPayloads` below), and the union follows from them.
 *
 * A queued entry names its record and every record its payload refers to by client key (`ck`,
 * docs/SYNC.md "Ids"): the ids are looked up when it is sent (`SendEntry`, data/keyed.ts), so the
 * server id replacing a local one never touches the outbox.
 */

/** What every entry carries besides its operation. */
export interface EntryState {
  /** Auto-increment: the order edits were made in. */
  seq?: number
  /** Idempotency-Key: stays the same across every retry of this entry. */
  key: string
  /** The client key of the record the entry is about (a file: its id as a key). */
  ck: ClientKey
  state: 'pending' | 'parked'
  /** Failed attempts so far (network, 5xx, 429). */
  attempts: number
  /** Not before this time (ms epoch): exponential backoff. */
  nextAttemptAt: number
  /** Sent at least once: its content is frozen and it is never coalesced again. */
  sent: boolean
  /** The server's message when parked (Russian), and its error code. */
  message?: string
  code?: string
  /** Field messages of a refused validation (field → server message or code), shown on the form. */
  fields?: Record<string, string>
  /** A human name of the record (for the list of rejected changes). */
  label: string
  createdAt: number
  /**
   * The server version of the record this change started from, sent as `If-Match`: a write made
   * meanwhile by someone else is refused instead of overwritten (docs/SYNC.md, "Conflicts").
   * Absent while the record exists only here (its create sets it) and for changes sent without.
   */
  baseVersion?: number
  /** The values the changed fields had when the change was made (a block save: the whole block). */
  base?: Record<string, unknown>
  /** A change refused because someone else changed the same fields: parked until the person chooses. */
  conflict?: EntryConflict
  /**
   * The fields the person chose to keep over a colleague's values («Оставить моё»): sent with the
   * change (`Keep-Mine`), so that the colleague is told (docs/API.md, "Conditional writes").
   */
  keeps?: string[]
}

/** One field changed here and, differently, on the server. */
export interface FieldClash {
  field: string
  mine: unknown
  theirs: unknown
}

/**
 * Fields that are one change together: a block's place is its x and y, its size its width and
 * height. Two moves never combine into a place nobody chose: when both sides moved a block, even one
 * along x and the other along y, the place is one conflict, and the choice takes both or neither.
 */
export const FIELD_GROUPS: readonly (readonly string[])[] = [
  ['x', 'y'],
  ['width', 'height'],
]

const GROUP_OF = new Map(FIELD_GROUPS.flatMap((group) => group.map((field) => [field, group])))

/** The fields that change together with `field` (itself alone for most). */
export function fieldGroup(field: string): readonly string[] {
  return GROUP_OF.get(field) ?? [field]
}

/**
 * What a `409 conflict` left for the person to decide (docs/SYNC.md, "Conflicts"): the fields both
 * sides changed (none for a delete of a record changed on the server) and the server's row.
 */
export interface EntryConflict {
  version: number
  fields: FieldClash[]
  current: Record<string, unknown>
}

type Op<T extends string, O extends string, P> = { table: T; op: O; payload: P }
/** A payload with nothing in it (deletes, uploads). */
export type NoPayload = { [field: string]: never }

/**
 * Every outbox operation and its payload, by mutator module (its name), table and operation. Each
 * module of src/sync/mutators/ adds its own next to its commands and its sender, by augmenting this
 * interface (`declare module '../../data/entries.ts'`, where this module's types, `NoPayload`, are
 * in scope), and the entry union follows (docs/SYNC.md, "Adding a command"). Modules may share a
 * table (projects.ts and publishing.ts): its one sender in `SENDERS` (src/sync/mutators/send.ts)
 * sends every operation of it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the mutator modules
export interface EntryPayloads {}

/** Each operation of some tables (table → operation → payload) as a member of the union. */
type OpsOf<Tables> = {
  [T in keyof Tables]: {
    [O in keyof Tables[T]]: Op<T & string, O & string, Tables[T][O]>
  }[keyof Tables[T]]
}[keyof Tables]

/** What an entry asks the server to do, with ids: its table, operation and payload. */
export type SendOp = { [M in keyof EntryPayloads]: OpsOf<EntryPayloads[M]> }[keyof EntryPayloads]

/** The field of a reference `R` if it is one from table `T` (a reference may be from several). */
type RefField<R, T> = R extends { table: infer From; field: infer F }
  ? T extends From
    ? F
    : never
  : never

/**
 * The payload fields that refer to another record in table `T`'s entries: the references of
 * data/refs.ts `REFS` from that table. Queued, they hold the target's client key.
 */
export type EntryRefFields<T extends string> = RefField<(typeof REFS)[number], T>

/** An id field as queued: the key of the record it names (null and absent stay as they are). */
type KeyOf<V> = V extends number ? ClientKey : V
/** A payload as queued: its reference fields hold keys. */
export type KeyedPayload<T extends string, P> = {
  [F in keyof P]: F extends EntryRefFields<T> ? KeyOf<P[F]> : P[F]
}
type Queued<E> = E extends {
  table: infer T extends string
  op: infer O
  payload: infer P
}
  ? { table: T; op: O; payload: KeyedPayload<T, P> }
  : never

/** What an entry asks the server to do, as queued: references by key. */
export type EntryOp = Queued<SendOp>

export type OutboxEntry = EntryState & EntryOp
export type OutboxOp = EntryOp['op']
export type OutboxTable = EntryOp['table']

/** An entry of one table and operation. */
export type EntryOf<T extends OutboxTable, O extends OutboxOp = OutboxOp> = Extract<
  OutboxEntry,
  { table: T; op: O }
>

/**
 * An entry as it is sent: its record's id now (`recordId`; local, negative, while the record
 * exists only here) and ids in its payload, looked up from the keys when the entry is sent.
 */
export type SendEntry = EntryState & { recordId: number } & SendOp

/** A sendable entry of one table and operation. */
export type SendOf<T extends OutboxTable, O extends OutboxOp = OutboxOp> = Extract<
  SendEntry,
  { table: T; op: O }
>

/**
 * What a command queues: the operation with ids, its record, and the label for the panel. The
 * outbox stores it by keys (data/outbox.ts `enqueue`); `ck` names the record when its row is gone
 * already (a delete).
 */
export type NewEntry = SendOp & {
  recordId: number
  ck?: ClientKey | undefined
  label?: string | undefined
  baseVersion?: number | undefined
  base?: Record<string, unknown> | undefined
}

/** A payload read as a plain map (references, urls): every payload is a plain object. */
export function payloadFields(entry: EntryOp | SendOp): Readonly<Record<string, unknown>> {
  return entry.payload
}

/** The entry with its payload replaced by one of the same shape. */
export function withPayload<E extends OutboxEntry>(entry: E, payload: E['payload']): E {
  return { ...entry, payload }
}

/** The entry with one payload field set: a reference moved to a server id, a url rewritten. */
export function withPayloadField<E extends OutboxEntry>(
  entry: E,
  field: string,
  value: unknown,
): E {
  return { ...entry, payload: { ...entry.payload, [field]: value } }
}

/** Entries whose payload is a set of fields, which a later update of the same record adds to. */
export type FieldsEntry = Extract<OutboxEntry, { op: 'create' | 'update' }>

/**
 * `entry` with the fields of `older` overlaid by those of `newer`: coalescing an update into the
 * create or the update before it. The caller has checked that both are about the same record.
 */
export function withMergedFields<E extends FieldsEntry>(
  entry: E,
  older: FieldsEntry,
  newer: FieldsEntry,
): E {
  // The change started where the older entry started: its base wins for the fields both touch.
  return {
    ...entry,
    payload: { ...older.payload, ...newer.payload },
    ...startOf(older, newer),
  }
}

/**
 * Where a merged change starts: the older entry's version and base values, completed by the
 * newer's base for fields only it changed. A create has no base (nothing to compare with).
 */
export function startOf(
  older: OutboxEntry,
  newer: OutboxEntry,
): Pick<EntryState, 'baseVersion' | 'base'> {
  if (older.op === 'create') return {}
  if (!older.base && older.baseVersion === undefined)
    return { baseVersion: newer.baseVersion, base: newer.base }
  return {
    baseVersion: older.baseVersion ?? newer.baseVersion,
    base: { ...newer.base, ...older.base },
  }
}
