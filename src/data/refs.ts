import { payloadFields, withPayloadField, type OutboxEntry } from './entries.ts'
import { RECORD_KINDS, type MirrorTable, type OutboxTable } from './types.ts'
import { isLocalId } from './ids.ts'

/**
 * Which field of which table refers to which table (docs/SYNC.md "Ids"). When an add returns the
 * server id, every row and every queued payload whose field matches is rewritten.
 */
export interface Ref {
  table: MirrorTable
  field: string
  target: MirrorTable
}

export const REFS: readonly Ref[] = [
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
]

export function refsFrom(table: OutboxTable): readonly Ref[] {
  return REFS.filter((ref) => ref.table === table)
}

export function refsTo(target: MirrorTable): readonly Ref[] {
  return REFS.filter((ref) => ref.target === target)
}

/** Ops whose record may not exist on the server yet (they create it). */
export function createsRecord(entry: { op: string; recordId: number }): boolean {
  return (
    entry.op === 'create' ||
    entry.op === 'copy' ||
    entry.op === 'upload' ||
    (entry.op === 'save' && isLocalId(entry.recordId))
  )
}

/** Local ids an entry still depends on: its payload references and, unless it creates it, its record. */
export function localDependencies(entry: OutboxEntry): { table: MirrorTable; id: number }[] {
  const out: { table: MirrorTable; id: number }[] = []
  if (entry.table !== 'files' && isLocalId(entry.recordId) && !createsRecord(entry)) {
    out.push({ table: entry.table, id: entry.recordId })
  }
  for (const ref of refsFrom(entry.table)) {
    const value = payloadFields(entry)[ref.field]
    if (typeof value === 'number' && isLocalId(value)) out.push({ table: ref.target, id: value })
  }
  return out
}

/**
 * The entry with `from` replaced by `to` wherever it refers to a record of `target` (its record id
 * and its payload references). Returns null when nothing changed.
 */
export function remapEntry(
  entry: OutboxEntry,
  target: MirrorTable,
  from: number,
  to: number,
): OutboxEntry | null {
  let changed = false
  let next = entry
  if (entry.table === target && entry.recordId === from) {
    next = { ...next, recordId: to }
    changed = true
  }
  for (const ref of refsFrom(entry.table)) {
    if (ref.target === target && payloadFields(next)[ref.field] === from) {
      next = withPayloadField(next, ref.field, to)
      changed = true
    }
  }
  return changed ? next : null
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
