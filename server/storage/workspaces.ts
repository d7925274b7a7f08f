import type { Queryable } from '../db/database.ts'
import { selectJsonRows } from './json-rows.ts'
import type { Role } from '../../src/domain/user.ts'
import type { Workspace, WorkspaceMember } from '../../src/domain/workspace.ts'

export async function listWorkspaces(db: Queryable, userId: number): Promise<Workspace[]> {
  return selectJsonRows<Workspace>(
    db,
    `SELECT w.id, w.name, w.version, m.role FROM workspaces w
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
    `SELECT w.id, w.name, w.version, m.role FROM workspaces w
     JOIN workspace_members m ON m.workspace_id = w.id AND m.user_id = $1 WHERE w.id = $2`,
    [userId, id],
  )
  return rows[0] ?? null
}

/** A new workspace with its admin (who made it) and, optionally, editors. */
export async function insertWorkspace(
  db: Queryable,
  name: string,
  adminId: number,
  editorIds: readonly number[] = [],
): Promise<Workspace> {
  const { rows } = await db.query<Workspace>(
    'INSERT INTO workspaces (name) VALUES ($1) RETURNING id, name, version',
    [name],
  )
  const workspace = rows[0]!
  await db.query(
    `INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, 'admin')`,
    [workspace.id, adminId],
  )
  for (const userId of editorIds) await insertMember(db, workspace.id, userId)
  return { ...workspace, role: 'admin' }
}

/** The user's role in the workspace; null when not a member. */
export async function memberRole(
  db: Queryable,
  userId: number,
  workspaceId: number,
): Promise<Role | null> {
  const { rows } = await db.query<{ role: Role }>(
    'SELECT role FROM workspace_members WHERE user_id = $1 AND workspace_id = $2',
    [userId, workspaceId],
  )
  return rows[0]?.role ?? null
}

const MEMBER_COLUMNS = 'm.user_id, u.name, u.email, m.role'

export async function listMembers(db: Queryable, workspaceId: number): Promise<WorkspaceMember[]> {
  return selectJsonRows<WorkspaceMember>(
    db,
    `SELECT ${MEMBER_COLUMNS} FROM workspace_members m JOIN users u ON u.id = m.user_id
     WHERE m.workspace_id = $1 ORDER BY m.user_id`,
    [workspaceId],
  )
}

/** Adds the user as an editor; one already a member stays as they are. Returns the member. */
export async function insertMember(
  db: Queryable,
  workspaceId: number,
  userId: number,
): Promise<WorkspaceMember> {
  await db.query(
    `INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, 'editor')
     ON CONFLICT (workspace_id, user_id) DO NOTHING`,
    [workspaceId, userId],
  )
  const { rows } = await db.query<WorkspaceMember>(
    `SELECT ${MEMBER_COLUMNS} FROM workspace_members m JOIN users u ON u.id = m.user_id
     WHERE m.workspace_id = $1 AND m.user_id = $2`,
    [workspaceId, userId],
  )
  return rows[0]!
}

/**
 * The workspace's members, locked until the transaction ends: a removal counts the admins left
 * without another removal changing them meanwhile.
 */
export async function lockMembers(
  db: Queryable,
  workspaceId: number,
): Promise<{ user_id: number; role: Role }[]> {
  const { rows } = await db.query<{ user_id: number; role: Role }>(
    'SELECT user_id, role FROM workspace_members WHERE workspace_id = $1 ORDER BY user_id FOR UPDATE',
    [workspaceId],
  )
  return rows
}

export async function deleteMember(
  db: Queryable,
  workspaceId: number,
  userId: number,
): Promise<void> {
  await db.query('DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2', [
    workspaceId,
    userId,
  ])
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

/** Renames the workspace; answered as workspace/list answers it to this user (with their role). */
export async function renameWorkspace(
  db: Queryable,
  id: number,
  name: string,
  userId: number,
): Promise<Workspace> {
  const { rows } = await db.query<Workspace>(
    `UPDATE workspaces w SET name = $2 WHERE w.id = $1 RETURNING w.id, w.name, w.version,
       (SELECT role FROM workspace_members WHERE workspace_id = w.id AND user_id = $3) AS role`,
    [id, name, userId],
  )
  return rows[0]!
}

/** Deletes the workspace; foreign keys cascade to everything in it. */
export async function deleteWorkspace(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM workspaces WHERE id = $1', [id])
}
