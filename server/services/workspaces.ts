import type { Database, Queryable } from '../db/database.ts'
import { ERROR_CODES } from '../../src/domain/api-error.ts'
import type {
  ChangeNotice,
  MemberListEntry,
  Workspace,
  WorkspaceInvitation,
} from '../../src/domain/workspace.ts'
import { normaliseEmail } from './auth.ts'
import * as store from '../storage/workspaces.ts'
import { AppError } from './errors.ts'
import { expectVersion } from './versions.ts'

export class WorkspaceService {
  constructor(private readonly db: Database) {}

  list(userId: number): Promise<Workspace[]> {
    return store.listWorkspaces(this.db, userId)
  }

  /** Whoever makes a workspace is its admin. */
  add(userId: number, name: string): Promise<Workspace> {
    return this.db.transaction((tx) => store.insertWorkspace(tx, name, userId))
  }

  /** 404 unless the user is a member; 403 for a member who is not an admin. */
  private async assertAdmin(userId: number, workspaceId: number): Promise<void> {
    const role = await store.memberRole(this.db, userId, workspaceId)
    if (role === null) throw AppError.notFound()
    if (role !== 'admin') throw AppError.forbidden()
  }

  /** The members; for an admin, the invitations still waiting after them. */
  async members(userId: number, workspaceId: number): Promise<MemberListEntry[]> {
    const role = await store.memberRole(this.db, userId, workspaceId)
    if (role === null) throw AppError.notFound()
    const members = await store.listMembers(this.db, workspaceId)
    if (role !== 'admin') return members
    return [...members, ...(await store.listPendingInvitations(this.db, workspaceId))]
  }

  /**
   * Invites the address (admins only). The answer is the same whoever it belongs to — someone
   * registered, nobody yet, a member already (then nothing is stored) — so it tells nothing about
   * who has an account.
   */
  async invite(
    userId: number,
    workspaceId: number,
    email: string,
  ): Promise<{ invited: true; email: string }> {
    await this.assertAdmin(userId, workspaceId)
    const address = normaliseEmail(email)
    await this.db.transaction(async (tx) => {
      if (await store.isMemberByEmail(tx, workspaceId, address)) return
      await store.insertInvitation(tx, workspaceId, address, userId)
    })
    return { invited: true, email: address }
  }

  /** The invitations waiting for the user's address (made before they registered too). */
  invitations(userId: number): Promise<WorkspaceInvitation[]> {
    return store.listInvitationsFor(this.db, userId)
  }

  /** Accepts the user's invitation: they join as an editor. 404 unless it is theirs. */
  async accept(userId: number, id: number): Promise<Workspace> {
    return this.db.transaction(async (tx) => {
      const workspaceId = await store.takeInvitation(tx, userId, id)
      if (workspaceId === null) throw AppError.notFound()
      await store.insertMember(tx, workspaceId, userId)
      return (await store.findWorkspaceForUser(tx, userId, workspaceId))!
    })
  }

  /** Declines the user's invitation. 404 unless it is theirs. */
  async decline(userId: number, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      if ((await store.takeInvitation(tx, userId, id)) === null) throw AppError.notFound()
    })
  }

  /** What colleagues kept over the user's values, newest first (docs/API.md "Members"). */
  notices(userId: number): Promise<ChangeNotice[]> {
    return store.listNotices(this.db, userId)
  }

  /** The user has read their notice; a second time, or another's, is a 404. */
  async dismissNotice(userId: number, id: number): Promise<void> {
    if (!(await store.deleteNotice(this.db, userId, id))) throw AppError.notFound()
  }

  /** Withdraws an invitation of the workspace (its admins only). */
  async cancelInvitation(userId: number, id: number): Promise<number> {
    const workspaceId = await store.invitationWorkspace(this.db, id)
    if (workspaceId === null) throw AppError.notFound()
    await this.assertAdmin(userId, workspaceId)
    await store.deleteInvitation(this.db, id)
    return workspaceId
  }

  /**
   * The user leaves the workspace; from the next request on it is unknown to them (404). The last
   * admin stays (422 `last_admin_leave`): they hand the role on, or delete the workspace.
   */
  async leave(userId: number, workspaceId: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const members = await store.lockMembers(tx, workspaceId)
      const me = members.find((m) => m.user_id === userId)
      if (!me) throw AppError.notFound()
      const admins = members.filter((m) => m.role === 'admin').length
      if (me.role === 'admin' && admins === 1) {
        throw new AppError(422, ERROR_CODES.validation, 'last_admin_leave', {
          workspace_id: { code: 'last_admin_leave' },
        })
      }
      await store.deleteMember(tx, workspaceId, userId)
    })
  }

  /**
   * Removes a member; from the next request on, the workspace is unknown to them (404). The last
   * admin stays: a workspace always has someone who can manage it.
   */
  async removeMember(userId: number, workspaceId: number, memberId: number): Promise<void> {
    await this.assertAdmin(userId, workspaceId)
    await this.db.transaction(async (tx) => {
      const members = await store.lockMembers(tx, workspaceId)
      const member = members.find((m) => m.user_id === memberId)
      if (!member) throw AppError.notFound()
      const admins = members.filter((m) => m.role === 'admin').length
      if (member.role === 'admin' && admins === 1) {
        throw new AppError(422, ERROR_CODES.validation, 'last_admin', {
          user_id: { code: 'last_admin' },
        })
      }
      await store.deleteMember(tx, workspaceId, memberId)
    })
  }

  /** Throws 404 unless the user belongs to the workspace. */
  async assertMember(userId: number, workspaceId: number): Promise<void> {
    if (!(await store.isMember(this.db, userId, workspaceId))) throw AppError.notFound()
  }

  /** Conditional writes (docs/API.md): the workspace as workspace/list answers it when refused. */
  private expect(tx: Queryable, userId: number, id: number, expected: number | undefined) {
    return expectVersion(tx, 'workspaces', id, expected, (q) =>
      store.findWorkspaceForUser(q, userId, id),
    )
  }

  async rename(userId: number, id: number, name: string, expected?: number): Promise<Workspace> {
    await this.assertMember(userId, id)
    if (expected === undefined) return store.renameWorkspace(this.db, id, name, userId)
    return this.db.transaction(async (tx) => {
      await this.expect(tx, userId, id, expected)
      return store.renameWorkspace(tx, id, name, userId)
    })
  }

  /** Admins only (docs/API.md, "Members"). */
  async delete(userId: number, id: number, expected?: number): Promise<void> {
    await this.assertAdmin(userId, id)
    await this.db.transaction(async (tx) => {
      await this.expect(tx, userId, id, expected)
      await store.deleteWorkspace(tx, id)
    })
  }
}
