/** The part of `navigator.storage` used here (a fake in tests; missing in old browsers). */
export interface DeviceStorage {
  persisted?: () => Promise<boolean>
  persist?: () => Promise<boolean>
  estimate?: () => Promise<{ usage?: number; quota?: number }>
}

/** Less free space than this, or more of the quota used than SHORT_RATIO, counts as short. */
export const SHORT_FREE_BYTES = 50 * 1024 * 1024
export const SHORT_RATIO = 0.9

export interface StorageReport {
  /** The browser promised not to evict the mirror and the outbox under pressure. */
  persisted: boolean
  /** Bytes left of the origin's quota, when the browser tells. */
  freeBytes: number | null
  short: boolean
}

/**
 * Asks for persistent storage (the outbox lives in IndexedDB: evicting it would lose edits,
 * docs/SYNC.md "Storage") and measures what is left. Never throws: a browser without the API
 * reports "unknown".
 */
export async function secureDeviceStorage(
  storage: DeviceStorage | undefined,
): Promise<StorageReport> {
  let persisted = false
  try {
    persisted = (await storage?.persisted?.()) ?? false
    if (!persisted) persisted = (await storage?.persist?.()) ?? false
  } catch {
    persisted = false
  }
  let freeBytes: number | null = null
  let short = false
  try {
    const estimate = await storage?.estimate?.()
    const quota = estimate?.quota
    const usage = estimate?.usage ?? 0
    if (typeof quota === 'number' && quota > 0) {
      freeBytes = Math.max(0, quota - usage)
      short = freeBytes < SHORT_FREE_BYTES || usage / quota > SHORT_RATIO
    }
  } catch {
    freeBytes = null
  }
  return { persisted, freeBytes, short }
}
