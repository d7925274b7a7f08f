import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto'
import type { Database } from '../db/database.ts'
import type { AuthResponse, User } from '../../src/domain/user.ts'
import * as users from '../storage/users.ts'
import { insertWorkspace } from '../storage/workspaces.ts'
import { AppError } from './errors.ts'
import type { SessionCache } from './session-cache.ts'
import type { WorkQueue } from './work-queue.ts'

export const DEFAULT_WORKSPACE_NAME = 'Моё пространство'

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 } as const

function scryptAsync(password: string, salt: Buffer, keylen: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p }, (err, key) =>
      err ? reject(err) : resolve(key),
    )
  })
}

/** `scrypt$N$r$p$<salt b64>$<hash b64>` */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const hash = await scryptAsync(password, salt, SCRYPT.keylen)
  return [
    'scrypt',
    SCRYPT.N,
    SCRYPT.r,
    SCRYPT.p,
    salt.toString('base64'),
    hash.toString('base64'),
  ].join('$')
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, , , , saltB64, hashB64] = stored.split('$')
  if (scheme !== 'scrypt' || !saltB64 || !hashB64) return false
  const expected = Buffer.from(hashB64, 'base64')
  const actual = await scryptAsync(password, Buffer.from(saltB64, 'base64'), expected.length)
  return timingSafeEqual(actual, expected)
}

/** Tokens travel to the client once; the database keeps only their SHA-256. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

function newToken(): string {
  return randomBytes(32).toString('base64url')
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase()
}

export interface AuthSettings {
  tokenTtlDays: number
  /** Where password hashing runs: a few at a time (server/services/work-queue.ts). */
  hashing: WorkQueue
  /** Token → user kept in memory (server/services/session-cache.ts). */
  sessions: SessionCache
}

// Compared against when the email is unknown, so both paths take the same time.
const DUMMY_HASH = hashPassword('dummy-password-for-timing')

export class AuthService {
  constructor(
    private readonly db: Database,
    private readonly settings: AuthSettings,
  ) {}

  private async issueSession(user: User): Promise<AuthResponse> {
    const token = newToken()
    const expires = new Date(Date.now() + this.settings.tokenTtlDays * 86_400_000)
    await users.insertSession(this.db, hashToken(token), user.id, expires)
    return { access_token: token, expires_at: expires.toISOString(), user }
  }

  private hash(password: string): Promise<string> {
    return this.settings.hashing.run(() => hashPassword(password))
  }

  async register(input: { name: string; email: string; password: string }): Promise<AuthResponse> {
    const passwordHash = await this.hash(input.password)
    const user = await this.db.transaction(async (tx) => {
      const created = await users.insertUser(tx, {
        name: input.name,
        email: normaliseEmail(input.email),
        passwordHash,
        role: 'editor',
      })
      if (!created) throw AppError.conflict('email_taken', { email: { code: 'email_taken' } })
      await insertWorkspace(tx, DEFAULT_WORKSPACE_NAME, created.id)
      return created
    })
    return this.issueSession(user)
  }

  async login(input: { email: string; password: string }): Promise<AuthResponse> {
    const row = await users.findUserByEmail(this.db, normaliseEmail(input.email))
    const stored = row?.password_hash ?? (await DUMMY_HASH)
    const ok = await this.settings.hashing.run(() => verifyPassword(input.password, stored))
    if (!row || !ok) throw AppError.unauthorized('bad_credentials')
    const { password_hash: _hash, ...user } = row
    return this.issueSession(user)
  }

  /** The user behind a bearer token, or null when it is unknown or expired. */
  async authenticate(token: string): Promise<User | null> {
    const tokenHash = hashToken(token)
    const cache = this.settings.sessions
    const known = cache.get(tokenHash)
    if (known) return known
    const stamp = cache.stamp
    const session = await users.findSession(this.db, tokenHash)
    if (!session) return null
    cache.set(tokenHash, session.user, session.expiresAt, stamp)
    return session.user
  }

  /** Listens for sessions ended on other instances (server/services/session-cache.ts). */
  start(): Promise<void> {
    return this.settings.sessions.start()
  }

  /** Creates a reset token for a known email; returns it (null for an unknown email). */
  async forgotPassword(email: string): Promise<string | null> {
    const row = await users.findUserByEmail(this.db, normaliseEmail(email))
    if (!row) return null
    const token = newToken()
    // Only the newest link works: the ones sent before it end now (docs/API.md).
    await this.db.transaction(async (tx) => {
      await users.expirePasswordResets(tx, row.id)
      await users.insertPasswordReset(
        tx,
        hashToken(token),
        row.id,
        new Date(Date.now() + 3_600_000),
      )
    })
    return token
  }

  async resetPassword(token: string, password: string): Promise<void> {
    const tokenHash = hashToken(token)
    // The token first: one that does not work costs no password hashing.
    if ((await users.findPasswordReset(this.db, tokenHash)) === null) {
      throw AppError.validation({ token: { code: 'reset_invalid' } })
    }
    const passwordHash = await this.hash(password)
    const userId = await this.db.transaction(async (tx) => {
      const userId = await users.consumePasswordReset(tx, tokenHash)
      if (userId === null) {
        throw AppError.validation({ token: { code: 'reset_invalid' } })
      }
      await users.expirePasswordResets(tx, userId)
      await users.updatePassword(tx, userId, passwordHash)
      await users.deleteUserSessions(tx, userId)
      return userId
    })
    await this.settings.sessions.forgetUser(userId)
  }

  /** Ends the session of this token; an unknown or already ended one is no error (docs/API.md). */
  async logout(token: string): Promise<void> {
    const tokenHash = hashToken(token)
    await users.deleteSession(this.db, tokenHash)
    await this.settings.sessions.endSession(tokenHash)
  }

  async updateProfile(userId: number, name: string): Promise<User> {
    const user = await users.updateUserName(this.db, userId, name)
    await this.settings.sessions.forgetUser(userId)
    return user
  }
}
