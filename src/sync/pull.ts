import { ApiError } from '../api/client.ts'
import {
  clearReferences,
  discardedOf,
  removeBackgroundContent,
  removeProjectContent,
  removeWorkspaceContent,
} from '../data/cascade.ts'
import { withClientKeys } from '../data/client-keys.ts'
import { writeSyncMeta } from '../data/sync-state.ts'
import type { MirrorDb } from '../data/db.ts'
import { isLocalId } from '../data/ids.ts'
import { hasEntries, reconcile } from './mirror.ts'
import { inAll } from './mutators/apply.ts'
import type { SyncApi } from './mutators/context.ts'
import { keepPagesChanged } from './mutators/publishing.ts'
import type { RefreshScope } from './protocol.ts'

/**
 * Refresh (pull), docs/SYNC.md: a scope fetched from the server and written in one bulk
 * transaction. A record with an outbox entry is never overwritten or deleted by the server copy.
 * The engine runs these under the replay lock.
 */
export interface Pull {
  refresh(scope: RefreshScope): Promise<void>
  refreshProject(projectId: number): Promise<void>
}

export function createPull(db: MirrorDb, api: SyncApi): Pull {
  async function refreshProject(projectId: number): Promise<void> {
    if (isLocalId(projectId)) return
    let project
    try {
      project = await api.getProject(projectId)
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        await inAll(db, async () => {
          if (await hasEntries(db, 'projects', projectId)) return
          await removeProjectContent(db, [projectId])
          await db.projects.delete(projectId)
        })
        return
      }
      throw error
    }
    const { backgrounds, ...row } = project
    const items = await Promise.all(backgrounds.map((bg) => api.getItems(bg.id)))
    await inAll(db, async () => {
      if (!(await hasEntries(db, 'projects', row.id)))
        await db.mirror('projects').bulkPut(await withClientKeys(db, 'projects', [row]))
      const gone = await reconcile(
        db,
        'backgrounds',
        (t) => t.where('project_id').equals(projectId).toArray(),
        backgrounds,
      )
      await removeBackgroundContent(db, gone)
      for (const [index, bg] of backgrounds.entries()) {
        await reconcile(
          db,
          'blocks',
          (t) => t.where('bg_id').equals(bg.id).toArray(),
          items[index]!,
        )
      }
      await keepPagesChanged(db)
    })
  }

  async function refresh(scope: RefreshScope): Promise<void> {
    if (scope.kind === 'workspaces') {
      const list = await api.listWorkspaces()
      await inAll(db, async () => {
        const before = await db.workspaces.toArray()
        const queued = await db.outbox.filter((entry) => !entry.sent).toArray()
        const gone = await reconcile(db, 'workspaces', (t) => t.toArray(), list)
        for (const id of gone) await removeWorkspaceContent(db, id)
        // Changes that were queued for a workspace no longer theirs are said, never silently lost.
        const discarded = discardedOf(queued, new Set(await db.outbox.toCollection().primaryKeys()))
        const lost = before.find((w) => gone.includes(w.id))
        if (lost && discarded.length > 0)
          await writeSyncMeta(
            {
              workspaceLoss: {
                workspaceId: lost.id,
                name: lost.name,
                reason: 'gone',
                discarded,
                at: Date.now(),
              },
            },
            db,
          )
      })
      return
    }
    if (scope.kind === 'projectTypes') {
      const types = await api.listProjectTypes()
      await db.transaction('rw', db.projectTypes, async () => {
        await db.projectTypes.clear()
        await db.projectTypes.bulkPut(types)
      })
      return
    }
    if (scope.kind === 'project') return refreshProject(scope.projectId)
    const { workspaceId } = scope
    if (isLocalId(workspaceId)) return
    if (scope.kind === 'projects') {
      const list = await api.listProjects(workspaceId)
      await inAll(db, async () => {
        const gone = await reconcile(
          db,
          'projects',
          (t) => t.where('workspace_id').equals(workspaceId).toArray(),
          list,
        )
        await removeProjectContent(db, gone)
        await keepPagesChanged(db)
      })
      return
    }
    const kind = scope.kind
    const list = await api.listRecords(kind, workspaceId)
    await inAll(db, async () => {
      const gone = await reconcile(
        db,
        kind,
        (t) => t.where('workspace_id').equals(workspaceId).toArray(),
        list,
      )
      await clearReferences(db, kind, gone)
    })
  }

  return { refresh, refreshProject }
}
