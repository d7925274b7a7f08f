import type { Queryable } from '../db/database.ts'
import { selectJsonRows } from './json-rows.ts'

/**
 * Workspace records kept in plain tables of their own: integrations (amo, bitrix) and the
 * directory (departments, locations, specialists). Table and column names come from this file
 * only, never from a request.
 */
export const RECORD_TABLES = {
  amo: {
    table: 'amo_integrations',
    columns: ['name', 'subdomain', 'client_id', 'client_secret', 'redirect_uri', 'enabled'],
  },
  bitrix: {
    table: 'bitrix_integrations',
    columns: ['name', 'portal_url', 'webhook_url', 'enabled'],
  },
  department: { table: 'departments', columns: ['name', 'description'] },
  location: { table: 'locations', columns: ['name', 'address', 'phone'] },
  specialist: {
    table: 'specialists',
    columns: [
      'name',
      'position',
      'department_id',
      'location_id',
      'phone',
      'email',
      'photo_url',
      'description',
      'enabled',
    ],
  },
} as const

export type RecordKind = keyof typeof RECORD_TABLES
export type RecordRow = { id: number; workspace_id: number } & Record<string, unknown>

function selectList(kind: RecordKind, alias = ''): string {
  const prefix = alias ? `${alias}.` : ''
  return ['id', 'workspace_id', ...RECORD_TABLES[kind].columns].map((c) => prefix + c).join(', ')
}

function writable(kind: RecordKind, values: Record<string, unknown>): [string[], unknown[]] {
  const columns: string[] = []
  const params: unknown[] = []
  for (const column of RECORD_TABLES[kind].columns) {
    if (values[column] === undefined) continue
    columns.push(column)
    params.push(values[column])
  }
  return [columns, params]
}

export async function listRecords(
  db: Queryable,
  kind: RecordKind,
  workspaceId: number,
): Promise<RecordRow[]> {
  return selectJsonRows<RecordRow>(
    db,
    `SELECT ${selectList(kind)} FROM ${RECORD_TABLES[kind].table} WHERE workspace_id = $1 ORDER BY id`,
    [workspaceId],
  )
}

/** The record when it lies in one of the user's workspaces; otherwise null. */
export async function findRecordForUser(
  db: Queryable,
  kind: RecordKind,
  id: number,
  userId: number,
): Promise<RecordRow | null> {
  const { rows } = await db.query<RecordRow>(
    `SELECT ${selectList(kind, 'r')} FROM ${RECORD_TABLES[kind].table} r
     JOIN workspace_members m ON m.workspace_id = r.workspace_id AND m.user_id = $2
     WHERE r.id = $1`,
    [id, userId],
  )
  return rows[0] ?? null
}

/** True when a record of this kind with this id lies in this workspace. */
export async function recordInWorkspace(
  db: Queryable,
  kind: RecordKind,
  id: number,
  workspaceId: number,
): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM ${RECORD_TABLES[kind].table} WHERE id = $1 AND workspace_id = $2`,
    [id, workspaceId],
  )
  return rows.length > 0
}

export async function insertRecord(
  db: Queryable,
  kind: RecordKind,
  workspaceId: number,
  values: Record<string, unknown>,
): Promise<RecordRow> {
  const [columns, params] = writable(kind, values)
  const placeholders = columns.map((_, i) => `$${i + 2}`)
  const { rows } = await db.query<RecordRow>(
    `INSERT INTO ${RECORD_TABLES[kind].table} (workspace_id${columns.map((c) => `, ${c}`).join('')})
     VALUES ($1${placeholders.map((p) => `, ${p}`).join('')}) RETURNING ${selectList(kind)}`,
    [workspaceId, ...params],
  )
  return rows[0]!
}

export async function updateRecord(
  db: Queryable,
  kind: RecordKind,
  id: number,
  values: Record<string, unknown>,
): Promise<RecordRow> {
  const [columns, params] = writable(kind, values)
  if (columns.length === 0) {
    const { rows } = await db.query<RecordRow>(
      `SELECT ${selectList(kind)} FROM ${RECORD_TABLES[kind].table} WHERE id = $1`,
      [id],
    )
    return rows[0]!
  }
  const sets = columns.map((c, i) => `${c} = $${i + 2}`).join(', ')
  const { rows } = await db.query<RecordRow>(
    `UPDATE ${RECORD_TABLES[kind].table} SET ${sets} WHERE id = $1 RETURNING ${selectList(kind)}`,
    [id, ...params],
  )
  return rows[0]!
}

export async function deleteRecord(db: Queryable, kind: RecordKind, id: number): Promise<void> {
  await db.query(`DELETE FROM ${RECORD_TABLES[kind].table} WHERE id = $1`, [id])
}

/**
 * A deleted specialist is cleared from the subscribe blocks that named it, as a deleted department
 * or location is cleared from specialists (ON DELETE SET NULL): the block stays and asks for a new
 * choice, and its next save is not refused for a reference that no longer exists.
 */
export async function clearSpecialistFromBlocks(
  db: Queryable,
  specialistId: number,
): Promise<void> {
  await db.query(
    `UPDATE blocks SET data = jsonb_set(data, '{specialist_id}', 'null'::jsonb)
     WHERE type = 'subscribe' AND data->>'specialist_id' = $1`,
    [String(specialistId)],
  )
}
