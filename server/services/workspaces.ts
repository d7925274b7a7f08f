import type { Database, Queryable } from '../db/database.ts'
import { ERROR_CODES } from '../../src/domain/api-error.ts'
import type { Workspace, WorkspaceMember } from '../../src/domain/workspace.ts'
import { findUserByEmail } from '../storage/users.ts'
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

  async members(userId: number, workspaceId: number): Promise<WorkspaceMember[]> {
    await this.assertMember(userId, workspaceId)
    return store.listMembers(this.db, workspaceId)
  }

  /** Adds a registered user as an editor; one already a member is answered as they are. */
  async addMember(userId: number, workspaceId: number, email: string): Promise<WorkspaceMember> {
    await this.assertAdmin(userId, workspaceId)
    const user = await findUserByEmail(this.db, normaliseEmail(email))
    if (!user) throw AppError.validation({ email: { code: 'unknown_user' } })
    return store.insertMember(this.db, workspaceId, user.id)
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
