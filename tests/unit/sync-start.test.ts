import { describe, expect, it, vi } from 'vitest'
import type { ReplayOptions } from '../../src/sync/protocol.ts'

// The page's sync client with a stand-in worker: what the first replay of a fresh start asks for.
const replay = vi.fn((_options?: ReplayOptions) => Promise.resolve('idle' as const))
vi.mock('../../src/mirror/worker.ts', () => ({
  pageWorker: () => ({ replay, refresh: () => Promise.resolve() }),
  onPageWorkerFailure: () => () => {},
}))
vi.mock('../../src/mirror/live.ts', () => ({
  watchMirror: () => () => {},
  useOutboxCounts: () => null,
  useParkedEntryRows: () => [],
  useSyncMeta: () => null,
}))

describe('startSync', () => {
  it('makes retries left waiting by an earlier page due at once', async () => {
    const { startSync } = await import('../../src/sync/client.ts')
    startSync()
    expect(replay).toHaveBeenCalled()
    // A page (re)opened is a new chance: a backoff stored by the last page must not hold it back.
    expect(replay.mock.calls[0]?.[0]).toEqual({ resetBackoff: true })
  })
})
