import type { Queryable } from '../db/database.ts'
import { selectJsonRows } from './json-rows.ts'
import type { Background, Project, ProjectTypeId } from '../../src/domain/project.ts'
import type { BlockType } from '../../src/domain/block.ts'
import { pagePath } from '../../src/domain/publish.ts'

interface ProjectRow {
  id: number
  workspace_id: number
  version: number
  name: string
  type: number | null
  updated_at: Date | string
  cover_url: string | null
  slug: string | null
  published_at: string | null
  changed_since: boolean | null
}

/** A project's columns, with its first background's image as the list's cover. */
const PROJECT_COLUMNS = `p.id, p.workspace_id, p.version, p.name, p.type, p.updated_at,
  (SELECT g.image_url FROM backgrounds g WHERE g.project_id = p.id
   ORDER BY g.position, g.id LIMIT 1) AS cover_url,
  (SELECT pg.slug FROM project_pages pg WHERE pg.project_id = p.id) AS slug,
  (SELECT to_char(pg.published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
   FROM project_pages pg WHERE pg.project_id = p.id) AS published_at,
  (SELECT p.updated_at > pg.published_at FROM project_pages pg
   WHERE pg.project_id = p.id) AS changed_since`

function toProject(row: ProjectRow): Project {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    version: row.version,
    name: row.name,
    type: row.type as ProjectTypeId | null,
    updated_at: new Date(row.updated_at).toISOString(),
    cover_url: row.cover_url ?? null,
    slug: row.slug ?? null,
    // The address is made absolute by the service, which knows the public origin.
    published:
      row.slug && row.published_at
        ? {
            slug: row.slug,
            url: pagePath(row.slug),
            published_at: row.published_at,
            changed_since: row.changed_since === true,
          }
        : null,
  }
}

export async function listProjects(db: Queryable, workspaceId: number): Promise<Project[]> {
  const rows = await selectJsonRows<ProjectRow>(
    db,
    `SELECT ${PROJECT_COLUMNS} FROM projects p WHERE p.workspace_id = $1 ORDER BY p.id`,
    [workspaceId],
  )
  return rows.map(toProject)
}

/** The project when it lies in one of the user's workspaces. */
export async function findProjectForUser(
  db: Queryable,
  id: number,
  userId: number,
): Promise<Project | null> {
  const { rows } = await db.query<ProjectRow>(
    `SELECT ${PROJECT_COLUMNS} FROM projects p
     JOIN workspace_members m ON m.workspace_id = p.workspace_id AND m.user_id = $2
     WHERE p.id = $1`,
    [id, userId],
  )
  return rows[0] ? toProject(rows[0]) : null
}

export async function insertProject(
  db: Queryable,
  workspaceId: number,
  name: string,
  type: number | null,
): Promise<Project> {
  const { rows } = await db.query<ProjectRow>(
    `INSERT INTO projects AS p (workspace_id, name, type) VALUES ($1, $2, $3)
     RETURNING ${PROJECT_COLUMNS}`,
    [workspaceId, name, type],
  )
  return toProject(rows[0]!)
}

/** Changes the given fields and bumps updated_at. */
export async function updateProject(
  db: Queryable,
  id: number,
  changes: { name?: string; type?: number },
): Promise<Project> {
  const { rows } = await db.query<ProjectRow>(
    `UPDATE projects AS p SET name = COALESCE($2, p.name), type = COALESCE($3, p.type),
       updated_at = clock_timestamp()
     WHERE p.id = $1 RETURNING ${PROJECT_COLUMNS}`,
    [id, changes.name ?? null, changes.type ?? null],
  )
  return toProject(rows[0]!)
}

export async function touchProject(db: Queryable, id: number): Promise<void> {
  await db.query('UPDATE projects SET updated_at = clock_timestamp() WHERE id = $1', [id])
}

export async function deleteProject(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM projects WHERE id = $1', [id])
}

const BG_COLUMNS = 'g.id, g.project_id, g.version, g.image_url, g.width, g.height, g.position'

export async function listBackgrounds(db: Queryable, projectId: number): Promise<Background[]> {
  return selectJsonRows<Background>(
    db,
    `SELECT ${BG_COLUMNS} FROM backgrounds g WHERE g.project_id = $1 ORDER BY g.position, g.id`,
    [projectId],
  )
}

