import type { AppealStatus } from '../domain/appeal.ts'
import type { BlockType, Block } from '../domain/block.ts'
import type { ProjectTypeId } from '../domain/project.ts'
import type { ClientKey, RecordKind, RecordOf, ToggleKind } from './types.ts'

/**
 * Outbox entries (docs/SYNC.md, "Tables (schema version 6)"): one union, discriminated by `table`
 * and `op`, so each operation's payload has its own type and the replay's code for it
 * (src/sync/mutators/) reads it without casts.
 *
 * - create/update/delete: workspaces, records, projects (a project update = rename and/or set_type)
 * - toggle: disable/able of amo, bitrix, specialist
 * - copy: projects (recordId = the copy's local id, payload.source_id = the original)
 * - publish/unpublish/set_slug: projects (docs/SYNC.md "Publishing"): the public page's snapshot,
 *   its removal, its address
 * - create/delete on backgrounds: add_bg (multipart with the file from `files`) and delete_bg
 * - save/delete on blocks: the block-save chain; complete on backgrounds: get_items reconcile
 * - upload on files: image/upload, then every `local-file:<n>` url is rewritten
 * - update (status) and delete on appeal: a visitor's request (docs/requests.md)
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

/** A record's own fields, as an add or an update sends them (`enabled` has calls of its own). */
export type RecordInput<K extends RecordKind> = Omit<RecordOf<K>, 'id' | 'workspace_id' | 'enabled'>

type RecordOps<K extends RecordKind> =
  | Op<K, 'create', { workspace_id: number } & Partial<RecordInput<K>>>
  | Op<K, 'update', Partial<RecordInput<K>>>
  | Op<K, 'delete', NoPayload>
  | (K extends ToggleKind ? Op<K, 'toggle', { enabled: boolean }> : never)

/** Every operation on an integration or a directory record, by kind. */
export type RecordOp = { [K in RecordKind]: RecordOps<K> }[RecordKind]

export type WorkspaceOp =
  | Op<'workspaces', 'create', { name: string }>
  | Op<'workspaces', 'update', { name: string }>
  | Op<'workspaces', 'delete', NoPayload>

export type ProjectOp =
  /** `type`: a type chosen before the add replayed, merged in by coalescing (sent as set_type). */
  | Op<'projects', 'create', { workspace_id: number; name: string; type?: ProjectTypeId | null }>
  | Op<'projects', 'update', { name?: string; type?: ProjectTypeId | null }>
  | Op<'projects', 'copy', { source_id: number }>
  | Op<'projects', 'delete', NoPayload>
  /**
   * The project's content as the server holds it when this runs becomes its public page: it is
   * sent after every change of the project queued before it (docs/SYNC.md "Publishing").
   */
  | Op<'projects', 'publish', NoPayload>
  | Op<'projects', 'unpublish', NoPayload>
  | Op<'projects', 'set_slug', { slug: string }>

export type BackgroundOp =
  | Op<'backgrounds', 'create', { project_id: number; file: number; width: number; height: number }>
  | Op<'backgrounds', 'delete', { project_id?: number }>
  /** The completion step of the block-save chain: get_items, reconciled into the mirror. */
  | Op<'backgrounds', 'complete', NoPayload>

/** A block as saved: every field but the id (the entry's recordId). */
export type BlockFields = Block extends infer B ? (B extends Block ? Omit<B, 'id'> : never) : never

export type BlockOp =
  Op<'blocks', 'save', BlockFields> | Op<'blocks', 'delete', { type: BlockType; bg_id: number }>

export type FileOp = Op<'files', 'upload', NoPayload>

/** A visitor's request: its status (Новое → В работе → Обработано, Спам) and its delete (admins). */
export type AppealOp =
  Op<'appeal', 'update', { status: AppealStatus }> | Op<'appeal', 'delete', NoPayload>

/** What an entry asks the server to do, with ids: its table, operation and payload. */
export type SendOp = RecordOp | WorkspaceOp | ProjectOp | BackgroundOp | BlockOp | FileOp | AppealOp

/**
 * The payload fields that refer to another record, by table (data/refs.ts `REFS` lists
 * them with their targets). Queued, they hold the target's client key.
 */
export interface EntryRefFields {
  amo: 'workspace_id'
  bitrix: 'workspace_id'
  department: 'workspace_id'
  location: 'workspace_id'
  specialist: 'workspace_id' | 'department_id' | 'location_id'
  workspaces: never
  projects: 'workspace_id' | 'source_id'
  backgrounds: 'project_id'
  blocks: 'bg_id' | 'specialist_id'
  files: never
  appeal: never
}

/** An id field as queued: the key of the record it names (null and absent stay as they are). */
type KeyOf<V> = V extends number ? ClientKey : V
/** A payload as queued: its reference fields hold keys. */
export type KeyedPayload<T extends keyof EntryRefFields, P> = {
  [F in keyof P]: F extends EntryRefFields[T] ? KeyOf<P[F]> : P[F]
}
type Queued<E> = E extends {
  table: infer T extends keyof EntryRefFields
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
