import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { RefreshScope, ReplayOptions } from '../../src/sync/protocol.ts'

// The page's sync client with a stand-in worker: what the first replay of a fresh start asks for.
const replay = vi.fn((_options?: ReplayOptions) => Promise.resolve('idle' as const))
const refresh = vi.fn((_scope: RefreshScope) => Promise.resolve())
vi.mock('../../src/mirror/worker.ts', () => ({
  pageWorker: () => ({ replay, refresh }),
  onPageWorkerFailure: () => () => {},
}))
vi.mock('../../src/mirror/live.ts', () => ({
  watchMirror: () => () => {},
  useOutboxCounts: () => null,
  useParkedEntryRows: () => [],
  useSyncMeta: () => null,
}))
vi.mock('../../src/mirror/commands.ts', () => ({
  storeAuthToken: () => Promise.resolve(),
  unsyncedCount: () => Promise.resolve(0),
}))

const settled = () => new Promise((resolve) => setTimeout(resolve, 0))

beforeEach(() => {
  vi.resetModules()
  replay.mockClear()
  refresh.mockClear()
})

describe('startSync', () => {
  it('makes retries left waiting by an earlier page due at once', async () => {
    const { startSync } = await import('../../src/sync/client.ts')
    startSync()
    expect(replay).toHaveBeenCalled()
    // A page (re)opened is a new chance: a backoff stored by the last page must not hold it back.
    expect(replay.mock.calls[0]?.[0]).toEqual({ resetBackoff: true })
  })

  it('holds the replay and the refreshes until the screen has painted, then asks each once', async () => {
    const client = await import('../../src/sync/client.ts')
    let painted!: () => void
    client.holdRequestsUntil(new Promise<void>((resolve) => (painted = resolve)))
    await client.setSyncToken({ token: 'token', expiry: null })
    client.startSync()
    client.requestSync()
    await settled()
    // On a link that never answers these would only compete with the screen's first reads.
    expect(replay).not.toHaveBeenCalled()
    expect(refresh).not.toHaveBeenCalled()

    painted()
    await settled()
    expect(replay).toHaveBeenCalledTimes(1)
    expect(replay.mock.calls[0]?.[0]).toEqual({ resetBackoff: true })
    expect(refresh.mock.calls.map(([scope]) => scope.kind).sort()).toEqual([
      'projectTypes',
      'workspaces',
    ])
  })
})
