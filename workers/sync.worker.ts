/// <reference lib="webworker" />
import { expose } from 'comlink'
import { configureApi } from '../src/api/client.ts'
import { getDb } from '../src/data/db.ts'
import { createMirrorService, type MirrorService } from '../src/sync/service.ts'
import { readAuthToken } from '../src/data/sync-state.ts'
import { createSyncEngine } from '../src/sync/engine.ts'
import { STATUS_CHANNEL, type SyncWorkerApi } from '../src/sync/protocol.ts'

/**
 * The sync worker: holds the page's database (the mirror's live queries and commands,
 * src/sync/service.ts), replays the outbox and refreshes the mirror off the main thread. The page
 * mirrors its token into `meta` (src/sync/client.ts setSyncToken); the worker reads it there.
 */
const db = getDb()
const channel =
  typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(STATUS_CHANNEL)
configureApi({
  getToken: () => readAuthToken(db),
  // The page's sync status says «Нет сети» while the replays and refreshes get no answer.
  onAnswer: (answered) => channel?.postMessage({ type: 'answer', answered }),
})

const engine = createSyncEngine({ db, channel })

const api = {
  ...createMirrorService(),
  replay: (options) => engine.replay(options),
  refresh: (scope) => engine.refresh(scope),
  knows: (changes) => engine.knows(changes),
  retryEntry: (seq) => engine.retryEntry(seq),
  discardEntry: (seq) => engine.discardEntry(seq),
  forgetWorkspace: (id, reason) => engine.forgetWorkspace(id, reason),
  dismissWorkspaceLoss: () => engine.dismissWorkspaceLoss(),
  flush: (timeoutMs: number) => engine.flush(timeoutMs),
} satisfies SyncWorkerApi & MirrorService

expose(api)
