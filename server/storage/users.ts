import type { Queryable } from '../db/database.ts'
import type { Role, User } from '../../src/domain/user.ts'

export interface UserRow extends User {
  password_hash: string
}

const USER_COLUMNS = 'id, name, email, role'

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(
    `SELECT ${USER_COLUMNS}, password_hash FROM users WHERE email = $1`,
    [email],
  )
  return rows[0] ?? null
}

export async function insertUser(
  db: Queryable,
  user: { name: string; email: string; passwordHash: string; role: Role },
): Promise<User | null> {
  const { rows } = await db.query<User>(
    `INSERT INTO users (name, email, password_hash, role) VALUES ($1, $2, $3, $4)
     ON CONFLICT (email) DO NOTHING RETURNING ${USER_COLUMNS}`,
    [user.name, user.email, user.passwordHash, user.role],
  )
  return rows[0] ?? null
}

export async function updateUserName(db: Queryable, id: number, name: string): Promise<User> {
  const { rows } = await db.query<User>(
    `UPDATE users SET name = $2 WHERE id = $1 RETURNING ${USER_COLUMNS}`,
    [id, name],
  )
  return rows[0]!
}

export async function updatePassword(db: Queryable, id: number, passwordHash: string) {
  await db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [id, passwordHash])
}

export async function countUsers(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users')
  return rows[0]!.n
}

export async function insertSession(
  db: Queryable,
  tokenHash: string,
  userId: number,
  expiresAt: Date,
): Promise<void> {
  await db.query('INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, $3)', [
    tokenHash,
    userId,
    expiresAt.toISOString(),
  ])
}

/** The user of a session that has not expired, and when it expires (ms since the epoch). */
export async function findSession(
  db: Queryable,
  tokenHash: string,
): Promise<{ user: User; expiresAt: number } | null> {
  const { rows } = await db.query<User & { expires_ms: number }>(
    `SELECT u.id, u.name, u.email, u.role,
       (extract(epoch FROM s.expires_at) * 1000)::float8 AS expires_ms
     FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = $1 AND s.expires_at > now()`,
    [tokenHash],
  )
  const row = rows[0]
  if (!row) return null
  const { expires_ms, ...user } = row
  return { user, expiresAt: Number(expires_ms) }
}

export async function deleteUserSessions(db: Queryable, userId: number): Promise<void> {
  await db.query('DELETE FROM sessions WHERE user_id = $1', [userId])
}

export async function insertPasswordReset(
  db: Queryable,
  tokenHash: string,
  userId: number,
  expiresAt: Date,
): Promise<void> {
  await db.query(
    'INSERT INTO password_resets (token_hash, user_id, expires_at) VALUES ($1, $2, $3)',
    [tokenHash, userId, expiresAt.toISOString()],
  )
}

/** The user id of a valid, unused reset token, without using it. */
export async function findPasswordReset(db: Queryable, tokenHash: string): Promise<number | null> {
  const { rows } = await db.query<{ user_id: number }>(
    `SELECT user_id FROM password_resets
     WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()`,
    [tokenHash],
  )
  return rows[0]?.user_id ?? null
}

/** Marks a valid, unused reset token used and returns its user id. */
export async function consumePasswordReset(
  db: Queryable,
  tokenHash: string,
): Promise<number | null> {
  const { rows } = await db.query<{ user_id: number }>(
    `UPDATE password_resets SET used_at = now()
     WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING user_id`,
    [tokenHash],
  )
  return rows[0]?.user_id ?? null
}

/** Ends every reset link of a user not used yet (a newer link, or one of them used). */
export async function expirePasswordResets(db: Queryable, userId: number): Promise<void> {
  await db.query(
    'UPDATE password_resets SET used_at = now() WHERE user_id = $1 AND used_at IS NULL',
    [userId],
  )
}

/** Ends one session (sign-out); nothing when it is unknown. */
export async function deleteSession(db: Queryable, tokenHash: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash])
}
