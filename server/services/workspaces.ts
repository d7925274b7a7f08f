import type { Database } from '../db/database.ts'
import type { Workspace } from '../../src/domain/workspace.ts'
import * as store from '../storage/workspaces.ts'
import { AppError } from './errors.ts'

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

  async rename(userId: number, id: number, name: string): Promise<Workspace> {
    await this.assertMember(userId, id)
    return store.renameWorkspace(this.db, id, name)
  }

  async delete(userId: number, id: number): Promise<void> {
    await this.assertMember(userId, id)
    await store.deleteWorkspace(this.db, id)
  }
}
