import { ApiError, isRetryable } from '../api/client.ts'
import * as endpoints from '../api/endpoints.ts'
import type { BlockType } from '../domain/block.ts'
import type { ProjectTypeId } from '../domain/project.ts'
import {
  clearReferences,
  removeBackgroundContent,
  removeProjectContent,
  removeWorkspaceContent,
  rewriteFileUrl,
} from '../data/cascade.ts'
import { CURRENT_WORKSPACE } from '../data/commands.ts'
import type { MirrorDb } from '../data/db.ts'
import { isLocalId } from '../data/ids.ts'
import { newKey } from '../data/outbox.ts'
import {
  createsRecord,
  localDependencies,
  refsFrom,
  refsTo,
  remapEntry,
  remapRow,
} from '../data/refs.ts'
import {
  readAuthToken,
  readStoredAuth,
  readSyncMeta,
  redirectKey,
  writeSyncMeta,
} from '../data/sync-state.ts'
import {
  RECORD_KINDS,
  type MirrorTable,
  type OutboxEntry,
  type RecordKind,
  type ToggleKind,
} from '../data/types.ts'
import { backoffDelay } from './backoff.ts'
import { coalesce } from './coalesce.ts'
import { defaultLocks, withLock, type LockManagerLike } from './lock.ts'
import { pendingIds, reconcile } from './mirror.ts'
import {
  REPLAY_LOCK,
  type RefreshScope,
  type ReplayOptions,
  type ReplayOutcome,
  type StatusMessage,
} from './protocol.ts'

/**
 * The replay engine (docs/SYNC.md). No DOM: it takes the database and the API, so the same code
 * runs in the sync worker, in the service worker (Background Sync) and in Node tests.
 */

export type SyncApi = typeof endpoints

export interface SyncEngineOptions {
  db: MirrorDb
  api?: SyncApi
  /** Web Locks (default `navigator.locks` when present, else a lock inside this process). */
  locks?: LockManagerLike | null
  /** Where "replaying" is announced (a BroadcastChannel in browsers). */
  channel?: { postMessage(message: StatusMessage): void } | null
  now?: () => number
  random?: () => number
  /** false sends every entry as queued (benchmarks compare against it). Default true. */
  coalesce?: boolean
  /** Schedules the next attempt after a backoff (default setTimeout; tests may pass a no-op). */
  schedule?: (run: () => void, delayMs: number) => void
}

export interface SyncEngine {
  replay(options?: ReplayOptions): Promise<ReplayOutcome>
  refresh(scope: RefreshScope): Promise<void>
  retryEntry(seq: number): Promise<void>
  discardEntry(seq: number): Promise<void>
  flush(timeoutMs: number): Promise<boolean>
}

/** The payload fields the operations read (what each op holds: src/data/commands.ts). */
interface PayloadFields {
  name: string
  workspace_id: number
  source_id: number
  project_id: number
  file: number
  width: number
  height: number
}

const RECORD_SET = new Set<string>(RECORD_KINDS)
const isRecordKind = (table: string): table is RecordKind => RECORD_SET.has(table)
const MAX_PASSES = 20

/** A 2xx answer that had to be refused (bad body) or a file that vanished: park, never retry. */
class ParkError extends Error {
  constructor(readonly code: string) {
    super('')
  }
}

