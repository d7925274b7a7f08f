/**
 * Exactly one replayer across tabs, workers and the service worker (step 1 of the protocol): a Web
 * Lock when the runtime has `navigator.locks`, else a lock inside this process (Node tests).
 */
export interface LockManagerLike {
  request<T>(
    name: string,
    options: { ifAvailable?: boolean; mode?: 'exclusive' | 'shared' },
    callback: (lock: unknown) => Promise<T>,
  ): Promise<T>
}

const localQueues = new Map<string, Promise<unknown>>()
const localHeld = new Set<string>()

async function localLock<T>(
  name: string,
  ifAvailable: boolean,
  fn: () => Promise<T>,
): Promise<T | null> {
  if (ifAvailable && localHeld.has(name)) return null
  const previous = localQueues.get(name) ?? Promise.resolve()
  let release!: () => void
  const current = new Promise<void>((resolve) => (release = resolve))
  localQueues.set(
    name,
    previous.then(() => current),
  )
  await previous
  localHeld.add(name)
  try {
    return await fn()
  } finally {
    localHeld.delete(name)
    release()
  }
}

export function defaultLocks(): LockManagerLike | null {
  const nav = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator
  return nav?.locks ?? null
}

/** Runs `fn` holding the lock; with `ifAvailable`, resolves null at once when it is held. */
export async function withLock<T>(
  locks: LockManagerLike | null,
  name: string,
  ifAvailable: boolean,
  fn: () => Promise<T>,
): Promise<T | null> {
  if (!locks) return localLock(name, ifAvailable, fn)
  return locks.request(name, ifAvailable ? { ifAvailable: true } : {}, async (lock) =>
    lock === null ? null : fn(),
  )
}
