import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { SessionSnapshot } from '../../src/features/auth/session.ts'
import type { User } from '../../src/domain/user.ts'

// The app's start (src/app/sync-runtime.ts) with the sync client, the mirror and the first-screen
// signal stood in: how long the start's requests are held (docs/app-shell.md, "Sync status").
const held: Promise<unknown>[] = []
vi.mock('../../src/sync/client.ts', () => ({
  holdRequestsUntil: (ready: Promise<unknown>) => held.push(ready),
  setSyncToken: () => Promise.resolve(),
  startSync: () => undefined,
  followLiveChanges: () => undefined,
  flushBeforeReload: () => Promise.resolve(),
  unsyncedChanges: () => Promise.resolve(0),
}))
vi.mock('../../src/mirror/commands.ts', () => ({
  claimMirror: () => Promise.resolve(false),
  storeAuthToken: () => Promise.resolve(),
}))
let workspace: ((id: number | null) => void) | null = null
vi.mock('../../src/mirror/live.ts', () => ({
  watchMirror: (_query: string, _args: unknown[], onValue: (id: number | null) => void) => {
    workspace = onValue
    return () => (workspace = null)
  },
}))
let drawn: () => void = () => undefined
let signal: Promise<void> = Promise.resolve()
vi.mock('../../src/ui/first-screen.tsx', () => ({ firstScreenDrawn: () => signal }))

const user = { id: 7, name: 'Анна', email: 'anna@example.com' } as unknown as User
const signedIn: SessionSnapshot = {
  token: 'token',
  tokenExpiry: Date.now() + 3_600_000,
  user,
  role: 'editor',
  loggedIn: true,
}

async function start(snapshot: SessionSnapshot) {
  const { applySession, START_HOLD_MS } = await import('../../src/app/sync-runtime.ts')
  await applySession(snapshot)
  let released = false
  void held[0]?.then(() => (released = true))
  return { released: () => released, START_HOLD_MS }
}

beforeEach(() => {
  vi.resetModules()
  held.length = 0
  workspace = null
  signal = new Promise<void>((resolve) => (drawn = resolve))
  vi.useFakeTimers()
})
afterEach(() => vi.useRealTimers())

describe('the start holds its requests while the screen paints from the mirror', () => {
  it('until the first screen is drawn when the mirror holds a workspace', async () => {
    const { released } = await start(signedIn)
    expect(held).toHaveLength(1)
    workspace?.(3)
    await vi.advanceTimersByTimeAsync(100)
    expect(released()).toBe(false)
    drawn()
    await vi.advanceTimersByTimeAsync(0)
    expect(released()).toBe(true)
  })

  it('not at all when the mirror holds no workspace (only the requests can fill the screen)', async () => {
    const { released } = await start(signedIn)
    workspace?.(null)
    await vi.advanceTimersByTimeAsync(0)
    expect(released()).toBe(true)
  })

  it('for a bounded time when the screen marks nothing (an empty list)', async () => {
    const { released, START_HOLD_MS } = await start(signedIn)
    workspace?.(3)
    await vi.advanceTimersByTimeAsync(START_HOLD_MS - 1)
    expect(released()).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(released()).toBe(true)
  })

  it('not on a start without a valid token', async () => {
    await start({ ...signedIn, token: null, loggedIn: false })
    expect(held).toHaveLength(0)
  })
})
