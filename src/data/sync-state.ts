import { getDb, type MirrorDb } from './db.ts'
import { DEFAULT_SYNC_META, type SyncMeta } from './types.ts'

export { DEFAULT_SYNC_META }

/**
 * Sync state kept in `meta`, so every tab, the worker and the service worker see the same values:
 * the access token (the service worker has no localStorage), whether the server asked to sign in
 * again, and when the outbox last became empty.
 */
const AUTH = 'auth'
const SYNC = 'sync'

export async function readSyncMeta(db: MirrorDb = getDb()): Promise<SyncMeta> {
  const row = await db.meta.get(SYNC)
  return { ...DEFAULT_SYNC_META, ...(row?.value as Partial<SyncMeta> | undefined) }
}

export async function writeSyncMeta(
  patch: Partial<SyncMeta>,
  db: MirrorDb = getDb(),
): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    const current = await readSyncMeta(db)
    await db.meta.put({ key: SYNC, value: { ...current, ...patch } })
  })
}

export interface StoredAuth {
  token: string | null
  /** ms since the epoch, or null when unknown */
  expiry: number | null
}

/** The page mirrors its session token here; a new token clears "sign in again". */
export async function storeAuthToken(auth: StoredAuth, db: MirrorDb = getDb()): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    const before = (await db.meta.get(AUTH))?.value as StoredAuth | undefined
    await db.meta.put({ key: AUTH, value: auth })
    if (auth.token && auth.token !== before?.token) {
      const current = await readSyncMeta(db)
      await db.meta.put({ key: SYNC, value: { ...current, needsSignIn: false } })
    }
  })
}

export async function readStoredAuth(db: MirrorDb = getDb()): Promise<StoredAuth | null> {
  return ((await db.meta.get(AUTH))?.value as StoredAuth | undefined) ?? null
}

/** The token to send, or null when none is stored or it has expired. */
export async function readAuthToken(
  db: MirrorDb = getDb(),
  now = Date.now(),
): Promise<string | null> {
  const auth = (await db.meta.get(AUTH))?.value as StoredAuth | undefined
  if (!auth?.token) return null
  if (auth.expiry !== null && auth.expiry <= now) return null
  return auth.token
}

/** Pending (not parked) and parked entries; what the sign-out dialog and the status show. */
export async function countOutbox(
  db: MirrorDb = getDb(),
): Promise<{ pending: number; parked: number; conflicts: number }> {
  const parkedEntries = await db.outbox.where('state').equals('parked').toArray()
  const parked = parkedEntries.length
  // Conflicts are parked too: the person chooses; the rest the server refused.
  const conflicts = parkedEntries.filter((entry) => entry.conflict !== undefined).length
  const total = await db.outbox.count()
  return { pending: total - parked, parked, conflicts }
}

/** Changes not on the server yet (pending and parked), for the sign-out confirmation. */
export async function unsyncedCount(db: MirrorDb = getDb()): Promise<number> {
  return db.outbox.count()
}

/** The workspace the screens show, kept across reloads. */
export const CURRENT_WORKSPACE = 'currentWorkspace'

const OWNER = 'owner'

/**
 * The mirror belongs to one user. When another user signs in on this device, everything local of
 * the previous one is cleared (the sign-out dialog warned about unsynced changes) so nobody sees or
 * replays another account's data. Returns true when the mirror was cleared.
 */
export async function claimMirror(userId: number, db: MirrorDb = getDb()): Promise<boolean> {
  return db.transaction('rw', db.allTables(), async () => {
    const owner = (await db.meta.get(OWNER))?.value
    if (owner === userId) return false
    const wipe = typeof owner === 'number'
    if (wipe) for (const table of db.allTables()) await table.clear()
    await db.meta.put({ key: OWNER, value: userId })
    return wipe
  })
}