export function createSyncEngine(options: SyncEngineOptions): SyncEngine {
  const { db } = options
  const api = options.api ?? endpoints
  const locks = options.locks === undefined ? defaultLocks() : options.locks
  const now = options.now ?? Date.now
  const random = options.random ?? Math.random
  const schedule =
    options.schedule ??
    ((run: () => void, delay: number) => {
      setTimeout(run, delay)
    })
  let running: Promise<ReplayOutcome> | null = null
  let again = false
  let timerAt = 0

  const inAll = <T>(fn: () => Promise<T>) => db.transaction('rw', db.allTables(), async () => fn())
  const post = (message: StatusMessage) => {
    try {
      options.channel?.postMessage(message)
    } catch {
      // A closed channel only loses a status hint.
    }
  }
  const announce = (replaying: boolean) => post({ type: 'replaying', replaying })
  /** Upload progress of a waiting file, for the image shown meanwhile (at most ~10 messages/s). */
  const progressOf = (fileId: number) => {
    let last = 0
    return (loaded: number, total: number) => {
      const t = now()
      if (loaded < total && t - last < 100) return
      last = t
      post({ type: 'upload', fileId, loaded, total })
    }
  }

  function scheduleRetry(at: number) {
    if (timerAt !== 0 && timerAt <= at) return
    timerAt = at
    schedule(
      () => {
        timerAt = 0
        void replay()
      },
      Math.max(0, at - now()),
    )
  }

  // ---- step 3: coalescing, persisted before anything is sent ------------------------------------
  async function coalesceOutbox(): Promise<void> {
    await inAll(async () => {
      const entries = await db.outbox.orderBy('seq').toArray()
      const plan = coalesce(entries)
      if (plan.changed.length === 0 && plan.dropped.length === 0) return
      const dropped = new Set(plan.dropped)
      for (const entry of entries) {
        const file = entry.payload.file
        if (dropped.has(entry.seq!) && entry.table === 'backgrounds' && typeof file === 'number') {
          await db.files.delete(file)
        }
      }
      await db.outbox.bulkPut(plan.changed)
      await db.outbox.bulkDelete(plan.dropped)
    })
  }

  /** Queued edits of one record (the completion step of a background is not an edit of it). */
  async function editsOf(table: MirrorTable, id: number): Promise<number> {
    const entries = await db.outbox.where('[table+recordId]').equals([table, id]).toArray()
    return entries.filter((e) => e.op !== 'complete').length
  }

  // ---- step 6: applying the answer; id remapping -------------------------------------------
  /**
   * A specialist answered before a queued delete of its department or location replays still names
   * it; the server clears that reference when the delete arrives (ON DELETE SET NULL), and so did
   * the local delete: keep it cleared rather than bring it back.
   */
  async function withoutDeletedRefs(table: MirrorTable, row: { id: number }) {
    if (table !== 'specialist') return row
    let next = row as { id: number } & Record<string, unknown>
    for (const ref of refsFrom(table)) {
      if (ref.field === 'workspace_id') continue
      const value = next[ref.field]
      if (typeof value !== 'number') continue
      const deletes = await db.outbox
        .where('[table+recordId]')
        .equals([ref.target, value])
        .filter((e) => e.op === 'delete')
        .count()
      if (deletes > 0) next = { ...next, [ref.field]: null }
    }
    return next
  }

  /** The add of `table` local id `from` returned `row` (server id): re-key and rewrite references. */
  async function finishCreate(entry: OutboxEntry, table: MirrorTable, row: { id: number }) {
    const from = entry.recordId
    const to = row.id
    await inAll(async () => {
      await db.outbox.delete(entry.seq!)
      const t = db.mirror(table)
      const local = await t.get(from)
      const stillEdited = (await editsOf(table, from)) > 0
      // Later edits are queued: keep the local state (it is newer), only the id changes. A row
      // deleted locally meanwhile is not brought back (its delete, if any, follows remapped).
      if (local)
        await t.put(
          stillEdited ? { ...local, id: to } : ((await withoutDeletedRefs(table, row)) as never),
        )
      if (from !== to) await t.delete(from)
      for (const ref of refsTo(table)) {
        const rows = await db
          .mirror(ref.table)
          .filter((r) => r[ref.field] === from)
          .toArray()
        const moved = rows
          .map((r) => remapRow(ref.table, r, table, from, to))
          .filter((r) => r !== null)
        await db.mirror(ref.table).bulkPut(moved)
      }
      const entries = await db.outbox.toArray()
      const remapped = entries.map((e) => remapEntry(e, table, from, to)).filter((e) => e !== null)
      await db.outbox.bulkPut(remapped)
      if (table === 'workspaces') {
        const current = await db.meta.get(CURRENT_WORKSPACE)
        if (current?.value === from) await db.meta.put({ key: CURRENT_WORKSPACE, value: to })
      }
      if (from !== to) await db.meta.put({ key: redirectKey(table, from), value: to })
    })
  }

  /** An update/toggle came back: the server copy replaces the local one unless more edits wait. */
  async function finishUpdate(entry: OutboxEntry, table: MirrorTable, row: { id: number }) {
    await inAll(async () => {
      await db.outbox.delete(entry.seq!)
      const waiting = await editsOf(table, row.id)
      if (waiting === 0 && (await db.mirror(table).get(row.id)))
        await db.mirror(table).put((await withoutDeletedRefs(table, row)) as never)
    })
  }

  async function finishDelete(entry: OutboxEntry) {
    await db.outbox.delete(entry.seq!)
  }

  // ---- steps 4–5: one request per entry, in order, with its Idempotency-Key ---------------
  async function perform(entry: OutboxEntry): Promise<void> {
    const { table, op, payload, key } = entry
    const id = entry.recordId
    const p = payload as unknown as PayloadFields
    if (isRecordKind(table)) {
      if (op === 'create') {
        const { workspace_id, ...fields } = payload
        return finishCreate(
          entry,
          table,
          await api.addRecord(table, { workspace_id: workspace_id as number, ...fields }, key),
        )
      }
      if (op === 'update')
        return finishUpdate(entry, table, await api.updateRecord(table, id, payload, key))
      if (op === 'toggle') {
        const row = await api.setRecordEnabled(
          table as ToggleKind,
          id,
          payload.enabled !== false,
          key,
        )
        return finishUpdate(entry, table, row)
      }
      if (op === 'delete') return deleteTolerant(entry, () => api.deleteRecord(table, id, key))
    }
    if (table === 'workspaces') {
      if (op === 'create') return finishCreate(entry, table, await api.addWorkspace(p.name, key))
      if (op === 'update')
        return finishUpdate(entry, table, await api.updateWorkspace(id, p.name, key))
      if (op === 'delete') return deleteTolerant(entry, () => api.deleteWorkspace(id, key))
    }
    if (table === 'projects') {
      if (op === 'create') {
        let project = await api.addProject(p.workspace_id, p.name, key)
        // add knows only the name: a type chosen before the add replayed (merged into the create
        // by coalescing) follows as set_type, under a key derived from the entry's.
        if (typeof payload.type === 'number') {
          project = await api.setProjectType(
            project.id,
            payload.type as ProjectTypeId,
            `${key}:type`,
          )
        }
        return finishCreate(entry, table, project)
      }
      if (op === 'copy') {
        const copy = await api.copyProject(p.source_id, key)
        await finishCreate(entry, table, copy)
        return refreshProject(copy.id).catch(() => undefined)
      }
      if (op === 'update') {
        // Two calls for one entry: each gets its own key derived from the entry's key.
        let row = null
        if (typeof payload.name === 'string')
          row = await api.renameProject(id, payload.name, `${key}:rename`)
        if (payload.type !== undefined && payload.type !== null) {
          row = await api.setProjectType(id, payload.type as ProjectTypeId, `${key}:type`)
        }
        if (row) return finishUpdate(entry, table, row)
        return finishDelete(entry)
      }
      if (op === 'delete') return deleteTolerant(entry, () => api.deleteProject(id, key))
    }
    if (table === 'backgrounds') {
      if (op === 'create') {
        const file = await db.files.get(p.file)
        if (!file?.blob) throw new ParkError('file_missing')
        const bg = await api.addBackground(
          p.project_id,
          file.blob,
          { width: p.width, height: p.height },
          key,
          progressOf(file.id),
        )
        await finishCreate(entry, table, bg)
        await db.files.update(file.id, { uploadedUrl: bg.image_url, blob: null })
        return
      }
      if (op === 'delete') return deleteTolerant(entry, () => api.deleteBackground(id, key))
      // step 4 (end of the chain): the completion step reloads the stage's items and reconciles.
      if (op === 'complete') {
        const items = await api.getItems(id)
        await inAll(async () => {
          await db.outbox.delete(entry.seq!)
          // Deleted locally since (it waits only to be deleted on the server): nothing to show.
          if (!(await db.backgrounds.get(id))) return
          await reconcile(db, 'blocks', (t) => t.where('bg_id').equals(id).toArray(), items)
        })
        return
      }
    }
    if (table === 'blocks') {
      // step 4: the block-save chain, one block after another in edit order.
      if (op === 'save') {
        // A local block is created (no id); a saved one is updated by its id.
        const { id: _ignored, ...fields } = payload as { id?: number }
        const body = isLocalId(id) ? fields : { ...fields, id }
        const saved = await api.saveBlock(body as never, key)
        return isLocalId(id) ? finishCreate(entry, table, saved) : finishUpdate(entry, table, saved)
      }
      if (op === 'delete') {
        return deleteTolerant(entry, () => api.deleteBlock(payload.type as BlockType, id, key))
      }
    }
    if (table === 'files' && op === 'upload') {
      const file = await db.files.get(id)
      if (!file?.blob) {
        if (file?.uploadedUrl) return finishDelete(entry)
        throw new ParkError('file_missing')
      }
      const { url } = await api.uploadImage(file.blob, key, progressOf(id))
      await inAll(async () => {
        await db.outbox.delete(entry.seq!)
        await rewriteFileUrl(db, id, url)
        await db.files.update(id, { uploadedUrl: url, blob: null })
      })
      return
    }
    throw new ParkError('unknown_operation')
  }

  /** A delete the server answers 404 to has nothing left to delete: done. */
  async function deleteTolerant(entry: OutboxEntry, call: () => Promise<unknown>) {
    try {
      await call()
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error
    }
    await finishDelete(entry)
  }

  // ---- steps 2–8: one pass over the outbox ------------------------------------------------------
  async function pass(): Promise<ReplayOutcome> {
    // step 2: paused after a 401 until a new token arrives; nothing to do while signed out.
    const meta = await readSyncMeta(db)
    if (meta.needsSignIn) return 'signin'
    if (!(await readAuthToken(db, now()))) {
      // A token that expired while changes wait is the same as a 401: ask to sign in again.
      const stored = await readStoredAuth(db)
      if (!stored?.token) return 'signedout'
      await writeSyncMeta({ needsSignIn: true }, db)
      return 'signin'
    }
    if (options.coalesce !== false) await coalesceOutbox()
    const queue = await db.outbox.orderBy('seq').toArray()
    // Records whose create was rejected: everything else about them waits for retry or discard.
    const blocked = new Set(
      queue
        .filter((e) => e.state === 'parked' && createsRecord(e))
        .map((e) => `${e.table}:${e.recordId}`),
    )
    for (const queued of queue) {
      const entry = await db.outbox.get(queued.seq!)
      if (!entry || entry.state !== 'pending') continue
      if (blocked.has(`${entry.table}:${entry.recordId}`)) continue
      if (localDependencies(entry).length > 0) continue
      if (entry.nextAttemptAt > now()) {
        scheduleRetry(entry.nextAttemptAt)
        return 'backoff'
      }
      // step 5: from its first try on, the entry is frozen (never coalesced again), so every retry
      // sends the same request under the same Idempotency-Key.
      if (!entry.sent) await db.outbox.update(entry.seq!, { sent: true })
      try {
        await perform(entry)
      } catch (error) {
        // step 7: 401 pauses; network/5xx/429 back off and end the pass (order is kept); any other
        // refusal parks the entry with the server's message and the pass goes on.
        if (error instanceof ApiError && error.status === 401) {
          await writeSyncMeta({ needsSignIn: true }, db)
          return 'signin'
        }
        if (isRetryable(error)) {
          const attempts = entry.attempts + 1
          const at = now() + backoffDelay(attempts, random)
          await db.outbox.update(entry.seq!, { attempts, nextAttemptAt: at })
          scheduleRetry(at)
          return 'backoff'
        }
        await park(entry, error)
        if (createsRecord(entry)) blocked.add(`${entry.table}:${entry.recordId}`)
      }
    }
    return 'idle'
  }

  async function park(entry: OutboxEntry, error: unknown) {
    const message = error instanceof ApiError ? parkMessage(error) : ''
    const code =
      error instanceof ApiError
        ? error.code
        : error instanceof ParkError
          ? error.code
          : 'unexpected'
    const fields = error instanceof ApiError ? error.fields : undefined
    await db.outbox.update(entry.seq!, { state: 'parked', message, code, fields })
  }

  async function replay(options: ReplayOptions = {}): Promise<ReplayOutcome> {
    if (options.resetBackoff) {
      // The network is back: retries waiting out their backoff are due now (attempts are kept).
      await db.outbox
        .where('state')
        .equals('pending')
        .modify((entry) => {
          entry.nextAttemptAt = 0
        })
    }
    if (running) {
      again = true
      return running
    }
    running = (async () => {
      // step 1: one replayer across tabs, the worker and the service worker.
      const outcome = await withLock(locks, REPLAY_LOCK, true, async () => {
        announce(true)
        try {
          let result: ReplayOutcome = 'idle'
          // step 8: passes until no new entry arrived meanwhile; then "last synced" is now.
          for (let i = 0; i < MAX_PASSES; i += 1) {
            again = false
            const before = await lastSeq()
            result = await pass()
            if (result !== 'idle') break
            if (!again && (await lastSeq()) === before) break
          }
          if (result === 'idle') await writeSyncMeta({ lastSyncedAt: now() }, db)
          return result
        } finally {
          announce(false)
        }
      })
      return outcome ?? 'busy'
    })()
    try {
      return await running
    } finally {
      running = null
    }
  }

  async function lastSeq(): Promise<number> {
    const last = await db.outbox.orderBy('seq').last()
    return last?.seq ?? 0
  }

  // ---- refresh (pull) ---------------------------------------------------------------------------
  async function refreshProject(projectId: number): Promise<void> {
    if (isLocalId(projectId)) return
    let project
    try {
      project = await api.getProject(projectId)
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        await inAll(async () => {
          const pending = await pendingIds(db, 'projects')
          if (pending.has(projectId)) return
          await removeProjectContent(db, [projectId])
          await db.projects.delete(projectId)
        })
        return
      }
      throw error
    }
    const { backgrounds, ...row } = project
    const items = await Promise.all(backgrounds.map((bg) => api.getItems(bg.id)))
    await inAll(async () => {
      if (!(await pendingIds(db, 'projects')).has(row.id)) await db.projects.put(row)
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
    })
  }

  async function refreshUnlocked(scope: RefreshScope): Promise<void> {
    if (scope.kind === 'workspaces') {
      const list = await api.listWorkspaces()
      await inAll(async () => {
        const gone = await reconcile(db, 'workspaces', (t) => t.toArray(), list)
        for (const id of gone) await removeWorkspaceContent(db, id)
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
      await inAll(async () => {
        const gone = await reconcile(
          db,
          'projects',
          (t) => t.where('workspace_id').equals(workspaceId).toArray(),
          list,
        )
        await removeProjectContent(db, gone)
      })
      return
    }
    const kind = scope.kind
    const list = await api.listRecords(kind, workspaceId)
    await inAll(async () => {
      const gone = await reconcile(
        db,
        kind,
        (t) => t.where('workspace_id').equals(workspaceId).toArray(),
        list,
      )
      await clearReferences(db, kind, gone)
    })
  }

  async function refresh(scope: RefreshScope): Promise<void> {
    // Under the replay lock: a list fetched while an add is in flight must not delete its result.
    await withLock(locks, REPLAY_LOCK, false, async () => {
      try {
        await refreshUnlocked(scope)
      } catch (error) {
        if (error instanceof ApiError && error.status === 401)
          await writeSyncMeta({ needsSignIn: true }, db)
        throw error
      }
    })
  }

  // ---- parked entries: retry and discard ---------------------------------------------------------
  async function retryEntry(seq: number): Promise<void> {
    // A new key: the server stored its rejection under the old one and would answer it again.
    await db.outbox.update(seq, {
      state: 'pending',
      attempts: 0,
      nextAttemptAt: 0,
      sent: false,
      key: newKey(),
      message: undefined,
      code: undefined,
      fields: undefined,
    })
  }

  async function discardEntry(seq: number): Promise<void> {
    const entry = await db.outbox.get(seq)
    if (!entry) return
    let restore: (() => Promise<void>) | null = null
    await inAll(async () => {
      await db.outbox.delete(seq)
      const { table, recordId } = entry
      if (table === 'files') {
        await rewriteFileUrl(db, recordId, '')
        await db.files.delete(recordId)
        return
      }
      if (createsRecord(entry) && isLocalId(recordId)) {
        // The record never reached the server: it goes, with whatever hangs on it.
        await dropRecordLocally(table, recordId)
        return
      }
      const left = await editsOf(table, recordId)
      if (left === 0) restore = () => restoreServerCopy(entry)
    })
    const run = restore as (() => Promise<void>) | null
    if (run) await run().catch(() => undefined)
  }

  async function dropRecordLocally(table: MirrorTable, id: number) {
    const others = await db.outbox.where('[table+recordId]').equals([table, id]).primaryKeys()
    await db.outbox.bulkDelete(others)
    if (table === 'workspaces') await removeWorkspaceContent(db, id)
    if (table === 'projects') await removeProjectContent(db, [id])
    if (table === 'backgrounds') {
      const bg = await db.backgrounds.get(id)
      await removeBackgroundContent(db, [id])
      const file = bg ? /^local-file:(\d+)$/.exec(bg.image_url) : null
      if (file) await db.files.delete(Number(file[1]))
    }
    if (isRecordKind(table)) await clearReferences(db, table, [id])
    await db.mirror(table).delete(id)
  }

  /** Puts the server's copy of the record back (or removes it locally when the server has none). */
  async function restoreServerCopy(entry: OutboxEntry): Promise<void> {
    const table = entry.table as MirrorTable
    const id = entry.recordId
    const put = async (row: { id: number } | null) => {
      await inAll(async () => {
        if ((await editsOf(table, id)) > 0) return
        if (row) await db.mirror(table).put(row as never)
        else await db.mirror(table).delete(id)
      })
    }
    const notFound = (error: unknown) => error instanceof ApiError && error.status === 404
    try {
      if (isRecordKind(table)) return await put(await api.getRecord(table, id))
      if (table === 'workspaces') {
        return await put((await api.listWorkspaces()).find((w) => w.id === id) ?? null)
      }
      if (table === 'projects') return await refreshProject(id)
      if (table === 'backgrounds') {
        const projectId = entry.payload.project_id
        if (typeof projectId === 'number') await refreshProject(projectId)
        return
      }
      if (table === 'blocks') {
        const bgId = entry.payload.bg_id
        if (typeof bgId !== 'number') return
        const items = await api.getItems(bgId)
        return await put(items.find((b) => b.id === id) ?? null)
      }
    } catch (error) {
      if (notFound(error)) await put(null)
      else throw error
    }
  }

  async function flush(timeoutMs: number): Promise<boolean> {
    const deadline = now() + timeoutMs
    while (now() < deadline) {
      const outcome = await replay()
      const pending = await db.outbox.where('state').equals('pending').count()
      if (pending === 0) return true
      if (outcome === 'signin' || outcome === 'signedout') return false
      if (outcome === 'idle') return false // only entries that wait on a rejected one are left
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    return (await db.outbox.where('state').equals('pending').count()) === 0
  }

  return { replay, refresh, retryEntry, discardEntry, flush }
}

/** The server's Russian message, with the field messages of a validation error. */
export function parkMessage(error: ApiError): string {
  const fields = Object.values(error.fields)
  if (fields.length === 0) return error.message
  return `${error.message}: ${fields.join('; ')}`
}
