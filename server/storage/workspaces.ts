import type { Queryable } from '../db/database.ts'
import { selectJsonRows } from './json-rows.ts'
import type { Workspace } from '../../src/domain/workspace.ts'

export async function listWorkspaces(db: Queryable, userId: number): Promise<Workspace[]> {
  return selectJsonRows<Workspace>(
    db,
    `SELECT w.id, w.name, w.version FROM workspaces w
     JOIN workspace_members m ON m.workspace_id = w.id AND m.user_id = $1 ORDER BY w.id`,
    [userId],
  )
}

/** The workspace as workspace/list answers it, when the user is a member of it. */
export async function findWorkspaceForUser(
  db: Queryable,
  userId: number,
  id: number,
): Promise<Workspace | null> {
  const { rows } = await db.query<Workspace>(
    `SELECT w.id, w.name, w.version FROM workspaces w
     JOIN workspace_members m ON m.workspace_id = w.id AND m.user_id = $1 WHERE w.id = $2`,
    [userId, id],
  )
  return rows[0] ?? null
}

export async function insertWorkspace(
  db: Queryable,
  name: string,
  memberIds: readonly number[],
): Promise<Workspace> {
  const { rows } = await db.query<Workspace>(
    'INSERT INTO workspaces (name) VALUES ($1) RETURNING id, name, version',
    [name],
  )
  const workspace = rows[0]!
  for (const userId of memberIds) {
    await db.query('INSERT INTO workspace_members (workspace_id, user_id) VALUES ($1, $2)', [
      workspace.id,
      userId,
    ])
  }
  return workspace
}

export async function isMember(
  db: Queryable,
  userId: number,
  workspaceId: number,
): Promise<boolean> {
  const { rows } = await db.query(
    'SELECT 1 FROM workspace_members WHERE user_id = $1 AND workspace_id = $2',
    [userId, workspaceId],
  )
  return rows.length > 0
}

export async function renameWorkspace(db: Queryable, id: number, name: string): Promise<Workspace> {
  const { rows } = await db.query<Workspace>(
    'UPDATE workspaces SET name = $2 WHERE id = $1 RETURNING id, name, version',
    [id, name],
  )
  return rows[0]!
}

/** Deletes the workspace; foreign keys cascade to everything in it. */
export async function deleteWorkspace(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM workspaces WHERE id = $1', [id])
}
