import { Dexie, type Table } from 'dexie'
import type {
  AppealRow,
  BackgroundRow,
  BlockRow,
  FileRow,
  MetaRow,
  MirrorTable,
  OutboxEntry,
  Project,
  RekeyedRow,
  ProjectType,
  RecordKind,
  RecordOf,
  Workspace,
} from './types.ts'

export const DATABASE_NAME = 'promo-builder'

/**
 * The mirror's schema, version by version. Each version gets its own entry in `SCHEMA_VERSIONS`
 * (never edit an old one; a version lists only the stores it changes) with an `upgrade` when rows
 * must change; tests/unit/db-migration.test.ts opens a database written by every earlier version
 * and checks it upgrades.
 */
export const SCHEMA_V1 = {
  workspaces: 'id, name',
  projects: 'id, workspace_id',
  projectTypes: 'id',
  backgrounds: 'id, project_id',
  blocks: 'id, bg_id',
  amo: 'id, workspace_id',
  bitrix: 'id, workspace_id',
  department: 'id, workspace_id',
  location: 'id, workspace_id',
  specialist: 'id, workspace_id',
  outbox: '++seq, table, [table+recordId], state',
  files: 'id',
  meta: 'key',
} as const

/**
 * Version 2: indexes on the references the server sets to null when their target is deleted
 * (cascade.ts `clearReferences`), so a refresh that reflects thousands of deletions looks the
 * referring rows up instead of scanning whole tables. IndexedDB builds them over existing rows.
 */
export const SCHEMA_V2 = {
  blocks: 'id, bg_id, specialist_id',
  specialist: 'id, workspace_id, department_id, location_id',
} as const

/**
 * Version 3: the records of a workspace in name order ([workspace_id+name]), so a list's first
 * screen is read as a window of rows (queries.ts `recordsHead`) instead of the whole kind.
 */
export const SCHEMA_V3 = {
  amo: 'id, workspace_id, [workspace_id+name]',
  bitrix: 'id, workspace_id, [workspace_id+name]',
  department: 'id, workspace_id, [workspace_id+name]',
  location: 'id, workspace_id, [workspace_id+name]',
  specialist: 'id, workspace_id, department_id, location_id, [workspace_id+name]',
} as const

/**
 * Version 4: client keys (`ck`) on every mirrored row, which stay the same when a row's local id
 * becomes the server's (types.ts `ClientKey`). Existing rows are keyed by their id, as rows the
 * server made are; queued entries keep referring to ids and need no change.
 */
export const SCHEMA_V4 = {
  workspaces: 'id, name, ck',
  projects: 'id, workspace_id, ck',
  backgrounds: 'id, project_id, ck',
  blocks: 'id, bg_id, specialist_id, ck',
  amo: 'id, workspace_id, [workspace_id+name], ck',
  bitrix: 'id, workspace_id, [workspace_id+name], ck',
  department: 'id, workspace_id, [workspace_id+name], ck',
  location: 'id, workspace_id, [workspace_id+name], ck',
  specialist: 'id, workspace_id, department_id, location_id, [workspace_id+name], ck',
} as const

async function keyExistingRows(tx: import('dexie').Transaction): Promise<void> {
  for (const table of Object.keys(SCHEMA_V4)) {
    await tx
      .table<{ id: number; ck?: string }>(table)
      .toCollection()
      .modify((row) => {
        row.ck ??= String(row.id)
      })
  }
  // Before version 4 a row re-keyed to its server id was followed from its local id through
  // `redirect:<table>:<local id>` entries in meta: the row takes that local id as its key (a link
  // or a form holding it still finds the row), and the entry goes.
  const meta = tx.table<{ key: string; value: unknown }, string>('meta')
  const redirects = meta.where('key').startsWith('redirect:')
  for (const { key, value } of await redirects.toArray()) {
    const [, table, local] = key.split(':')
    if (table && table in SCHEMA_V4 && typeof value === 'number')
      await tx.table(table).update(value, { ck: local })
  }
  await redirects.delete()
}

/**
 * Version 5: queued entries name their record and the records their payload refers to by client
 * key (`ck`, entries.ts), looked up when sent; `rekeyed` keeps the server id each key got
 * (types.ts `RekeyedRow`). The upgrade gives every queued entry the key of the mirror row with its
 * ids (a row already gone: its id as a key, as `keyFromId`).
 */
export const SCHEMA_V5 = {
  outbox: '++seq, table, [table+ck], state',
  rekeyed: '[table+ck], [table+id]',
} as const

