import type { Queryable } from '../db/database.ts'
import { referencedIds } from '../../src/domain/block.ts'
import type { PageSnapshot, PageSpecialist } from '../../src/domain/publish.ts'
import { listBackgrounds } from './projects.ts'

/** A project's page row (docs/publishing.md). */
export interface PageRow {
  project_id: number
  slug: string
  published_at: string | null
  published_version: number
}

/** A published page as the public address serves it. */
export interface PublishedPage {
  project_id: number
  workspace_id: number
  slug: string
  snapshot: PageSnapshot
  published_at: string
  published_version: number
}

const PAGE_COLUMNS = `project_id, slug, published_version,
  to_char(published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS published_at`

export async function findPage(db: Queryable, projectId: number): Promise<PageRow | null> {
  const { rows } = await db.query<PageRow>(
    `SELECT ${PAGE_COLUMNS} FROM project_pages WHERE project_id = $1`,
    [projectId],
  )
  return rows[0] ?? null
}

/** The project holding a slug, published or not. */
export async function slugHolder(db: Queryable, slug: string): Promise<number | null> {
  const { rows } = await db.query<{ project_id: number }>(
    'SELECT project_id FROM project_pages WHERE slug = $1',
    [slug],
  )
  return rows[0]?.project_id ?? null
}

/**
 * Gives the project this slug (its row made when it has none). False when another project holds
 * it: the unique index decides, so two projects asking for one slug at once never both get it.
 */
export async function claimSlug(db: Queryable, projectId: number, slug: string): Promise<boolean> {
  const { rows } = await db
    .query<{ project_id: number }>(
      `INSERT INTO project_pages (project_id, slug) VALUES ($1, $2)
     ON CONFLICT (project_id) DO UPDATE SET slug = EXCLUDED.slug
     RETURNING project_id`,
      [projectId, slug],
    )
    .catch((error: unknown) => {
      if ((error as { code?: string }).code === '23505') return { rows: [] }
      throw error
    })
  return rows.length > 0
}

/** Whether a slug is free or already this project's. */
export async function slugFree(db: Queryable, projectId: number, slug: string): Promise<boolean> {
  const holder = await slugHolder(db, slug)
  return holder === null || holder === projectId
}

/**
 * The project's content as stored now: its backgrounds in order, their blocks by id, and the
 * specialists its subscribe blocks name (enabled or not: what the editor showed).
 */
export async function takeSnapshot(
  db: Queryable,
  project: { id: number; workspace_id: number; name: string; type: number | null },
): Promise<PageSnapshot> {
  const backgrounds = await listBackgrounds(db, project.id)
  const { rows } = await db.query<{ j: string }>(
    `SELECT COALESCE(json_agg(b.data || jsonb_build_object('id', b.id, 'bg_id', b.bg_id,
       'type', b.type) ORDER BY b.id), '[]')::text AS j
     FROM blocks b JOIN backgrounds g ON g.id = b.bg_id WHERE g.project_id = $1`,
    [project.id],
  )
  const blocks = JSON.parse(rows[0]!.j) as PageSnapshot['blocks']
  // The specialists the blocks name (a subscribe block's), by the block types' references.
  const wanted = [...new Set(blocks.flatMap((b) => referencedIds(b, 'specialist')))]
  const specialists = wanted.length
    ? (
        await db.query<PageSpecialist>(
          `SELECT id, name, position, photo_url FROM specialists
           WHERE workspace_id = $1 AND id = ANY($2::int[]) ORDER BY id`,
          [project.workspace_id, wanted],
        )
      ).rows
    : []
  return {
    project: { id: project.id, name: project.name, type: project.type as 1 | 2 | null },
    backgrounds: backgrounds.map(({ id, image_url, width, height, position }) => ({
      id,
      image_url,
      width,
      height,
      position,
    })),
    blocks,
    specialists,
  }
}

/** Stores a snapshot as the project's page (its slug already claimed); the new version. */
export async function storeSnapshot(
  db: Queryable,
  projectId: number,
  snapshot: PageSnapshot,
): Promise<PageRow> {
  const { rows } = await db.query<PageRow>(
    `UPDATE project_pages SET snapshot = $2::jsonb, published_at = clock_timestamp(),
       published_version = published_version + 1
     WHERE project_id = $1 RETURNING ${PAGE_COLUMNS}`,
    [projectId, JSON.stringify(snapshot)],
  )
  return rows[0]!
}

export async function dropSnapshot(db: Queryable, projectId: number): Promise<void> {
  await db.query(
    `UPDATE project_pages SET snapshot = NULL, published_at = NULL
     WHERE project_id = $1 AND snapshot IS NOT NULL`,
    [projectId],
  )
}

/** The published page at a slug; null when there is none or it is not published. */
export async function findPublished(db: Queryable, slug: string): Promise<PublishedPage | null> {
  const { rows } = await db.query<PublishedPage & { snapshot: PageSnapshot | string }>(
    `SELECT pg.project_id, p.workspace_id, pg.slug, pg.snapshot, pg.published_version,
       to_char(pg.published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS published_at
     FROM project_pages pg JOIN projects p ON p.id = pg.project_id
     WHERE pg.slug = $1 AND pg.snapshot IS NOT NULL`,
    [slug],
  )
  const row = rows[0]
  if (!row) return null
  const snapshot = typeof row.snapshot === 'string' ? JSON.parse(row.snapshot) : row.snapshot
  return { ...row, snapshot: snapshot as PageSnapshot }
}

/** Only the version of the page at a slug (a conditional GET answers 304 from it). */
export async function publishedVersion(
  db: Queryable,
  slug: string,
): Promise<{ project_id: number; published_version: number } | null> {
  const { rows } = await db.query<{ project_id: number; published_version: number }>(
    `SELECT project_id, published_version FROM project_pages
     WHERE slug = $1 AND snapshot IS NOT NULL`,
    [slug],
  )
  return rows[0] ?? null
}
