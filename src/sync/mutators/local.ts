import { getDb, type MirrorDb } from '../../data/db.ts'
import { isLocalId } from '../../data/ids.ts'
import { refsFrom } from '../../data/refs.ts'
import { currentIdOf } from '../../data/client-keys.ts'
import type { MirrorTable } from '../../data/types.ts'
import type { EntryState } from '../../data/entries.ts'
import type { IfMatch } from '../../api/client.ts'

/**
 * What every mutator's local write shares: one Dexie transaction for the row and its outbox entry,
 * so the screen is optimistic and nothing is lost if the tab closes right after.
 */
export function write<T>(fn: (db: MirrorDb) => Promise<T>): Promise<T> {
  const db = getDb()
  // An async scope function: Dexie keeps the transaction across native awaits only for those.
  return db.transaction('rw', db.allTables(), async () => fn(db))
}

/**
 * The id a record has now. A screen may still hold a local id whose add replayed a moment ago (the
 * row was re-keyed to the server id): writing under the old id would create a second record.
 */
export { currentIdOf as currentId }

/** The row with every reference to a since-replayed local id moved to the server id. */
export async function withCurrentRefs<T extends object>(
  db: MirrorDb,
  table: MirrorTable,
  row: T,
): Promise<T> {
  let next = row
  for (const ref of refsFrom(table)) {
    const value: unknown = (next as Record<string, unknown>)[ref.field]
    if (typeof value !== 'number' || !isLocalId(value)) continue
    const id = await currentIdOf(db, ref.target, value)
    if (id !== value) next = { ...next, [ref.field]: id }
  }
  return next
}

/** The server version a mirror row was last known at (absent while it exists only here). */
export function versionOf(row: object | undefined): number | undefined {
  const version = (row as { version?: unknown } | undefined)?.version
  return typeof version === 'number' ? version : undefined
}

/**
 * Where a change of `fields` on `row` starts (docs/SYNC.md, "Conflicts"): the row's version, sent
 * as `If-Match`, and the values the fields have before the change, which a refused write compares
 * with the server's to tell a merge from a conflict. Read before the row is written.
 */
export function startFrom(
  row: object | undefined,
  fields: Iterable<string>,
): { baseVersion?: number; base?: Record<string, unknown> } {
  if (!row) return {}
  const values = row as Record<string, unknown>
  const base: Record<string, unknown> = {}
  for (const field of fields) base[field] = values[field]
  const baseVersion = versionOf(row)
  return baseVersion === undefined ? { base } : { baseVersion, base }
}

/**
 * The precondition an entry is sent with: the version it started from (`version`, by default its
 * own), and the fields the person kept over a colleague's, if they chose so.
 */
export function ifMatchOf(
  entry: Pick<EntryState, 'baseVersion' | 'keeps'>,
  version = entry.baseVersion,
): IfMatch | undefined {
  if (version === undefined) return undefined
  return entry.keeps?.length ? { version, keepMine: entry.keeps } : version
}