export interface BackgroundAccess extends Background {
  workspace_id: number
}

/** The background when its project lies in one of the user's workspaces. */
export async function findBackgroundForUser(
  db: Queryable,
  id: number,
  userId: number,
): Promise<BackgroundAccess | null> {
  const { rows } = await db.query<BackgroundAccess>(
    `SELECT ${BG_COLUMNS}, p.workspace_id FROM backgrounds g
     JOIN projects p ON p.id = g.project_id
     JOIN workspace_members m ON m.workspace_id = p.workspace_id AND m.user_id = $2
     WHERE g.id = $1`,
    [id, userId],
  )
  return rows[0] ?? null
}

export async function insertBackground(
  db: Queryable,
  bg: { project_id: number; image_url: string; width: number; height: number; position?: number },
): Promise<Background> {
  const { rows } = await db.query<Background>(
    `INSERT INTO backgrounds AS g (project_id, image_url, width, height, position)
     VALUES ($1, $2, $3, $4, COALESCE($5::int,
       (SELECT COALESCE(max(position) + 1, 0) FROM backgrounds WHERE project_id = $1)))
     RETURNING ${BG_COLUMNS}`,
    [bg.project_id, bg.image_url, bg.width, bg.height, bg.position ?? null],
  )
  return rows[0]!
}

export async function deleteBackground(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM backgrounds WHERE id = $1', [id])
}

export interface BlockRow {
  id: number
  bg_id: number
  version: number
  type: BlockType
  data: Record<string, unknown>
}

export interface BlockAccess extends BlockRow {
  project_id: number
  workspace_id: number
}

export async function listBlocks(db: Queryable, bgId: number): Promise<BlockRow[]> {
  return selectJsonRows<BlockRow>(
    db,
    'SELECT id, bg_id, version, type, data FROM blocks WHERE bg_id = $1 ORDER BY id',
    [bgId],
  )
}

/** The block when it lies in one of the user's workspaces. */
export async function findBlockForUser(
  db: Queryable,
  id: number,
  userId: number,
): Promise<BlockAccess | null> {
  const { rows } = await db.query<BlockAccess>(
    `SELECT b.id, b.bg_id, b.version, b.type, b.data, g.project_id, p.workspace_id FROM blocks b
     JOIN backgrounds g ON g.id = b.bg_id
     JOIN projects p ON p.id = g.project_id
     JOIN workspace_members m ON m.workspace_id = p.workspace_id AND m.user_id = $2
     WHERE b.id = $1`,
    [id, userId],
  )
  return rows[0] ?? null
}

export async function insertBlock(
  db: Queryable,
  bgId: number,
  type: BlockType,
  data: Record<string, unknown>,
): Promise<BlockRow> {
  const { rows } = await db.query<BlockRow>(
    'INSERT INTO blocks (bg_id, type, data) VALUES ($1, $2, $3::jsonb) RETURNING id, bg_id, version, type, data',
    [bgId, type, JSON.stringify(data)],
  )
  return rows[0]!
}

export async function updateBlock(
  db: Queryable,
  id: number,
  bgId: number,
  data: Record<string, unknown>,
): Promise<BlockRow> {
  const { rows } = await db.query<BlockRow>(
    'UPDATE blocks SET bg_id = $2, data = $3::jsonb WHERE id = $1 RETURNING id, bg_id, version, type, data',
    [id, bgId, JSON.stringify(data)],
  )
  return rows[0]!
}

export async function deleteBlock(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM blocks WHERE id = $1', [id])
}

/** Copies a project's backgrounds and their blocks into another project, in one statement each. */
export async function copyProjectContent(
  db: Queryable,
  fromProjectId: number,
  toProjectId: number,
): Promise<void> {
  const backgrounds = await listBackgrounds(db, fromProjectId)
  for (const bg of backgrounds) {
    const copy = await insertBackground(db, { ...bg, project_id: toProjectId })
    await db.query(
      `INSERT INTO blocks (bg_id, type, data)
       SELECT $2, type, data FROM blocks WHERE bg_id = $1 ORDER BY id`,
      [bg.id, copy.id],
    )
  }
}
