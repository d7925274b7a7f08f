/// <reference lib="webworker" />
import { configureApi } from '../src/api/client.ts'
import { getDb } from '../src/data/db.ts'
import { readAuthToken } from '../src/data/sync-state.ts'
import { createSyncEngine, type SyncEngine } from '../src/sync/engine.ts'
import { STATUS_CHANNEL, SYNC_TAG } from '../src/sync/protocol.ts'

/** The `sync` event is missing from TypeScript's WebWorker lib (STACK trap 5). */
interface SyncEvent extends ExtendableEvent {
  readonly tag: string
  readonly lastChance: boolean
}

let engine: SyncEngine | null = null

function getEngine(): SyncEngine {
  if (!engine) {
    const db = getDb()
    configureApi({ getToken: () => readAuthToken(db) })
    engine = createSyncEngine({
      db,
      channel:
        typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(STATUS_CHANNEL),
      // The service worker may be stopped at any time: a retry comes from the next `sync` event.
      schedule: () => undefined,
    })
  }
  return engine
}

/**
 * Background Sync: replays the outbox with the same engine as the page's worker when the browser
 * fires `sync` after reconnecting. Rejecting asks the browser to try again later (while changes
 * still wait on the network); a 401 or a rejected change is left for the page to show.
 */
export function installBackgroundSync(scope: ServiceWorkerGlobalScope): void {
  scope.addEventListener('sync', (event) => {
    const sync = event as SyncEvent
    if (sync.tag !== SYNC_TAG) return
    sync.waitUntil(
      getEngine()
        .replay({ resetBackoff: true })
        .then((outcome) => {
          if (outcome === 'backoff') throw new Error('outbox still waiting for the network')
        }),
    )
  })
}