/** Payload fields of queued entries that name a record, by table (refs.ts `REFS`, as of v5). */
const V5_REFS: Record<string, Record<string, string>> = {
  amo: { workspace_id: 'workspaces' },
  bitrix: { workspace_id: 'workspaces' },
  department: { workspace_id: 'workspaces' },
  location: { workspace_id: 'workspaces' },
  specialist: {
    workspace_id: 'workspaces',
    department_id: 'department',
    location_id: 'location',
  },
  projects: { workspace_id: 'workspaces', source_id: 'projects' },
  backgrounds: { project_id: 'projects' },
  blocks: { bg_id: 'backgrounds', specialist_id: 'specialist' },
}

async function keyQueuedEntries(tx: import('dexie').Transaction): Promise<void> {
  const keyOf = async (table: string, id: number): Promise<string> => {
    if (table === 'files' || !(table in SCHEMA_V4)) return String(id)
    const row = await tx.table<{ id: number; ck?: string }, number>(table).get(id)
    return row?.ck ?? String(id)
  }
  const outbox = tx.table<Record<string, unknown>, number>('outbox')
  const entries = await outbox.toArray()
  const next: Record<string, unknown>[] = []
  for (const { recordId, ...entry } of entries) {
    const table = String(entry.table)
    const payload: Record<string, unknown> = { ...(entry.payload as Record<string, unknown>) }
    if (entry.op === 'complete') delete payload.bg_id
    for (const [field, target] of Object.entries(V5_REFS[table] ?? {})) {
      const value = payload[field]
      if (typeof value === 'number') payload[field] = await keyOf(target, value)
    }
    next.push({ ...entry, ck: await keyOf(table, Number(recordId)), payload })
  }
  await outbox.bulkPut(next)
}

/**
 * Version 6: visitors' requests («Обращения», docs/requests.md), newest first by
 * [workspace_id+id] (a list's first screen is a window of it) and counted by
 * [workspace_id+status] (the navigation's number of new ones).
 */
export const SCHEMA_V6 = {
  appeal: 'id, workspace_id, [workspace_id+id], [workspace_id+status], ck',
} as const

export const SCHEMA_VERSIONS: readonly {
  version: number
  stores: Record<string, string | null>
  upgrade?: (tx: import('dexie').Transaction) => Promise<void> | void
}[] = [
  { version: 1, stores: SCHEMA_V1 },
  { version: 2, stores: SCHEMA_V2 },
  { version: 3, stores: SCHEMA_V3 },
  { version: 4, stores: SCHEMA_V4, upgrade: keyExistingRows },
  { version: 5, stores: SCHEMA_V5, upgrade: keyQueuedEntries },
  { version: 6, stores: SCHEMA_V6 },
]

export class MirrorDb extends Dexie {
  workspaces!: Table<Workspace, number>
  projects!: Table<Project, number>
  projectTypes!: Table<ProjectType, number>
  backgrounds!: Table<BackgroundRow, number>
  blocks!: Table<BlockRow, number>
  amo!: Table<RecordOf<'amo'>, number>
  bitrix!: Table<RecordOf<'bitrix'>, number>
  department!: Table<RecordOf<'department'>, number>
  location!: Table<RecordOf<'location'>, number>
  specialist!: Table<RecordOf<'specialist'>, number>
  appeal!: Table<AppealRow, number>
  outbox!: Table<OutboxEntry, number>
  files!: Table<FileRow, number>
  rekeyed!: Table<RekeyedRow, [string, string]>
  meta!: Table<MetaRow, string>

  constructor(name: string = DATABASE_NAME) {
    super(name)
    for (const { version, stores, upgrade } of SCHEMA_VERSIONS) {
      const v = this.version(version).stores(stores)
      if (upgrade) v.upgrade(upgrade)
    }
  }

  /** A mirror table by name (records, workspaces, projects, backgrounds, blocks). */
  mirror(table: MirrorTable): Table<{ id: number } & Record<string, unknown>, number> {
    return this.table(table)
  }

  recordTable<K extends RecordKind>(kind: K): Table<RecordOf<K>, number> {
    return this.table(kind)
  }

  /** Every table, for transactions that touch ids everywhere (remapping, cascades). */
  allTables(): Table[] {
    return this.tables
  }
}

let shared: MirrorDb | null = null

/** The database of this page, worker or service worker (opened lazily on first use). */
export function getDb(): MirrorDb {
  shared ??= new MirrorDb()
  return shared
}

/** Tests: use another database (a fresh name per test file). */
export function setDb(db: MirrorDb): void {
  shared = db
}
