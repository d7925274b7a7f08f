import type { Queryable } from '../db/database.ts'

export interface StoredResponse {
  method: string
  path: string
  status: number | null
  body: string | null
  /** What the first request asked (null for keys stored before the hash was kept). */
  request_hash: string | null
  /** Still unanswered a minute after it came: its request died with its process. */
  stale: boolean
}

/**
 * Claims (user, key) for a request. Returns null when this request is the first (it now owns the
 * key), or the row of the request that came first. The primary key makes a concurrent repeat lose.
 */
export async function claimKey(
  db: Queryable,
  userId: number,
  key: string,
  method: string,
  path: string,
  requestHash: string | null = null,
): Promise<StoredResponse | null> {
  const inserted = await db.query(
    `INSERT INTO idempotency_keys (user_id, key, method, path, request_hash)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (user_id, key) DO NOTHING RETURNING key`,
    [userId, key, method, path, requestHash],
  )
  if (inserted.rows.length > 0) return null
  return readKey(db, userId, key)
}

export async function readKey(
  db: Queryable,
  userId: number,
  key: string,
): Promise<StoredResponse | null> {
  const { rows } = await db.query<StoredResponse>(
    `SELECT method, path, status, body, request_hash,
       (status IS NULL AND created_at < now() - interval '60 seconds') AS stale
     FROM idempotency_keys WHERE user_id = $1 AND key = $2`,
    [userId, key],
  )
  return rows[0] ?? null
}

export async function completeKey(
  db: Queryable,
  userId: number,
  key: string,
  status: number,
  body: string,
): Promise<void> {
  await db.query(
    'UPDATE idempotency_keys SET status = $3, body = $4 WHERE user_id = $1 AND key = $2',
    [userId, key, status, body],
  )
}

/** Frees a key whose request failed on the server's side, so a retry runs again. */
export async function releaseKey(db: Queryable, userId: number, key: string): Promise<void> {
  await db.query('DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2', [userId, key])
}

/** Forgets keys older than the given age (called now and then; retries come within days). */
export async function pruneKeys(db: Queryable, olderThanDays: number): Promise<void> {
  await db.query(
    `DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(days => $1::int)`,
    [olderThanDays],
  )
}
