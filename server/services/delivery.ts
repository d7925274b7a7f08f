import { randomBytes } from 'node:crypto'
import { EventEmitter, setMaxListeners } from 'node:events'
import type { Database, Queryable } from '../db/database.ts'
import { AmoChannel } from '../crm/amo.ts'
import { BitrixChannel, bitrixRateKey } from '../crm/bitrix.ts'
import { HookChannel } from '../crm/hook.ts'
import { Outbound, type OutboundRequest } from '../crm/outbound.ts'
import { DatabaseRates, MemoryRates, type Rate, type RateGate } from '../crm/rate.ts'
import type { AppealForDelivery, Attempt, Call, Failure, Lookup } from '../crm/types.ts'
import type { Logger } from '../common/log.ts'
import type { AmoTarget } from '../storage/amo-auth.ts'
import { Batches } from '../common/batches.ts'
import {
  claimDue,
  finish,
  finishDelivered,
  hookSecret,
  waitForIntegration,
  type ClaimedDelivery,
  type Outcome,
} from '../storage/deliveries.ts'

/**
 * The delivery queue (docs/crm.md, "The queue"): each instance claims due deliveries from the
 * database (FOR UPDATE SKIP LOCKED, then a lease), sends each to its CRM, and writes how it went
 * under the lease's token. A queue of our own rather than pg-boss: docs/crm.md, "Why a queue of
 * our own, not pg-boss".
 *
 * - A claim marks the delivery `unsure` before anything is sent; a kill -9 at any moment leaves it
 *   so, and the next claim (after the lease) looks the request up in the CRM by its key before
 *   sending again; so does every attempt after one that may have reached the CRM unanswered.
 * - Network errors, timeouts, 5xx and the vendors' rate refusals are retried with exponential
 *   backoff and full jitter (`random(0, min(cap, base·2^n))`), never sooner than Retry-After;
 *   after `giveUpMs` of trying the delivery fails. Other refusals fail at once.
 * - Each call first reserves its moment under the account's rate (crm/rate.ts), in the database,
 *   so instances together keep the vendor's rate.
 */

export interface DeliverySettings {
  /** Every outbound call's deadline (default 15 s). */
  timeoutMs?: number
  /** How long a claim holds a delivery (default 2 minutes). */
  leaseMs?: number
  /** How often the queue looks for due deliveries besides being woken (default 1 s). */
  pollMs?: number
  /**
   * Deliveries under way at once in this instance (default 48). Each mostly waits: for its CRM's
   * answer, its rate, the database; with 16, a burst of requests outran the queue (docs/crm.md,
   * "Requests written together", has the figures).
   */
  concurrency?: number
  /** Backoff: first retry within `baseMs` (default 5 s), the ceiling doubling to `capMs` (4 h). */
  backoff?: { baseMs?: number; capMs?: number }
  /** How long a delivery is tried before it fails (default 24 h). */
  giveUpMs?: number
  /** The vendors' rates (docs/crm.md, "Rates"). */
  rates?: { amo?: Rate; bitrix?: Rate; hook?: Rate }
  /** A rate wait longer than this hands the delivery back for later (default a quarter lease). */
  maxRateWaitMs?: number
  /** amoCRM: refresh an access token with less than this left (default 10 minutes). */
  refreshAheadMs?: number
  /** Every outbound call to `{testOrigin}/{host}{path}`, no address guard (tests only). */
  testOrigin?: string
  /** Start the queue with the app (default true). */
  enabled?: boolean
  random?: () => number
  /** Tests: called at each step of a delivery; may call `kill()` to stop the process there. */
  onStep?: (step: DeliveryStep, deliveryId: number) => void
}

/** Where a delivery is: claimed, a call about to go out, the CRM's answer in hand. */
export type DeliveryStep = 'claimed' | 'calling' | 'answered'

