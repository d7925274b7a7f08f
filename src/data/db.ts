import { Dexie, type Table } from 'dexie'
import type {
  BackgroundRow,
  BlockRow,
  FileRow,
  MetaRow,
  MirrorTable,
  OutboxEntry,
  Project,
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

export const SCHEMA_VERSIONS: readonly {
  version: number
  stores: Record<string, string | null>
  upgrade?: (tx: import('dexie').Transaction) => Promise<void> | void
}[] = [
  { version: 1, stores: SCHEMA_V1 },
  { version: 2, stores: SCHEMA_V2 },
  { version: 3, stores: SCHEMA_V3 },
  { version: 4, stores: SCHEMA_V4, upgrade: keyExistingRows },
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
  outbox!: Table<OutboxEntry, number>
  files!: Table<FileRow, number>
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
