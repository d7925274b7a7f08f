import type { Queryable } from '../db/database.ts'

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

/**
 * The bytes a user's uploads take: those a row refers to, and those younger than `graceMs` that
 * nothing refers to yet (the sweep deletes the rest, server/uploads/sweep.ts).
 */
export async function usedBytes(db: Queryable, userId: number, graceMs: number): Promise<number> {
  const { rows } = await db.query<{ used: string | number }>(
    `SELECT coalesce(sum(u.bytes), 0) AS used FROM uploads u
     WHERE u.user_id = $1 AND (
       u.created_at > now() - ($2 * interval '1 millisecond')
       OR '/uploads/' || u.name IN (
         SELECT image_url FROM backgrounds
         UNION SELECT data->>'image_url' FROM blocks WHERE type = 'image'
         UNION SELECT data->>'video_src' FROM blocks WHERE type = 'video'
         UNION SELECT photo_url FROM specialists))`,
    [userId, graceMs],
  )
  return Number(rows[0]?.used ?? 0)
}
