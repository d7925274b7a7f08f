/**
 * Limits on the calls anyone may make without a session — sign-in, registration, password reset —
 * kept in this process's memory (docs/API.md, "Limits"; server/README.md for several instances).
 *
 * Each limit is a counter per key that lets some attempts through freely and then, for each further
 * one, makes the key wait twice as long as the time before (1 s, 2 s, 4 s, …) up to a cap. A key is
 * forgotten `forgetMs` after its last counted attempt. Time comes from an injected clock.
 */
export interface BackoffRule {
  /** Attempts let through before the first wait (the one after them waits `baseMs`). */
  free: number
  /** The first wait. */
  baseMs: number
  /** The longest wait. */
  capMs: number
  /** A key with no counted attempt for this long starts over. */
  forgetMs: number
}

interface Entry {
  count: number
  last: number
  blockedUntil: number
}

const MAX_KEYS = 50_000

export class Backoff {
  private readonly entries = new Map<string, Entry>()

  constructor(
    readonly rule: BackoffRule,
    private readonly now: () => number,
  ) {}

  private entry(key: string): Entry | undefined {
    const entry = this.entries.get(key)
    if (entry && this.now() - entry.last > this.rule.forgetMs) {
      this.entries.delete(key)
      return undefined
    }
    return entry
  }

  /** Milliseconds the key must still wait; 0 when it may try now. */
  wait(key: string): number {
    const entry = this.entry(key)
    return entry ? Math.max(0, entry.blockedUntil - this.now()) : 0
  }

  /** Counts an attempt (a failure, or any attempt for limits on volume). */
  count(key: string): void {
    const now = this.now()
    if (this.entries.size >= MAX_KEYS) this.sweep(now)
    const entry = this.entry(key) ?? { count: 0, last: now, blockedUntil: 0 }
    entry.count += 1
    entry.last = now
    const over = entry.count - this.rule.free
    if (over >= 0) {
      const delay = Math.min(this.rule.capMs, this.rule.baseMs * 2 ** Math.min(over, 30))
      entry.blockedUntil = now + delay
    }
    this.entries.set(key, entry)
  }

  clear(key: string): void {
    this.entries.delete(key)
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.entries) {
      if (now - entry.last > this.rule.forgetMs) this.entries.delete(key)
    }
    // Still full (a flood of distinct keys): drop the oldest half rather than grow without end.
    if (this.entries.size >= MAX_KEYS) {
      let drop = this.entries.size / 2
      for (const key of this.entries.keys()) {
        if (drop-- <= 0) break
        this.entries.delete(key)
      }
    }
  }
}

export interface ThrottleSettings {
  /** Failed sign-ins of one account from one address. */
  accountAtAddress: BackoffRule
  /**
   * Failed sign-ins of one account from addresses it has not signed in from lately. Its cap is what
   * someone else's guesses can cost the owner at most: one minute.
   */
  account: BackoffRule
  /** Failed sign-ins from one address, whatever the account (password spraying). */
  address: BackoffRule
  /** Registrations from one address. */
  register: BackoffRule
  /** Reset links asked for from one address. */
  forgotAddress: BackoffRule
  /** Reset links asked for one account. */
  forgotAccount: BackoffRule
  /** Reset attempts with a token that does not work, from one address. */
  reset: BackoffRule
  /** Invitations sent by one person (docs/API.md, "Members"). */
  inviter: BackoffRule
  /** Invitations sent to one address, whoever sends them. */
  invitee: BackoffRule
  /** How long an address an account signed in from counts as the owner's. */
  knownAddressMs: number
}

const SECOND = 1000
const MINUTE = 60 * SECOND

export const DEFAULT_THROTTLE: ThrottleSettings = {
  accountAtAddress: { free: 5, baseMs: SECOND, capMs: MINUTE, forgetMs: 15 * MINUTE },
  account: { free: 10, baseMs: SECOND, capMs: MINUTE, forgetMs: 15 * MINUTE },
  address: { free: 20, baseMs: SECOND, capMs: 15 * MINUTE, forgetMs: 60 * MINUTE },
  register: { free: 10, baseMs: SECOND, capMs: 15 * MINUTE, forgetMs: 60 * MINUTE },
  forgotAddress: { free: 10, baseMs: SECOND, capMs: 15 * MINUTE, forgetMs: 60 * MINUTE },
  // Capped at a minute: someone else asking for links must not keep the owner from one for long.
  forgotAccount: { free: 3, baseMs: 30 * SECOND, capMs: MINUTE, forgetMs: 60 * MINUTE },
  reset: { free: 10, baseMs: SECOND, capMs: 15 * MINUTE, forgetMs: 60 * MINUTE },
  inviter: { free: 20, baseMs: SECOND, capMs: 15 * MINUTE, forgetMs: 60 * MINUTE },
  // Capped at a minute, as sign-ins of one account: others' invitations must not keep one back long.
  invitee: { free: 10, baseMs: SECOND, capMs: MINUTE, forgetMs: 15 * MINUTE },
  knownAddressMs: 30 * 24 * 60 * MINUTE,
}

