import type { Appeal } from '../domain/appeal.ts'
import type { Block } from '../domain/block.ts'
import type { OutboxOp, OutboxTable } from './entries.ts'
import type { Department, Location, Specialist } from '../domain/directory.ts'
import type { AmoIntegration, BitrixIntegration } from '../domain/integration.ts'
import type { Background, Project, ProjectType } from '../domain/project.ts'
import type { ChangeTable, Workspace } from '../domain/workspace.ts'

/**
 * Records that live in a workspace and share the seven calls of
 * docs/API.md "Integrations and directory".
 */
export const RECORD_KINDS = ['amo', 'bitrix', 'department', 'location', 'specialist'] as const
export type RecordKind = (typeof RECORD_KINDS)[number]

export interface RecordMap {
  amo: AmoIntegration
  bitrix: BitrixIntegration
  department: Department
  location: Location
  specialist: Specialist
}
export type RecordOf<K extends RecordKind> = RecordMap[K]

/** Kinds with disable/able calls. */
export const TOGGLE_KINDS = ['amo', 'bitrix', 'specialist'] as const
export type ToggleKind = (typeof TOGGLE_KINDS)[number]

export function hasEnabled(kind: RecordKind): kind is ToggleKind {
  return (TOGGLE_KINDS as readonly string[]).includes(kind)
}

/** The fields a screen gives when creating a record: everything but ids; `enabled` optional. */
export type RecordFields<K extends RecordKind> = Omit<
  RecordOf<K>,
  'id' | 'workspace_id' | 'enabled'
> &
  (K extends ToggleKind ? { enabled?: boolean } : unknown)
export type RecordPatch<K extends RecordKind> = Partial<Omit<RecordOf<K>, 'id' | 'workspace_id'>>

/**
 * Tables that mirror server data (ids may be local, see ids.ts). Visitors' requests (`appeal`) are
 * made by the server only: their ids are always the server's.
 */
export type MirrorTable =
  RecordKind | 'workspaces' | 'projects' | 'backgrounds' | 'blocks' | 'appeal'
export const MIRROR_TABLES: readonly MirrorTable[] = [
  ...RECORD_KINDS,
  'workspaces',
  'projects',
  'backgrounds',
  'blocks',
  'appeal',
]

/** The mirror's table of each table name a change event uses (docs/API.md, "Live changes"). */
export const MIRROR_TABLE_OF: Record<ChangeTable, MirrorTable> = {
  workspace: 'workspaces',
  amo: 'amo',
  bitrix: 'bitrix',
  department: 'department',
  location: 'location',
  specialist: 'specialist',
  project: 'projects',
  background: 'backgrounds',
  block: 'blocks',
  appeal: 'appeal',
}

/** A visitor's request in the mirror (docs/requests.md), keyed by its id as rows the server made. */
export type AppealRow = Appeal & { ck?: ClientKey }

/**
 * Client keys (docs/SYNC.md "Ids"): a block or a background gets a key at birth that never changes,
 * while its id goes from local (negative) to the server's. The editor and its links refer to the
 * key. A row the server made is keyed by its server id; a background made here by its local id; a
 * block made in the editor by the key the editor gave it.
 */
export type ClientKey = string

/** A block as the editor hands it over: `id` absent for a new block, negative while local. */
export type LocalBlock = Block & { ck?: ClientKey }
/** A block row in the mirror always has an id (negative until the server saved it) and a key. */
export type BlockRow = Block & { id: number; ck: ClientKey }
/** A background row in the mirror, with its client key. */
export type BackgroundRow = Background & { ck: ClientKey }

export type { Background, Project, ProjectType, Workspace }

export type { OutboxEntry, OutboxOp, OutboxTable, NewEntry } from './entries.ts'

/**
 * The server id a row got when its add was answered, by the row's client key (docs/SYNC.md "Ids"):
 * queued entries name the row by key, and a row deleted here since still has to be found by its
 * delete. `version`: the version the add made.
 */
export interface RekeyedRow {
  table: MirrorTable
  ck: ClientKey
  id: number
  version?: number
}

/** A file waiting in IndexedDB to be uploaded (`local-file:<id>`), or the url it got. */
export interface FileRow {
  id: number
  blob: Blob | null
  type: string
  /** Set once uploaded: the server url that replaced `local-file:<id>`. */
  uploadedUrl?: string
  createdAt: number
}

export interface MetaRow {
  key: string
  value: unknown
}

/** Sync state shared by every tab, the worker and the service worker. */
export interface SyncMeta {
  lastSyncedAt: number | null
  needsSignIn: boolean
  /** A workspace this person lost while the app was open, until they have read it. */
  workspaceLoss: WorkspaceLoss | null
}

export const DEFAULT_SYNC_META: SyncMeta = {
  lastSyncedAt: null,
  needsSignIn: false,
  workspaceLoss: null,
}

/**
 * A workspace that is no longer the person's (docs/SYNC.md, "Live changes"): `removed` — an admin
 * removed them (the server said so); `left` — they left it here; `gone` — it left their list (deleted, or removed while this
 * device did not listen). Its mirror is dropped, and so are the changes still queued for it, which
 * could never be sent: they are listed here, never offered for «Повторить».
 */
export interface WorkspaceLoss {
  workspaceId: number
  name: string
  reason: 'removed' | 'left' | 'gone'
  discarded: DiscardedChange[]
  at: number
}

export interface DiscardedChange {
  table: OutboxTable
  op: OutboxOp
  label: string
}

export interface ParkedEntry {
  seq: number
  table: OutboxTable
  recordId: number
  op: OutboxOp
  label: string
  message: string
  code: string
  fields: Record<string, string>
  /** Someone else changed the record meanwhile (docs/SYNC.md, "Conflicts"): both values per field. */
  conflict?: ParkedConflict | undefined
}

export interface ParkedConflict {
  /** The fields both sides changed (none when this device deleted a record changed there). */
  fields: { field: string; mine: unknown; theirs: unknown }[]
  /** The server's row as the conflict found it. */
  current: Record<string, unknown>
  /** A block's background, whose size its place and size are shown in per cent of. */
  background?: { width: number; height: number } | undefined
}
