import type { Queryable } from '../db/database.ts'
import { pruneReservations } from '../storage/uploads.ts'
import type { UploadStorage } from './storage.ts'
import { parseVariant } from './variants.ts'

/** Uploads younger than this are kept even when nothing refers to them yet (docs/API.md). */
export const SWEEP_GRACE_MS = 7 * 24 * 3_600_000

/** A partial upload not written to for this long was left by a process that died mid-upload. */
export const PARTIAL_MAX_AGE_MS = 24 * 3_600_000

/**
 * The room an upload holds in its user's quota while it arrives counts while renewed within this
 * (server/services/uploads.ts, QuotaReservation; renewed every minute while bytes arrive): one
 * left by a process that died lapses, and is deleted at start and by the sweep.
 */
export const RESERVATION_TTL_MS = 5 * 60_000

/**
 * Every `/uploads/<name>` a row refers to: backgrounds, image and video blocks, specialists'
 * photos. (A block's `image_url` or `video_src`, and a photo, may also be an outside URL.)
 */
async function referencedNames(db: Queryable): Promise<Set<string>> {
  const { rows } = await db.query<{ url: string | null }>(
    `SELECT image_url AS url FROM backgrounds
     UNION SELECT data->>'image_url' FROM blocks WHERE type = 'image'
     UNION SELECT data->>'video_src' FROM blocks WHERE type = 'video'
     UNION SELECT photo_url FROM specialists`,
  )
  const names = new Set<string>()
  for (const { url } of rows) {
    const match = url ? /^\/uploads\/([^/?#]+)$/.exec(url) : null
    if (match) names.add(match[1]!)
  }
  return names
}

/**
 * Deletes the uploads no row refers to that are older than `graceMs`: an upload is sent before
 * the block or photo that names it, which may reach the server much later from an offline device.
 * The demo seed's own files (`seed-…`) stay, and so do partial uploads younger than a day (older
 * ones were left by a process that died mid-upload and go too, as do quota reservations that
 * lapsed). Returns the uploads' names deleted.
 */
export async function sweepUploads(
  db: Queryable,
  storage: UploadStorage,
  options: { now?: number; graceMs?: number } = {},
): Promise<string[]> {
  const now = options.now ?? Date.now()
  const graceMs = options.graceMs ?? SWEEP_GRACE_MS
  const files = await storage.list()
  const referenced = await referencedNames(db)
  const removed: string[] = []
  const kept = (name: string, writtenAt: number) =>
    name.startsWith('seed-') || referenced.has(name) || now - writtenAt < graceMs
  const sources = new Map(files.map((f) => [f.name, f.writtenAt]))
  for (const { name, writtenAt } of files) {
    // A resized copy (docs/publishing.md, "Rendering on the server") goes with its image, not on
    // its own.
    const variant = parseVariant(name)
    if (variant) {
      const source = ['jpg', 'png', 'webp']
        .map((ext) => `${variant.stem}.${ext}`)
        .find((n) => sources.has(n))
      if (source && kept(source, sources.get(source)!)) continue
      await storage.remove(name)
      removed.push(name)
      continue
    }
    if (kept(name, writtenAt)) continue
    await storage.remove(name)
    removed.push(name)
  }
  if (removed.length > 0) {
    await db.query('DELETE FROM uploads WHERE name = ANY($1)', [removed])
  }
  await storage.removePartials?.(now - PARTIAL_MAX_AGE_MS)
  await pruneReservations(db, RESERVATION_TTL_MS)
  return removed
}
