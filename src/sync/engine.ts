import { ApiError, isRetryable } from '../api/client.ts'
import * as endpoints from '../api/endpoints.ts'
import type { MirrorDb } from '../data/db.ts'
import type { SendEntry } from '../data/entries.ts'
import { localBlockKeys, resolveEntry } from '../data/keyed.ts'
import { createsRecord } from '../data/refs.ts'
import { readAuthToken, readStoredAuth, readSyncMeta, writeSyncMeta } from '../data/sync-state.ts'
import { backoffDelay } from './backoff.ts'
import { coalesce } from './coalesce.ts'
import { settleConflict, settles } from './conflicts.ts'
import { defaultLocks, withLock, type LockManagerLike } from './lock.ts'
import { inAll } from './mutators/apply.ts'
import { versionOf } from './mutators/local.ts'
import { ParkError, type SendContext, type SyncApi } from './mutators/context.ts'
import { loadMutators } from './mutators/load.ts'
import { createParked } from './parked.ts'
import { dropWorkspace } from '../data/cascade.ts'
import { createPull } from './pull.ts'
import { MIRROR_TABLE_OF } from '../data/types.ts'
import {
  REPLAY_LOCK,
  type KnownChange,
  type RefreshScope,
  type ReplayOptions,
  type ReplayOutcome,
  type StatusMessage,
} from './protocol.ts'

/**
 * The replay engine (docs/SYNC.md): a generic loop over the outbox. What each entry asks of the
 * server, and how its answer lands in the mirror, is its entity's mutator (src/sync/mutators/);
 * pulling scopes is src/sync/pull.ts, parked entries src/sync/parked.ts. No DOM: it takes the
 * database and the API, so the same code runs in the sync worker, in the service worker
 * (Background Sync) and in Node tests.
 */

export type { SyncApi }

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
  /** How many visitors' requests one window of their list asks for (default 500). */
  appealWindow?: number
}

export interface SyncEngine {
  replay(options?: ReplayOptions): Promise<ReplayOutcome>
  refresh(scope: RefreshScope): Promise<void>
  knows(changes: readonly KnownChange[]): Promise<boolean[]>
  retryEntry(seq: number): Promise<void>
  discardEntry(seq: number): Promise<void>
  forgetWorkspace(workspaceId: number, reason: 'removed' | 'left' | 'gone'): Promise<void>
  dismissWorkspaceLoss(): Promise<void>
  flush(timeoutMs: number): Promise<boolean>
}

const MAX_PASSES = 20