export const DEFAULT_RATES = {
  // amoCRM: 7 calls a second per integration and account. 5, evenly spaced, keeps a margin for
  // the calls' jitter under a rolling one-second window: eight calls would have to arrive within
  // a second, 1.4 s of pacing squeezed by 400 ms (at 6, 167 ms was enough: a loaded test machine
  // saw one refusal in 60 calls).
  amo: { perSecond: 5, burst: 1 },
  // Bitrix24: a bucket of 50 draining 2 a second; 40 keeps a margin of 10 calls.
  bitrix: { perSecond: 2, burst: 40 },
  // Someone's own web server: a modest pace.
  hook: { perSecond: 10, burst: 10 },
} satisfies Record<string, Rate>

/** The queue stopped (or the simulated process died) while a delivery was under way. */
class Stopped extends Error {}
/** Not enough of the lease left, or too long a wait for the rate: hand the delivery back. */
class HandBack extends Error {
  constructor(readonly delayMs: number) {
    super('hand back')
  }
}

export class DeliveryQueue {
  private readonly outbound: Outbound
  private readonly amo: AmoChannel
  private readonly bitrix: BitrixChannel
  private readonly hook: HookChannel
  private readonly timeoutMs: number
  private readonly leaseMs: number
  private readonly pollMs: number
  private readonly concurrency: number
  private readonly baseMs: number
  private readonly capMs: number
  private readonly giveUpMs: number
  private readonly rates: { amo: Rate; bitrix: Rate; hook: Rate }
  private readonly maxRateWaitMs: number
  private readonly random: () => number
  private readonly inflight = new Set<Promise<void>>()
  private running: Promise<void> | undefined
  private stopping = false
  private dead = false
  private woken = false
  private wakeUp: (() => void) | undefined
  /** Aborted on stop and kill: waits for a rate or the next poll end at once. */
  private readonly abort = new AbortController()
  /** The database as the deliveries see it: refused once the simulated process died. */
  private readonly guardedDb: Queryable
  /** The vendors' rates: shared through the database on PostgreSQL, in memory on PGlite. */
  private readonly rateGate: RateGate
  /** Deliveries that end delivered while others are being written go in the next statement. */
  private readonly delivered: Batches<
    { id: number; token: string; crmId: string | null; attempted: boolean },
    boolean
  >
  /**
   * Says 'change' after each delivery this instance took up has ended, and 'round' after each
   * look for due deliveries (tests wait on these, not on time).
   */
  readonly events = new EventEmitter()

  constructor(
    private readonly db: Database,
    private readonly settings: DeliverySettings = {},
    private readonly log: Logger = () => undefined,
  ) {
    this.outbound = new Outbound({ testOrigin: settings.testOrigin })
    this.timeoutMs = settings.timeoutMs ?? 15_000
    this.leaseMs = settings.leaseMs ?? 120_000
    this.pollMs = settings.pollMs ?? 1_000
    this.concurrency = settings.concurrency ?? 48
    this.baseMs = settings.backoff?.baseMs ?? 5_000
    this.capMs = settings.backoff?.capMs ?? 4 * 3_600_000
    this.giveUpMs = settings.giveUpMs ?? 24 * 3_600_000
    this.rates = { ...DEFAULT_RATES, ...settings.rates }
    this.maxRateWaitMs = settings.maxRateWaitMs ?? this.leaseMs / 4
    this.random = settings.random ?? Math.random
    // Every delivery waiting for its rate listens to it.
    setMaxListeners(0, this.abort.signal)
    const live = () => {
      if (this.dead) throw new Stopped('the process died')
    }
    this.guardedDb = {
      query: (text, params) => (live(), db.query(text, params)),
      exec: (sql) => (live(), db.exec(sql)),
    }
    this.rateGate = db.engine === 'pglite' ? new MemoryRates() : new DatabaseRates(this.guardedDb)
    this.delivered = new Batches(
      (done) => finishDelivered(this.guardedDb, done),
      this.concurrency,
      db.engine === 'pglite' ? 1 : 4,
    )
    this.amo = new AmoChannel(this.guardedDb, {
      timeoutMs: this.timeoutMs,
      refreshAheadMs: settings.refreshAheadMs ?? 10 * 60_000,
      now: Date.now,
    })
    this.bitrix = new BitrixChannel({ timeoutMs: this.timeoutMs })
    this.hook = new HookChannel({ timeoutMs: this.timeoutMs })
  }

