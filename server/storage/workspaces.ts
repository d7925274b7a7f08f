import type { Queryable } from '../db/database.ts'
import { selectJsonRows } from './json-rows.ts'
import type { Role } from '../../src/domain/user.ts'
import type {
  ChangeNotice,
  PendingInvitation,
  Workspace,
  WorkspaceInvitation,
  WorkspaceMember,
} from '../../src/domain/workspace.ts'

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

/** Invites the address to the workspace; an invitation already there stays as it is. */
export async function insertInvitation(
  db: Queryable,
  workspaceId: number,
  email: string,
  invitedBy: number,
): Promise<void> {
  await db.query(
    `INSERT INTO workspace_invitations (workspace_id, email, invited_by) VALUES ($1, $2, $3)
     ON CONFLICT (workspace_id, email) DO NOTHING`,
    [workspaceId, email, invitedBy],
  )
}

/** Whether someone signing in with the address is a member of the workspace already. */
export async function isMemberByEmail(
  db: Queryable,
  workspaceId: number,
  email: string,
): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM workspace_members m JOIN users u ON u.id = m.user_id
     WHERE m.workspace_id = $1 AND u.email = $2`,
    [workspaceId, email],
  )
  return rows.length > 0
}

/** The invitations waiting for the user's address, oldest first. */
export async function listInvitationsFor(
  db: Queryable,
  userId: number,
): Promise<WorkspaceInvitation[]> {
  return selectJsonRows<WorkspaceInvitation>(
    db,
    `SELECT i.id, i.workspace_id, w.name AS workspace_name,
       COALESCE(b.name, '') AS invited_by, i.created_at
     FROM workspace_invitations i
     JOIN users u ON u.email = i.email AND u.id = $1
     JOIN workspaces w ON w.id = i.workspace_id
     LEFT JOIN users b ON b.id = i.invited_by
     ORDER BY i.id`,
    [userId],
  )
}

/** The invitations of a workspace still waiting, oldest first (admins see them). */
export async function listPendingInvitations(
  db: Queryable,
  workspaceId: number,
): Promise<PendingInvitation[]> {
  return selectJsonRows<PendingInvitation>(
    db,
    `SELECT i.id AS invitation_id, i.email, COALESCE(b.name, '') AS invited_by, i.created_at,
       true AS pending
     FROM workspace_invitations i LEFT JOIN users b ON b.id = i.invited_by
     WHERE i.workspace_id = $1 ORDER BY i.id`,
    [workspaceId],
  )
}

/** Takes the user's invitation out (when it is theirs): its workspace, or null. */
export async function takeInvitation(
  db: Queryable,
  userId: number,
  id: number,
): Promise<number | null> {
  const { rows } = await db.query<{ workspace_id: number }>(
    `DELETE FROM workspace_invitations i USING users u
     WHERE i.id = $2 AND u.id = $1 AND u.email = i.email RETURNING i.workspace_id`,
    [userId, id],
  )
  return rows[0]?.workspace_id ?? null
}

/** The workspace of an invitation, or null. */
export async function invitationWorkspace(db: Queryable, id: number): Promise<number | null> {
  const { rows } = await db.query<{ workspace_id: number }>(
    'SELECT workspace_id FROM workspace_invitations WHERE id = $1',
    [id],
  )
  return rows[0]?.workspace_id ?? null
}

export async function deleteInvitation(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM workspace_invitations WHERE id = $1', [id])
}

/**
 * The notices of colleagues who kept their values over the user's (server/db/migrations.ts,
 * `note_kept_over`), newest first, of the workspaces the user is still a member of.
 */
export async function listNotices(db: Queryable, userId: number): Promise<ChangeNotice[]> {
  return selectJsonRows<ChangeNotice>(
    db,
    `SELECT n.id, n.workspace_id, w.name AS workspace_name, COALESCE(b.name, '') AS by, n.kind,
       n.record_id, n.label, n.changes, n.block, n.created_at
     FROM change_notices n
     JOIN workspace_members m ON m.workspace_id = n.workspace_id AND m.user_id = n.user_id
     JOIN workspaces w ON w.id = n.workspace_id
     LEFT JOIN users b ON b.id = n.by_user_id
     WHERE n.user_id = $1
     ORDER BY n.id DESC LIMIT 100`,
    [userId],
  )
}

/** Drops the user's notice; false when they have none of that id. */
export async function deleteNotice(db: Queryable, userId: number, id: number): Promise<boolean> {
  const { rows } = await db.query(
    'DELETE FROM change_notices WHERE id = $1 AND user_id = $2 RETURNING id',
    [id, userId],
  )
  return rows.length > 0
}
