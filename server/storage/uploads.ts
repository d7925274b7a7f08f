import type { Queryable } from '../db/database.ts'

/**
 * An `uploads` row whose name starts with this holds quota for an upload still arriving (a name
 * no stored file has: those never start with a dot, uploads/storage.ts UPLOAD_NAME). It counts
 * against its user's quota while it is fresh, and gives way to the upload's own row when the upload
 * is kept (docs/API.md, "Projects, backgrounds, uploads").
 */
export const RESERVATION_PREFIX = '.reserved-'

/** How long the bytes a user's uploads take are counted (server/uploads/sweep.ts). */
export interface QuotaWindow {
  /** An upload nothing refers to counts while younger than this. */
  graceMs: number
  /** A reservation counts while renewed within this: one left by a dead process lapses. */
  reservationTtlMs: number
}

/** Notes an upload: its name, who sent it and its size (the per-user quota, docs/API.md). */
export async function insertUpload(
  db: Queryable,
  upload: { name: string; userId: number; bytes: number },
): Promise<void> {
  await db.query('INSERT INTO uploads (name, user_id, bytes) VALUES ($1, $2, $3)', [
    upload.name,
    upload.userId,
    upload.bytes,
  ])
}

/** Removes an upload's row, or a reservation's. */
export async function deleteUpload(db: Queryable, name: string): Promise<void> {
  await db.query('DELETE FROM uploads WHERE name = $1', [name])
}

/**
 * The uploads rows counted against user $1 (but the one named $4): those a row refers to, those
 * younger than $2 ms that nothing refers to yet (the sweep deletes the rest,
 * server/uploads/sweep.ts), and reservations renewed within $3 ms.
 */
const COUNTED = `
  SELECT coalesce(sum(u.bytes), 0) AS used FROM uploads u
  WHERE u.user_id = $1 AND u.name <> $4 AND CASE
    WHEN u.name LIKE '${RESERVATION_PREFIX}%'
      THEN u.created_at > now() - ($3 * interval '1 millisecond')
    ELSE u.created_at > now() - ($2 * interval '1 millisecond')
      OR '/uploads/' || u.name IN (
        SELECT image_url FROM backgrounds
        UNION SELECT data->>'image_url' FROM blocks WHERE type = 'image'
        UNION SELECT data->>'video_src' FROM blocks WHERE type = 'video'
        UNION SELECT photo_url FROM specialists)
  END`

/**
 * The bytes a user's uploads take, reservations of uploads still arriving included, but for the
 * row named `except` (an upload's own reservation when it is kept).
 */
export async function usedBytes(
  db: Queryable,
  userId: number,
  window: QuotaWindow,
  except = '',
): Promise<number> {
  const { rows } = await db.query<{ used: string | number }>(COUNTED, [
    userId,
    window.graceMs,
    window.reservationTtlMs,
    except,
  ])
  return Number(rows[0]?.used ?? 0)
}

/**
 * Holds the user's row until the transaction ends: what their uploads take is decided by one
 * transaction at a time, on every instance over the database.
 */
export async function lockUser(tx: Queryable, userId: number): Promise<void> {
  await tx.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId])
}

/**
 * Sets the reservation `name` to as much of `wanted` bytes as the user's quota leaves beside
 * everything else counted, and renews it; when that is fewer than `needed`, changes nothing and
 * answers null. Run inside a transaction that holds the user (lockUser).
 */
export async function reserveBytes(
  tx: Queryable,
  reservation: {
    name: string
    userId: number
    needed: number
    wanted: number
    quota: number
    window: QuotaWindow
  },
): Promise<number | null> {
  const { rows } = await tx.query<{ bytes: string | number }>(
    `WITH counted AS (${COUNTED})
     INSERT INTO uploads (name, user_id, bytes)
     SELECT $4, $1, least($5::bigint, $7::bigint - counted.used) FROM counted
     WHERE $7::bigint - counted.used >= $6::bigint
     ON CONFLICT (name) DO UPDATE SET bytes = excluded.bytes, created_at = now()
     RETURNING bytes`,
    [
      reservation.userId,
      reservation.window.graceMs,
      reservation.window.reservationTtlMs,
      reservation.name,
      reservation.wanted,
      reservation.needed,
      reservation.quota,
    ],
  )
  return rows[0] ? Number(rows[0].bytes) : null
}

/** Renews a reservation that still holds enough: it keeps counting while its upload arrives. */
export async function renewReservation(db: Queryable, name: string): Promise<void> {
  await db.query('UPDATE uploads SET created_at = now() WHERE name = $1', [name])
}

/** Deletes the reservations not renewed within `ttlMs`: they no longer count (a dead process's). */
export async function pruneReservations(db: Queryable, ttlMs: number): Promise<number> {
  const { rows } = await db.query<{ name: string }>(
    `DELETE FROM uploads WHERE name LIKE '${RESERVATION_PREFIX}%'
       AND created_at <= now() - ($1 * interval '1 millisecond') RETURNING name`,
    [ttlMs],
  )
  return rows.length
}
