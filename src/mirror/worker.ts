import { wrap, type Remote } from 'comlink'
import type { MirrorService } from '../sync/service.ts'
import type { SyncWorkerApi } from '../sync/protocol.ts'

/** The page's sync worker: it holds the database, replays the outbox and answers the mirror. */
export type PageWorker = Remote<SyncWorkerApi & MirrorService>

let worker: PageWorker | null | undefined
let failed = false
const failureListeners = new Set<() => void>()

/** Spawns the worker on first use; null without module workers (or when it failed to start). */
export function pageWorker(): PageWorker | null {
  if (worker !== undefined) return worker
  worker = null
  if (typeof Worker === 'undefined') return null
  try {
    const native = new Worker(new URL('../../workers/sync.worker.ts', import.meta.url), {
      type: 'module',
    })
    // A worker whose script cannot load (or throws while starting) never answers: say so, so
    // the page can do the work itself instead of waiting forever. Once it has answered, an
    // uncaught error in it is only logged: it keeps serving.
    let answered = false
    native.addEventListener('message', () => (answered = true), { once: true })
    native.addEventListener('error', (event) => {
      console.error('sync worker error', event.message)
      if (failed || answered) return
      failed = true
      worker = null
      native.terminate()
      for (const listener of failureListeners) listener()
    })
    worker = wrap<SyncWorkerApi & MirrorService>(native)
  } catch (error) {
    console.error(error)
    worker = null
  }
  return worker
}

/** Called once if the worker fails after it was spawned. */
export function onPageWorkerFailure(listener: () => void): () => void {
  failureListeners.add(listener)
  return () => failureListeners.delete(listener)
}
