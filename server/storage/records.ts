import type { Queryable } from '../db/database.ts'

/**
 * Workspace records kept in plain tables of their own: integrations (amo, bitrix) and the
 * directory (departments, locations, specialists). Table and column names come from this file
 * only, never from a request.
 */
export const RECORD_TABLES = {
  amo: {
    table: 'amo_integrations',
    columns: [
      'name',
      'subdomain',
      'client_id',
      'client_secret',
      'redirect_uri',
      'long_lived_token',
      'enabled',
    ],
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
/** A row as a write returns it: with the version of its workspace's list it made (migrations.ts). */
export type WrittenRow = RecordRow & { row_version?: string }

function selectList(kind: RecordKind, alias = ''): string {
  const prefix = alias ? `${alias}.` : ''
  return ['id', 'workspace_id', 'version', ...RECORD_TABLES[kind].columns]
    .map((c) => prefix + c)
    .join(', ')
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

const VERSION_OF = (kind: RecordKind) =>
  `COALESCE((SELECT version FROM record_versions WHERE workspace_id = $1 AND kind = '${kind}'), 0)::text`

/**
 * The version of a workspace's records of one kind (raised by every write, migrations.ts), in one
 * round trip with the check that the user is a member of the workspace (null when not); and when
 * the version is not `known`, what a list at version `known` needs to become current, from the
 * same snapshot: the rows written since (their row_version is past it) and how many rows there are
 * (kept beside the version, migrations.ts).
 */
export async function recordListChanges(
  db: Queryable,
  kind: RecordKind,
  workspaceId: number,
  userId: number,
  known: string,
): Promise<{ version: string; count: number; changed: RecordRow[] } | null> {
  const { table } = RECORD_TABLES[kind]
  const { rows } = await db.query<{
    member: boolean | null
    version: string
    count: number | null
    changed: string | null
  }>(
    `WITH v AS (
       SELECT COALESCE(max(version), 0)::text AS version, COALESCE(max(row_count), 0) AS row_count
       FROM record_versions WHERE workspace_id = $1 AND kind = '${kind}'
     )
     SELECT (SELECT true FROM workspace_members WHERE workspace_id = $1 AND user_id = $2) AS member,
       (SELECT version FROM v) AS version,
       (SELECT row_count FROM v) AS count,
       (SELECT json_agg(t)::text FROM (
         SELECT ${selectList(kind)} FROM ${table}
         WHERE workspace_id = $1 AND row_version > $3::bigint AND (SELECT version FROM v) <> $3::text
         ORDER BY id
       ) t) AS changed`,
    [workspaceId, userId, known],
  )
  const row = rows[0]!
  if (!row.member) return null
  return {
    version: row.version,
    count: row.count ?? 0,
    changed: row.changed ? (JSON.parse(row.changed) as RecordRow[]) : [],
  }
}

/**
 * The records of a workspace as one JSON array text and the version they are at (one snapshot),
 * in one round trip with the check that the user is a member of it: null when not
 * (docs/API.md, "Conventions").
 */
export async function listRecordsJsonForMember(
  db: Queryable,
  kind: RecordKind,
  workspaceId: number,
  userId: number,
): Promise<{ json: string; version: string } | null> {
  const { rows } = await db.query<{ member: boolean | null; version: string; j: string }>(
    `SELECT (SELECT true FROM workspace_members WHERE workspace_id = $1 AND user_id = $2) AS member,
       ${VERSION_OF(kind)} AS version,
       (SELECT COALESCE(json_agg(t), '[]')::text FROM (
         SELECT ${selectList(kind)} FROM ${RECORD_TABLES[kind].table} WHERE workspace_id = $1 ORDER BY id
       ) t) AS j`,
    [workspaceId, userId],
  )
  const row = rows[0]!
  return row.member ? { json: row.j, version: row.version } : null
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
     VALUES ($1${placeholders.map((p) => `, ${p}`).join('')}) RETURNING ${selectList(kind)}, row_version::text AS row_version`,
    [workspaceId, ...params],
  )
  return rows[0]!
}

/** insertRecord in one round trip with the membership check: null when the user is not a member. */
export async function insertRecordForMember(
  db: Queryable,
  kind: RecordKind,
  workspaceId: number,
  userId: number,
  values: Record<string, unknown>,
): Promise<RecordRow | null> {
  const [columns, params] = writable(kind, values)
  const placeholders = columns.map((_, i) => `$${i + 3}`)
  const { rows } = await db.query<RecordRow>(
    `INSERT INTO ${RECORD_TABLES[kind].table} (workspace_id${columns.map((c) => `, ${c}`).join('')})
     SELECT $1${placeholders.map((p) => `, ${p}`).join('')}
     WHERE EXISTS (SELECT 1 FROM workspace_members WHERE workspace_id = $1 AND user_id = $2)
     RETURNING ${selectList(kind)}, row_version::text AS row_version`,
    [workspaceId, userId, ...params],
  )
  return rows[0] ?? null
}

/**
 * updateRecord in one round trip with the check that the record lies in one of the user's
 * workspaces: null when it does not (or does not exist).
 */
export async function updateRecordForUser(
  db: Queryable,
  kind: RecordKind,
  id: number,
  userId: number,
  values: Record<string, unknown>,
): Promise<RecordRow | null> {
  const [columns, params] = writable(kind, values)
  if (columns.length === 0) return findRecordForUser(db, kind, id, userId)
  const sets = columns.map((c, i) => `${c} = $${i + 3}`).join(', ')
  const { rows } = await db.query<RecordRow>(
    `UPDATE ${RECORD_TABLES[kind].table} r SET ${sets}
     FROM workspace_members m
     WHERE r.id = $1 AND m.workspace_id = r.workspace_id AND m.user_id = $2
     RETURNING ${selectList(kind, 'r')}, r.row_version::text AS row_version`,
    [id, userId, ...params],
  )
  return rows[0] ?? null
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
    `UPDATE ${RECORD_TABLES[kind].table} SET ${sets} WHERE id = $1 RETURNING ${selectList(kind)}, row_version::text AS row_version`,
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