const MAX_RESENDS = 10

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
  const pull = createPull(db, api, { appealWindow: options.appealWindow })
  const parked = createParked(db, api, pull)
  let running: Promise<ReplayOutcome> | null = null
  let again = false
  let timerAt = 0

  const post = (message: StatusMessage) => {
    try {
      options.channel?.postMessage(message)
    } catch {
      // A closed channel only loses a status hint.
    }
  }
  const announce = (replaying: boolean) => post({ type: 'replaying', replaying })
  const context: SendContext = {
    db,
    api,
    refreshProject: (id) => pull.refreshProject(id),
    /** Upload progress of a waiting file, for the image shown meanwhile (at most ~10 messages/s). */
    progressOf(fileId) {
      let last = 0
      return (loaded, total) => {
        const t = now()
        if (loaded < total && t - last < 100) return
        last = t
        post({ type: 'upload', fileId, loaded, total })
      }
    },
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
    await inAll(db, async () => {
      const entries = await db.outbox.orderBy('seq').toArray()
      // A save of a block still under a local id creates it (entries name blocks by key).
      const plan = coalesce(entries, await localBlockKeys(db, entries))
      if (plan.changed.length === 0 && plan.dropped.length === 0) return
      const dropped = new Set(plan.dropped)
      for (const entry of entries) {
        // A background that never reached the server takes its waiting file along.
        if (dropped.has(entry.seq!) && entry.table === 'backgrounds' && entry.op === 'create') {
          await db.files.delete(entry.payload.file)
        }
      }
      await db.outbox.bulkPut(plan.changed)
      await db.outbox.bulkDelete(plan.dropped)
    })
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
    const blocked = new Set<string>()
    for (const e of queue) {
      if (e.state !== 'parked') continue
      if (createsRecord((await resolveEntry(db, e)).entry)) blocked.add(`${e.table}:${e.ck}`)
    }
    // Entries held back in this pass (parked, or waiting on a create that was refused). A copy of a
    // project reads the project on the server as it is when the copy runs: while an edit of the
    // project queued before the copy is held, the copy waits, and so does every later edit of the
    // project (or the copy would take it along). A publish reads it the same way (docs/SYNC.md
    // "Publishing"): it waits while an earlier change of the project is held (a refused publish or
    // unpublish is no change of it), and the project's later changes wait behind it.
    const held: SendEntry[] = []
    const heldProjects = new Set<number>()
    // A change settled after a conflict goes again at once, a few times at most per pass (a row
    // someone keeps changing waits for the next pass).
    let resends = 0
    for (let i = 0; i < queue.length; i += 1) {
      const queued = queue[i]!
      const stored = await db.outbox.get(queued.seq!)
      if (!stored) continue
      // The ids the entry's keys name now (docs/SYNC.md "Ids"): a record created earlier in this
      // pass, or in an earlier one, is found under its server id.
      const { entry, waits: onLocal } = await resolveEntry(db, stored)
      const waits =
        entry.state !== 'pending' ||
        blocked.has(`${entry.table}:${entry.ck}`) ||
        onLocal ||
        (heldProjects.size > 0 && heldProjects.has((await projectOf(entry)) ?? 0)) ||
        (entry.table === 'projects' &&
          entry.op === 'copy' &&
          (await isAbout(held, entry.payload.source_id))) ||
        (entry.table === 'projects' &&
          entry.op === 'publish' &&
          (await isAbout(held.filter(changesContent), entry.recordId)))
      if (waits) {
        held.push(entry)
        if (entry.table === 'projects' && entry.op === 'copy')
          heldProjects.add(entry.payload.source_id)
        if (entry.table === 'projects' && entry.op === 'publish' && entry.state === 'pending')
          heldProjects.add(entry.recordId)
        continue
      }
      if (entry.nextAttemptAt > now()) {
        scheduleRetry(entry.nextAttemptAt)
        return 'backoff'
      }
      // step 5: from its first try on, the entry is frozen (never coalesced again), so every retry
      // sends the same request under the same Idempotency-Key.
      if (!entry.sent) await db.outbox.update(entry.seq!, { sent: true })
      try {
        // steps 4–6: the entry's mutator sends it and applies the answer.
        await (await loadMutators()).send(entry, context)
      } catch (error) {
        // step 7: 401 pauses; network/5xx/429 back off and end the pass (order is kept); any other
        // refusal parks the entry with the server's message and the pass goes on.
        // A write refused because the row changed on the server meanwhile: merge or park.
        if (error instanceof ApiError && error.current && error.status === 409 && settles(entry)) {
          const settled = await settleConflict(db, entry.seq!, error.current, error.message)
          if (settled === 'resend' && resends < MAX_RESENDS) {
            resends += 1
            i -= 1
          } else if (settled === 'resend') scheduleRetry(now() + backoffDelay(1, random))
          continue
        }
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
        // Held from now on in this pass too: a copy or a publish of its project queued after it
        // waits for it.
        held.push(entry)
        if (createsRecord(entry)) blocked.add(`${entry.table}:${entry.ck}`)
      }
    }
    return 'idle'
  }

  /** The project an entry edits (a block through its background), or null. */
  async function projectOf(entry: SendEntry): Promise<number | null> {
    const projectOfBackground = async (id: number) =>
      (await db.backgrounds.get(id))?.project_id ?? null
    switch (entry.table) {
      case 'projects':
        return entry.recordId
      case 'backgrounds':
        if (entry.op !== 'complete' && entry.payload.project_id !== undefined)
          return entry.payload.project_id
        return projectOfBackground(entry.recordId)
      case 'blocks':
        return projectOfBackground(entry.payload.bg_id)
      default:
        return null
    }
  }

  /** Whether a held entry is a change of what a publish shows (a refused publish is not). */
  function changesContent(entry: SendEntry): boolean {
    return !(entry.table === 'projects' && (entry.op === 'publish' || entry.op === 'unpublish'))
  }

  async function isAbout(entries: readonly SendEntry[], projectId: number): Promise<boolean> {
    for (const entry of entries) if ((await projectOf(entry)) === projectId) return true
    return false
  }

  async function park(entry: { seq?: number }, error: unknown) {
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

  async function refresh(scope: RefreshScope): Promise<void> {
    const run = async () => {
      try {
        await pull.refresh(scope)
      } catch (error) {
        if (error instanceof ApiError && error.status === 401)
          await writeSyncMeta({ needsSignIn: true }, db)
        throw error
      }
    }
    // The project types are the server's own list, which nothing queued here changes: they need
    // no lock, and go out beside the workspaces instead of after them (a cold first screen's
    // lists wait one answer fewer, docs/performance.md).
    if (scope.kind === 'projectTypes') return run()
    // Under the replay lock: a list fetched while an add is in flight must not delete its result.
    await withLock(locks, REPLAY_LOCK, false, run)
  }

  async function forgetWorkspace(
    workspaceId: number,
    reason: 'removed' | 'left' | 'gone',
  ): Promise<void> {
    // Under the replay lock: an entry of it being sent settles first (a 404 parks it, and it
    // goes with the rest).
    await withLock(locks, REPLAY_LOCK, false, async () => {
      const lost = await inAll(db, () => dropWorkspace(db, workspaceId))
      if (lost) {
        // Leaving is the person's own doing, and a deletion was announced as a change: said only
        // when it cost queued changes.
        if (reason !== 'removed' && lost.discarded.length === 0) return
        await writeSyncMeta({ workspaceLoss: { workspaceId, ...lost, reason, at: now() } }, db)
        return
      }
      // Already dropped by a refresh of the list, which could not tell why: now it is known.
      const { workspaceLoss } = await readSyncMeta(db)
      if (
        reason === 'removed' &&
        workspaceLoss?.workspaceId === workspaceId &&
        workspaceLoss.reason === 'gone'
      )
        await writeSyncMeta({ workspaceLoss: { ...workspaceLoss, reason } }, db)
    })
  }

  async function knows(changes: readonly KnownChange[]): Promise<boolean[]> {
    const tables = [...new Set(changes.map((change) => MIRROR_TABLE_OF[change.table]))]
    // One read of each table the burst names, by its ids (10,000 changes of a list: one bulkGet).
    const rows = await db.transaction(
      'r',
      tables.map((table) => db.mirror(table)),
      async () => {
        const found = new Map<string, Map<number, unknown>>()
        for (const table of tables) {
          const ids = [
            ...new Set(changes.filter((c) => MIRROR_TABLE_OF[c.table] === table).map((c) => c.id)),
          ]
          const got = await db.mirror(table).bulkGet(ids)
          found.set(table, new Map(ids.map((id, i) => [id, got[i]])))
        }
        return found
      },
    )
    return changes.map((change) => {
      const row = rows.get(MIRROR_TABLE_OF[change.table])?.get(change.id)
      if (change.op === 'delete') return row === undefined
      const version = versionOf(row as object | undefined)
      return version !== undefined && version >= change.version
    })
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

  return {
    replay,
    refresh,
    knows,
    retryEntry: parked.retryEntry,
    discardEntry: parked.discardEntry,
    forgetWorkspace,
    dismissWorkspaceLoss: () => writeSyncMeta({ workspaceLoss: null }, db),
    flush,
  }
}

/** The server's Russian message, with the field messages of a validation error. */
export function parkMessage(error: ApiError): string {
  // A field message the server's message already says is not said twice.
  const fields = Object.values(error.fields).filter((text) => text !== error.message)
  if (fields.length === 0) return error.message
  return `${error.message}: ${fields.join('; ')}`
}
