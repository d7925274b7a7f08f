/// <reference lib="webworker" />
import { expose } from 'comlink'
import type { SyncWorkerApi } from '../src/sync/protocol.ts'

// The replay engine (src/sync/engine.ts) is wired in here; until then the worker answers idle.
const api: SyncWorkerApi = {
  replay: async () => 'idle',
  refresh: async () => undefined,
  retryEntry: async () => undefined,
  discardEntry: async () => undefined,
  flush: async () => true,
}

expose(api)