  /** amoCRM's channel, for the integrations' own calls (check, connect: services/integrations.ts). */
  get amoChannel(): AmoChannel {
    return this.amo
  }
  get bitrixChannel(): BitrixChannel {
    return this.bitrix
  }

  /** A call outside a delivery (check, OAuth): paced by the account's rate, no lease. */
  plainCall: Call = async (request, rateKey) => {
    if (rateKey) await this.waitForRate(rateKey)
    return this.outbound.send(request)
  }

  /** Starts claiming (the app does unless `enabled` is false). */
  start(): void {
    if (this.running || this.stopping) return
    this.running = this.loop().catch((error: unknown) =>
      this.log({ level: 'error', event: 'delivery_queue_failed', message: String(error) }),
    )
  }

  /** Something may be due now (a request was just written, a delivery re-queued). */
  wake(): void {
    this.woken = true
    this.wakeUp?.()
  }

  /** Stops claiming; deliveries under way finish (their waits for a rate end: handed back). */
  async stop(): Promise<void> {
    this.stopping = true
    this.abort.abort()
    this.wakeUp?.()
    await this.running
    await Promise.allSettled([...this.inflight])
    this.outbound.close()
  }

  /**
   * Tests: the process dies here, as with kill -9. Nothing more is written to the database and no
   * call is made; calls already sent run on in the CRM, unheard. Claims stay as they are until
   * their lease ends.
   */
  kill(): void {
    this.dead = true
    this.stopping = true
    this.abort.abort()
    this.wakeUp?.()
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      this.woken = false
      const free = this.concurrency - this.inflight.size
      // While deliveries are under way, claim in batches of a quarter of the slots at least: one
      // statement for several deliveries rather than one each time one ends.
      const batch = this.inflight.size === 0 ? 1 : Math.max(1, Math.floor(this.concurrency / 4))
      let claimed: ClaimedDelivery[] = []
      const token = randomBytes(12).toString('hex')
      const claimedAt = Date.now()
      if (free >= batch) {
        try {
          claimed = await claimDue(this.guardedDb, free, token, this.leaseMs, this.giveUpMs)
        } catch (error) {
          if (this.stopping) break
          this.log({ level: 'error', event: 'delivery_claim_failed', message: String(error) })
        }
        for (const delivery of claimed) this.launch(delivery, token, claimedAt)
        this.events.emit('round', claimed.length)
      }
      if (this.stopping) break
      if (free >= batch && claimed.length === free) continue
      if (this.woken) continue
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.pollMs)
        this.wakeUp = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      this.wakeUp = undefined
    }
  }

  private launch(delivery: ClaimedDelivery, token: string, claimedAt: number): void {
    const running = this.process(delivery, token, claimedAt)
      .catch((error: unknown) => {
        if (error instanceof Stopped) return
        this.log({
          level: 'error',
          event: 'delivery_failed_unexpectedly',
          delivery_id: delivery.id,
          message: error instanceof Error ? error.message : String(error),
        })
      })
      .finally(() => {
        this.inflight.delete(running)
        this.events.emit('change')
        this.wake()
      })
    this.inflight.add(running)
  }

  private step(step: DeliveryStep, id: number): void {
    this.settings.onStep?.(step, id)
    if (this.dead) throw new Stopped('the process died')
  }

  private rateFor(key: string): Rate {
    const kind = key.slice(0, key.indexOf(':')) as 'amo' | 'bitrix' | 'hook'
    return this.rates[kind] ?? this.rates.hook
  }

  private async sleep(ms: number): Promise<void> {
    if (ms <= 0) return
    await new Promise<void>((resolve, reject) => {
      if (this.abort.signal.aborted) return reject(new Stopped('stopping'))
      const timer = setTimeout(() => {
        this.abort.signal.removeEventListener('abort', onAbort)
        resolve()
      }, ms)
      const onAbort = () => {
        clearTimeout(timer)
        reject(new Stopped('stopping'))
      }
      this.abort.signal.addEventListener('abort', onAbort, { once: true })
    })
  }

  private async waitForRate(key: string): Promise<void> {
    const wait = await this.rateGate.reserve(key, this.rateFor(key))
    await this.sleep(wait)
  }

  private async process(
    delivery: ClaimedDelivery,
    token: string,
    claimedAt: number,
  ): Promise<void> {
    this.step('claimed', delivery.id)
    const deadline = claimedAt + this.leaseMs - 1_000
    let unsure = delivery.was_unsure
    /** One call of this delivery: its rate, the lease it must fit in, the steps tests watch. */
    const call: Call = async (request: OutboundRequest, rateKey: string | null) => {
      if (rateKey) {
        const wait = await this.rateGate.reserve(rateKey, this.rateFor(rateKey))
        if (wait > this.maxRateWaitMs) throw new HandBack(wait)
        await this.sleep(wait)
      }
      if (Date.now() + request.timeoutMs > deadline) throw new HandBack(0)
      this.step('calling', delivery.id)
      return this.outbound.send(request)
    }
    const write = async (outcome: Outcome) => {
      this.step('answered', delivery.id)
      if (outcome.state === 'delivered') {
        await this.delivered.run({ id: delivery.id, token, ...outcome })
      } else {
        await finish(this.guardedDb, delivery.id, token, outcome)
      }
    }
    try {
      await this.deliver(delivery, call, write, {
        get: () => unsure,
        set: (value: boolean) => (unsure = value),
      })
    } catch (error) {
      if (error instanceof HandBack) {
        await write({
          state: 'queued',
          code: '',
          detail: '',
          attempted: false,
          delayMs: error.delayMs,
          unsure,
        })
        return
      }
      if (error instanceof Stopped && !this.dead) {
        // Stopping gracefully while waiting for a rate: hand it back for the next instance.
        await finish(this.db, delivery.id, token, {
          state: 'queued',
          code: '',
          detail: '',
          attempted: false,
          delayMs: 0,
          unsure,
        })
        return
      }
      throw error
    }
  }

  private async deliver(
    delivery: ClaimedDelivery,
    call: Call,
    write: (outcome: Outcome) => Promise<void>,
    unsure: { get(): boolean; set(value: boolean): void },
  ): Promise<void> {
    const appeal = delivery.appeal
    if (!appeal) return
    if (appeal.status === 'spam') {
      return write({ state: 'skipped', code: 'spam', detail: '', attempted: false })
    }
    const gone = (target: { workspace_id: number; enabled: boolean } | null) =>
      !target || target.workspace_id !== appeal.workspace_id
        ? write({ state: 'skipped', code: 'integration_deleted', detail: '', attempted: false })
        : !target.enabled
          ? write({ state: 'skipped', code: 'integration_disabled', detail: '', attempted: false })
          : null
    let target: {
      send: () => Promise<Attempt>
      lookup?: () => Promise<Lookup>
      rateKey: string | null
      amo?: AmoTarget
    }
    if (delivery.integration_kind === 'amo') {
      const amo = delivery.amo
      const skipped = gone(amo)
      if (skipped || !amo) return skipped ?? undefined
      target = {
        send: () => this.amo.send(amo, appeal, call),
        lookup: () => this.amo.lookup(amo, appeal, call),
        rateKey: this.amo.rateKey(amo),
        amo,
      }
    } else if (delivery.integration_kind === 'bitrix') {
      const bitrix = delivery.bitrix
      const skipped = gone(bitrix)
      if (skipped || !bitrix) return skipped ?? undefined
      target = {
        send: () => this.bitrix.send(bitrix, appeal, call),
        lookup: () => this.bitrix.lookup(bitrix, appeal, call),
        rateKey: bitrixRateKey(bitrix),
      }
    } else {
      const secret = delivery.hook_secret ?? (await hookSecret(this.guardedDb, appeal.workspace_id))
      target = {
        send: () => this.hook.send(delivery.hook_url, secret, appeal, call),
        rateKey: null,
      }
    }

    // After an attempt that may have reached the CRM, find the request there before sending.
    if (unsure.get() && target.lookup) {
      const found = await target.lookup()
      if ('ok' in found) return this.failed(delivery, appeal, target, found, unsure.get(), write)
      if (found.found !== null) {
        return write({ state: 'delivered', crmId: found.found, attempted: true })
      }
      unsure.set(false)
    }
    const attempt = await target.send()
    if (attempt.ok) return write({ state: 'delivered', crmId: attempt.crmId, attempted: true })
    if (attempt.sent) unsure.set(true)
    return this.failed(delivery, appeal, target, attempt, unsure.get(), write)
  }

  private async failed(
    delivery: ClaimedDelivery,
    appeal: AppealForDelivery,
    target: { rateKey: string | null; amo?: AmoTarget },
    failure: Failure,
    unsure: boolean,
    write: (outcome: Outcome) => Promise<void>,
  ): Promise<void> {
    const detail = failure.detail ?? ''
    if (failure.block && target.amo) {
      // amoCRM refused the token: this delivery and the integration's others wait, with a fresh
      // day of tries once it works again. Not an attempt.
      await waitForIntegration(this.guardedDb, target.amo.id)
      return write({
        state: 'queued',
        code: failure.code,
        detail,
        attempted: false,
        delayMs: 0,
        unsure,
      })
    }
    this.log({
      level: 'warn',
      event: 'delivery_attempt_failed',
      delivery_id: delivery.id,
      appeal_id: appeal.id,
      target: delivery.integration_kind,
      integration_id: delivery.integration_id,
      code: failure.code,
      retry: failure.retry,
    })
    if (!failure.retry) {
      return write({ state: 'failed', code: failure.code, detail, attempted: true })
    }
    if (failure.rate && target.rateKey) {
      const rate = this.rateFor(target.rateKey)
      await this.rateGate.pause(target.rateKey, rate, failure.retryAfterMs ?? 1_000)
    }
    if (failure.free) {
      return write({
        state: 'queued',
        code: failure.code,
        detail,
        attempted: false,
        delayMs: failure.retryAfterMs ?? 1_000,
        unsure,
      })
    }
    const attempts = delivery.attempts + 1
    const ceiling = Math.min(this.capMs, this.baseMs * 2 ** Math.min(attempts - 1, 40))
    const delayMs = Math.max(failure.retryAfterMs ?? 0, this.random() * ceiling)
    if (await this.pastGiveUp(delivery.id, delayMs)) {
      return write({ state: 'failed', code: failure.code, detail, attempted: true })
    }
    return write({ state: 'queued', code: failure.code, detail, attempted: true, delayMs, unsure })
  }

  /** Whether the next try, `delayMs` from now, would come after the delivery's day is over. */
  private async pastGiveUp(id: number, delayMs: number): Promise<boolean> {
    const { rows } = await this.guardedDb.query<{ past: boolean }>(
      `SELECT COALESCE(give_up_at < clock_timestamp() + make_interval(secs => $2), false) AS past
       FROM appeal_deliveries WHERE id = $1`,
      [id, delayMs / 1000],
    )
    return rows[0]?.past ?? false
  }
}
