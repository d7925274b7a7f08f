import type { Database, Queryable } from '../db/database.ts'
import type { Workspace } from '../../src/domain/workspace.ts'
import * as store from '../storage/workspaces.ts'
import { AppError } from './errors.ts'
import { expectVersion } from './versions.ts'

export class WorkspaceService {
  constructor(private readonly db: Database) {}

  list(userId: number): Promise<Workspace[]> {
    return store.listWorkspaces(this.db, userId)
  }

  add(userId: number, name: string): Promise<Workspace> {
    return this.db.transaction((tx) => store.insertWorkspace(tx, name, [userId]))
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
    if (expected === undefined) return store.renameWorkspace(this.db, id, name)
    return this.db.transaction(async (tx) => {
      await this.expect(tx, userId, id, expected)
      return store.renameWorkspace(tx, id, name)
    })
  }

  async delete(userId: number, id: number, expected?: number): Promise<void> {
    await this.assertMember(userId, id)
    await this.db.transaction(async (tx) => {
      await this.expect(tx, userId, id, expected)
      await store.deleteWorkspace(tx, id)
    })
  }
}
