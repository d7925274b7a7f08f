import type { Block } from '../domain/block.ts'
import type { Department, Location, Specialist } from '../domain/directory.ts'
import type { AmoIntegration, BitrixIntegration } from '../domain/integration.ts'
import type { Background, Project, ProjectType } from '../domain/project.ts'
import type { Workspace } from '../domain/workspace.ts'

/** Records that live in a workspace and share the seven calls of spec §7. */
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

/** Tables that mirror server data (ids may be local, see ids.ts). */
export type MirrorTable = RecordKind | 'workspaces' | 'projects' | 'backgrounds' | 'blocks'
export const MIRROR_TABLES: readonly MirrorTable[] = [
  ...RECORD_KINDS,
  'workspaces',
  'projects',
  'backgrounds',
  'blocks',
]

/** A block as the editor hands it over: `id` absent for a new block, negative while local. */
export type LocalBlock = Block
/** A block row in the mirror always has an id (negative until the server saved it). */
export type BlockRow = Block & { id: number }

export type { Background, Project, ProjectType, Workspace }

/**
 * What an outbox entry asks the server to do (docs/SYNC.md, "Operations").
 * - create/update/delete: workspaces, records, projects (update = rename and/or set_type)
 * - toggle: disable/able of amo, bitrix, specialist
 * - copy: projects (recordId = the copy's local id, payload.source_id = the original)
 * - create/delete on backgrounds: add_bg (multipart with the file from `files`) and delete_bg
 * - save/delete on blocks: the block-save chain; complete on backgrounds: get_items reconcile
 * - upload on files: image/upload, then every `local-file:<n>` url is rewritten
 */
export type OutboxOp =
  'create' | 'update' | 'delete' | 'toggle' | 'copy' | 'save' | 'complete' | 'upload'
export type OutboxTable = MirrorTable | 'files'

export interface OutboxEntry {
  /** Auto-increment: the order edits were made in. */
  seq?: number
  /** Idempotency-Key: stays the same across every retry of this entry. */
  key: string
  table: OutboxTable
  recordId: number
  op: OutboxOp
  payload: Record<string, unknown>
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
}

export const DEFAULT_SYNC_META: SyncMeta = { lastSyncedAt: null, needsSignIn: false }

export interface ParkedEntry {
  seq: number
  table: OutboxTable
  recordId: number
  op: OutboxOp
  label: string
  message: string
  code: string
  fields: Record<string, string>
}
