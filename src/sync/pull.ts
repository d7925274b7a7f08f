import { ApiError } from '../api/client.ts'
import { APPEAL_WINDOW } from '../api/appeals.ts'
import type { Appeal } from '../domain/appeal.ts'
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
import type { AppealRow } from '../data/types.ts'
import { isLocalId } from '../data/ids.ts'
import { hasEntries, pendingKeys, reconcile } from './mirror.ts'
import { inAll } from './mutators/apply.ts'
import type { SyncApi } from './mutators/context.ts'
import { keepPagesChanged } from './mutators/page-changed.ts'
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

/**
 * Writes server copies of requests. One with a status change waiting to be sent keeps its status
 * and version (the change is newer) and takes the rest: its deliveries move on meanwhile. Call
 * inside a transaction over every table.
 */
export async function putAppeals(
  db: MirrorDb,
  rows: readonly Appeal[],
  known: readonly AppealRow[] = [],
): Promise<void> {
  if (rows.length === 0) return
  const pending = await pendingKeys(db, 'appeal')
  // Every row comes back with its key (data/client-keys.ts).
  const keyed = (await withClientKeys(db, 'appeal', rows, known)) as (Appeal & { ck: string })[]
  const edited = keyed.filter((row) => pending.has(row.ck))
  const locals = new Map(
    (await db.appeal.bulkGet(edited.map((row) => row.id))).map((row) => [row?.id, row]),
  )
  await db.appeal.bulkPut(
    keyed.map((row) => {
      const local = pending.has(row.ck) ? locals.get(row.id) : undefined
      return local ? { ...row, status: local.status, version: local.version } : row
    }),
  )
}

export interface PullOptions {
  /** How many requests one window of `appeal/list` asks for (tests make it small). */
  appealWindow?: number
}

export function createPull(db: MirrorDb, api: SyncApi, options: PullOptions = {}): Pull {
  const appealWindow = options.appealWindow ?? APPEAL_WINDOW
  /** Every window of the workspace's requests, newest first, then one transaction. */
  async function refreshAppeals(workspaceId: number): Promise<void> {
    const all: Appeal[] = []
    let before: number | undefined
    for (;;) {
      const window = await api.listAppeals(workspaceId, {
        limit: appealWindow,
        ...(before === undefined ? {} : { before }),
      })
      all.push(...window)
      const last = window[window.length - 1]
      if (window.length < appealWindow || !last) break
      before = last.id
    }
    await inAll(db, async () => {
      const local = await db.appeal.where('workspace_id').equals(workspaceId).toArray()
      const pending = await pendingKeys(db, 'appeal')
      const onServer = new Set(all.map((row) => row.id))
      const gone = local.filter(
        (row) => !onServer.has(row.id) && !pending.has(row.ck ?? String(row.id)),
      )
      await db.appeal.bulkDelete(gone.map((row) => row.id))
      await putAppeals(db, all, local)
    })
  }

  /** One request as the server has it now; gone there (deleted), gone here. */
  async function refreshAppeal(id: number): Promise<void> {
    let row: Appeal | null
    try {
      row = await api.getAppeal(id)
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error
      row = null
    }
    await inAll(db, async () => {
      if (row) await putAppeals(db, [row])
      else if (!(await hasEntries(db, 'appeal', id))) await db.appeal.delete(id)
    })
  }

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
    if (scope.kind === 'appeals') return refreshAppeals(workspaceId)
    if (scope.kind === 'appeal') return refreshAppeal(scope.id)
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
