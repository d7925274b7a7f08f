import { EventEmitter } from 'node:events'
import type { Database } from '../db/database.ts'
import type { User } from '../../src/domain/user.ts'

interface Entry {
  user: User
  /** Until when this entry may be used: its session's expiry or the cache's time limit. */
  until: number
}

const CHANNEL = 'sessions'

/**
 * Bearer token (its hash) → user, kept in memory for a short while so a signed-in request does not
 * ask the database who sent it. Whatever ends a session or changes its user here drops the entry
 * at once (logout, password reset, profile update). Over PostgreSQL, where other instances may
 * end a session, each change is also announced with NOTIFY and every instance drops the entry when
 * it hears it; until it listens, or once its listening connection failed, the cache is not used.
 * PGlite is opened by one process only, and the instances of one process share one cache
 * (sessionCacheFor).
 */
export class SessionCache extends EventEmitter {
  private readonly entries = new Map<string, Entry>()
  private usable: boolean
  private started: Promise<void> | undefined
  /** Raised by every drop: a lookup that began before one must not fill the cache after it. */
  private generation = 0
  /**
   * The latest drops, by the generation they raised: what they concerned (a token, a user, or
   * everything). A lookup that began before a drop about someone else may still fill the cache:
   * another person's logout must not make everyone's next request ask the database again.
   */
  private drops: { generation: number; token?: string; user?: number }[] = []

  constructor(
    private readonly db: Database,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {
    super()
    this.usable = ttlMs > 0 && db.listen === null
  }

  /** Starts listening for the changes of other instances (PostgreSQL); the cache works after. */
  start(): Promise<void> {
    this.started ??= this.listen()
    return this.started
  }

  private async listen(): Promise<void> {
    if (this.ttlMs <= 0 || !this.db.listen) return
    // Without a listening connection the cache stays off: every request asks the database.
    await this.db
      .listen(
        CHANNEL,
        (payload) => this.apply(payload),
        () => {
          this.usable = false
          this.dropped({})
          this.entries.clear()
        },
      )
      .then(() => {
        this.usable = true
      })
      .catch(() => undefined)
  }

  get(tokenHash: string, now = Date.now()): User | null {
    if (!this.usable) return null
    const entry = this.entries.get(tokenHash)
    if (!entry) return null
    if (entry.until <= now) {
      this.entries.delete(tokenHash)
      return null
    }
    return entry.user
  }

  /** Taken before a lookup in the database and given back to `set` with its result. */
  get stamp(): number {
    return this.generation
  }

  set(tokenHash: string, user: User, expiresAt: number, stamp: number, now = Date.now()): void {
    if (!this.usable || !this.unchangedSince(stamp, tokenHash, user.id)) return
    if (this.entries.size >= this.maxEntries) {
      const [oldest] = this.entries.keys()
      if (oldest !== undefined) this.entries.delete(oldest)
    }
    this.entries.set(tokenHash, { user, until: Math.min(expiresAt, now + this.ttlMs) })
  }

  /** A session ended: here at once, on other instances when they hear it. */
  async endSession(tokenHash: string): Promise<void> {
    this.dropped({ token: tokenHash })
    this.entries.delete(tokenHash)
    if (this.db.listen) await this.db.notify(CHANNEL, `token:${tokenHash}`)
  }

  /** A user's sessions ended or the user changed (name): every entry of the user goes. */
  async forgetUser(userId: number): Promise<void> {
    this.dropUser(userId)
    if (this.db.listen) await this.db.notify(CHANNEL, `user:${userId}`)
  }

  /** Whether nothing dropped since `stamp` concerns this token or user (or everything). */
  private unchangedSince(stamp: number, tokenHash: string, userId: number): boolean {
    if (stamp === this.generation) return true
    const oldest = this.drops[0]
    // Drops older than those remembered are unknown: assume they concerned this one.
    if (!oldest || oldest.generation > stamp + 1) return false
    return this.drops.every(
      (drop) =>
        drop.generation <= stamp ||
        (drop.token !== undefined && drop.token !== tokenHash) ||
        (drop.user !== undefined && drop.user !== userId),
    )
  }

  private dropped(what: { token?: string; user?: number }): void {
    this.generation++
    this.drops.push({ generation: this.generation, ...what })
    if (this.drops.length > 64) this.drops.shift()
  }

  private dropUser(userId: number): void {
    this.dropped({ user: userId })
    for (const [key, entry] of this.entries) if (entry.user.id === userId) this.entries.delete(key)
  }

  private apply(payload: string): void {
    if (payload.startsWith('token:')) {
      const token = payload.slice('token:'.length)
      this.dropped({ token })
      this.entries.delete(token)
    } else if (payload.startsWith('user:')) this.dropUser(Number(payload.slice('user:'.length)))
    else this.dropped({})
    // What another instance announced has been applied here (tests wait for it).
    this.emit('heard', payload)
  }
}

const shared = new WeakMap<Database, SessionCache>()

/** The one cache of a database object: app instances given the same `db` share it. */
export function sessionCacheFor(db: Database, ttlMs: number): SessionCache {
  let cache = shared.get(db)
  if (!cache) {
    cache = new SessionCache(db, ttlMs)
    shared.set(db, cache)
  }
  return cache
}