/** What a limited call answers: the seconds to wait (at least 1). */
export class Throttled extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    readonly messageKey: string,
  ) {
    super(messageKey)
  }
}

/**
 * A peer on this machine is a proxy of our own (without TRUST_PROXY) or a test, not a client: the
 * limits per address leave it alone (the limits per account still apply). Behind a proxy, set
 * TRUST_PROXY so each client has its own address (server/README.md).
 */
export function isLocalAddress(address: string): boolean {
  return address === 'local' || address === '::1' || address.startsWith('127.')
}

function throwIfWaiting(waitMs: number, messageKey = 'rate_limited'): void {
  if (waitMs > 0) throw new Throttled(Math.max(1, Math.ceil(waitMs / 1000)), messageKey)
}

/**
 * The limits of docs/API.md. Sign-in: the failures of an account count against it only from
 * addresses it has not signed in from lately, and that lock is capped at a minute, so a stranger's
 * guesses never keep the owner out longer; an address that fails on many accounts waits longer and
 * longer (up to 15 minutes), except for an account that signed in from it before.
 */
export class Throttle {
  private readonly accountAtAddress: Backoff
  private readonly account: Backoff
  private readonly address: Backoff
  private readonly register: Backoff
  private readonly forgotAddress: Backoff
  private readonly forgotAccount: Backoff
  private readonly reset: Backoff
  private readonly inviter: Backoff
  private readonly invitee: Backoff
  /** account → address → last successful sign-in. */
  private readonly known = new Map<string, Map<string, number>>()

  constructor(
    private readonly settings: ThrottleSettings,
    private readonly now: () => number,
  ) {
    this.accountAtAddress = new Backoff(settings.accountAtAddress, now)
    this.account = new Backoff(settings.account, now)
    this.address = new Backoff(settings.address, now)
    this.register = new Backoff(settings.register, now)
    this.forgotAddress = new Backoff(settings.forgotAddress, now)
    this.forgotAccount = new Backoff(settings.forgotAccount, now)
    this.reset = new Backoff(settings.reset, now)
    this.inviter = new Backoff(settings.inviter, now)
    this.invitee = new Backoff(settings.invitee, now)
  }

  private isKnown(account: string, address: string): boolean {
    const at = this.known.get(account)?.get(address)
    return at !== undefined && this.now() - at <= this.settings.knownAddressMs
  }

  /** Before a sign-in is checked (before any password hashing): throws Throttled to refuse it. */
  checkLogin(account: string, address: string): void {
    const known = this.isKnown(account, address)
    throwIfWaiting(
      Math.max(
        this.accountAtAddress.wait(`${account}|${address}`),
        known ? 0 : this.account.wait(account),
        known || isLocalAddress(address) ? 0 : this.address.wait(address),
      ),
      'rate_limited_login',
    )
  }

  loginFailed(account: string, address: string): void {
    this.accountAtAddress.count(`${account}|${address}`)
    if (!this.isKnown(account, address)) {
      this.account.count(account)
      if (!isLocalAddress(address)) this.address.count(address)
    }
  }

  loginSucceeded(account: string, address: string): void {
    this.accountAtAddress.clear(`${account}|${address}`)
    let addresses = this.known.get(account)
    if (!addresses) {
      if (this.known.size >= MAX_KEYS) this.known.clear()
      addresses = new Map()
      this.known.set(account, addresses)
    }
    // A handful of addresses per account is plenty; the oldest goes first.
    if (addresses.size >= 20) addresses.delete(addresses.keys().next().value!)
    addresses.delete(address)
    addresses.set(address, this.now())
  }

  /** Counts a registration from the address, refusing it when the address must wait. */
  registerAttempt(address: string): void {
    if (isLocalAddress(address)) return
    throwIfWaiting(this.register.wait(address))
    this.register.count(address)
  }

  /** Counts a reset link asked for, refusing it when the address or the account must wait. */
  forgotAttempt(account: string, address: string): void {
    const local = isLocalAddress(address)
    throwIfWaiting(
      Math.max(local ? 0 : this.forgotAddress.wait(address), this.forgotAccount.wait(account)),
    )
    if (!local) this.forgotAddress.count(address)
    this.forgotAccount.count(account)
  }

  checkReset(address: string): void {
    if (!isLocalAddress(address)) throwIfWaiting(this.reset.wait(address))
  }

  resetFailed(address: string): void {
    if (!isLocalAddress(address)) this.reset.count(address)
  }

  /**
   * Counts an invitation (any, whether the address is registered or not: the limit itself must
   * tell nothing), refusing it when its sender or its address must wait.
   */
  inviteAttempt(inviterId: number, email: string): void {
    throwIfWaiting(Math.max(this.inviter.wait(String(inviterId)), this.invitee.wait(email)))
    this.inviter.count(String(inviterId))
    this.invitee.count(email)
  }
}
