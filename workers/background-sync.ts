/// <reference lib="webworker" />
import { configureApi } from '../src/api/client.ts'
import { getDb } from '../src/data/db.ts'
import { readAuthToken } from '../src/data/sync-state.ts'
import { createSyncEngine, type SyncEngine } from '../src/sync/engine.ts'
import { STATUS_CHANNEL, SYNC_TAG, type ReplayOutcome } from '../src/sync/protocol.ts'

/** The `sync` event is missing from TypeScript's WebWorker lib (STACK trap 5). */
interface SyncEvent extends ExtendableEvent {
  readonly tag: string
  readonly lastChance: boolean
}

let engine: SyncEngine | null = null

/** How long a `sync` event waits for another replayer to finish before asking to be fired later. */
const BUSY_RETRIES = 10
const BUSY_WAIT_MS = 3_000

/**
 * Replays; while another replayer holds the lock (a closing page's worker, or an earlier `sync`
 * still failing on a dead network) it waits and looks again, since nobody may replay after it.
 */
export async function replayWhenFree(engine: Pick<SyncEngine, 'replay'>): Promise<ReplayOutcome> {
  for (let attempt = 0; ; attempt += 1) {
    const outcome = await engine.replay({ resetBackoff: true })
    if (outcome !== 'busy' || attempt >= BUSY_RETRIES) return outcome
    await new Promise((resolve) => setTimeout(resolve, BUSY_WAIT_MS))
  }
}

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
 * still wait on the network, or another replayer never let go); a 401 or a rejected change is left
 * for the page to show.
 */
export function installBackgroundSync(scope: ServiceWorkerGlobalScope): void {
  scope.addEventListener('sync', (event) => {
    const sync = event as SyncEvent
    if (sync.tag !== SYNC_TAG) return
    sync.waitUntil(
      replayWhenFree(getEngine()).then((outcome) => {
        if (outcome === 'backoff') throw new Error('outbox still waiting for the network')
        if (outcome === 'busy') throw new Error('another replayer kept the outbox busy')
      }),
    )
  })
}
