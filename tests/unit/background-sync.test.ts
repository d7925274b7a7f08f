import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ReplayOutcome } from '../../src/sync/protocol.ts'
import { replayWhenFree } from '../../workers/background-sync.ts'

afterEach(() => vi.useRealTimers())

function engineAnswering(...outcomes: ReplayOutcome[]) {
  const replay = vi.fn(async () => outcomes.shift() ?? 'idle')
  return { replay }
}

describe('the service worker’s replay on a `sync` event', () => {
  it('waits for another replayer to let go, then sends the changes itself', async () => {
    vi.useFakeTimers()
    const engine = engineAnswering('busy', 'busy', 'idle')
    const done = replayWhenFree(engine)
    await vi.advanceTimersByTimeAsync(6_000)
    await expect(done).resolves.toBe('idle')
    expect(engine.replay).toHaveBeenCalledTimes(3)
    expect(engine.replay).toHaveBeenCalledWith({ resetBackoff: true })
  })

  it('gives up after a while, so the browser fires the event again later', async () => {
    vi.useFakeTimers()
    const engine = engineAnswering(...Array<ReplayOutcome>(20).fill('busy'))
    const done = replayWhenFree(engine)
    await vi.advanceTimersByTimeAsync(60_000)
    await expect(done).resolves.toBe('busy')
    expect(engine.replay).toHaveBeenCalledTimes(11)
  })

  it('does not wait when the network is down: the browser retries on its own schedule', async () => {
    const engine = engineAnswering('backoff')
    await expect(replayWhenFree(engine)).resolves.toBe('backoff')
    expect(engine.replay).toHaveBeenCalledTimes(1)
  })
})
