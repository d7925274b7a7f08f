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

const localTails = new Map<string, Promise<void>>()
/** Holders and waiters per lock name: counted synchronously, so `ifAvailable` is exact. */
const localUsers = new Map<string, number>()

async function localLock<T>(
  name: string,
  ifAvailable: boolean,
  fn: () => Promise<T>,
): Promise<T | null> {
  if (ifAvailable && (localUsers.get(name) ?? 0) > 0) return null
  localUsers.set(name, (localUsers.get(name) ?? 0) + 1)
  const previous = localTails.get(name) ?? Promise.resolve()
  let release!: () => void
  const current = new Promise<void>((resolve) => (release = resolve))
  localTails.set(
    name,
    previous.then(() => current),
  )
  await previous
  try {
    return await fn()
  } finally {
    const left = (localUsers.get(name) ?? 1) - 1
    if (left === 0) {
      localUsers.delete(name)
      localTails.delete(name)
    } else localUsers.set(name, left)
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
