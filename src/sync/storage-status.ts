import { useSyncExternalStore } from 'react'
import { secureDeviceStorage, type StorageReport } from '../data/device-storage.ts'

/**
 * The device's storage, for the sync panel and the storage warning: a module of its own, loaded
 * with them after sign-in, so the list pages' first load carries none of it.
 */

export type StorageStatus = StorageReport | { persisted: null; freeBytes: null; short: false }

let storageStatus: StorageStatus = { persisted: null, freeBytes: null, short: false }
const storageListeners = new Set<() => void>()

/**
 * Asks the browser to keep IndexedDB under storage pressure (once signed in) and measures the
 * space left (src/data/device-storage.ts). Refusal is normal in some browsers; the sync panel then
 * says unsent changes could be evicted, and a notification warns when space is short.
 */
export async function checkStorage(): Promise<StorageStatus> {
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage
  if (!storage) return storageStatus
  storageStatus = await secureDeviceStorage(storage)
  for (const listener of storageListeners) listener()
  return storageStatus
}

export function useStorageStatus(): StorageStatus {
  return useSyncExternalStore(
    (listener) => {
      storageListeners.add(listener)
      return () => storageListeners.delete(listener)
    },
    () => storageStatus,
    () => storageStatus,
  )
}
