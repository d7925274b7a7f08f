import { RECORD_KINDS, type MirrorTable, type OutboxTable } from './types.ts'
import { isLocalId } from './ids.ts'

/**
 * Which field of which table refers to which table (docs/SYNC.md "Ids"). When an add returns the
 * server id, every mirror row whose field matches is rewritten; queued entries name records by key
 * and are not.
 */
export interface Ref {
  table: MirrorTable
  field: string
  target: MirrorTable
}

/** Kept literal: the payload fields a queued entry names records by are read from its type too. */
export const REFS = [
  ...RECORD_KINDS.map(
    (kind) => ({ table: kind, field: 'workspace_id', target: 'workspaces' }) as const,
  ),
  { table: 'specialist', field: 'department_id', target: 'department' },
  { table: 'specialist', field: 'location_id', target: 'location' },
  { table: 'projects', field: 'workspace_id', target: 'workspaces' },
  { table: 'projects', field: 'source_id', target: 'projects' },
  { table: 'backgrounds', field: 'project_id', target: 'projects' },
  { table: 'blocks', field: 'bg_id', target: 'backgrounds' },
  { table: 'blocks', field: 'specialist_id', target: 'specialist' },
] as const satisfies readonly Ref[]

export function refsFrom(table: OutboxTable): readonly Ref[] {
  return REFS.filter((ref) => ref.table === table)
}

export function refsTo(target: MirrorTable): readonly Ref[] {
  return REFS.filter((ref) => ref.target === target)
}

/** Ops whose record may not exist on the server yet (they create it). `recordId`: its id now. */
export function createsRecord(entry: { op: string; recordId: number }): boolean {
  return (
    entry.op === 'create' ||
    entry.op === 'copy' ||
    entry.op === 'upload' ||
    (entry.op === 'save' && isLocalId(entry.recordId))
  )
}

/**
 * The payload fields a queued entry names another record by (its key, docs/SYNC.md "Ids"): the
 * references of REFS, read from the entry's table. The queue stores keys in them (data/keyed.ts).
 */
export function entryRefs(table: OutboxTable): readonly Ref[] {
  return refsFrom(table)
}

/** A row with its reference fields pointing at `from` (in `target`) moved to `to`; null if none. */
export function remapRow<T extends Record<string, unknown>>(
  table: MirrorTable,
  row: T,
  target: MirrorTable,
  from: number,
  to: number | null,
): T | null {
  let next: T | null = null
  for (const ref of refsFrom(table)) {
    if (ref.target === target && row[ref.field] === from) {
      next = { ...(next ?? row), [ref.field]: to }
    }
  }
  return next
}
