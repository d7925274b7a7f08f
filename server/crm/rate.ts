import type { Queryable } from '../db/database.ts'

/**
 * A vendor's rate kept by every instance at once (docs/crm.md, "Rates"): each call first reserves
 * its moment in the database, as the generic cell rate algorithm does (one row per CRM account,
 * `crm_rates.tat`, the theoretical arrival time of the next call). `perSecond` calls a second on
 * average, and up to `burst` at once after a pause. One statement per call; the caller waits the
 * time it is told before it sends.
 */
export interface Rate {
  perSecond: number
  burst: number
}

/** Reserves the next moment for a call under `key`: the milliseconds to wait before making it. */
export async function reserve(db: Queryable, key: string, rate: Rate): Promise<number> {
  const interval = 1 / rate.perSecond
  const tolerance = (Math.max(1, rate.burst) - 1) * interval
  const { rows } = await db.query<{ wait_ms: number }>(
    `INSERT INTO crm_rates AS r (key, tat) VALUES ($1, clock_timestamp() + make_interval(secs => $2))
     ON CONFLICT (key) DO UPDATE
       SET tat = GREATEST(r.tat, clock_timestamp()) + make_interval(secs => $2)
     RETURNING GREATEST(0, EXTRACT(EPOCH FROM (r.tat - clock_timestamp())) - $2 - $3)
       * 1000 AS wait_ms`,
    [key, interval, tolerance],
  )
  return Number(rows[0]!.wait_ms)
}

/**
 * The vendor refused a call for its rate (amoCRM's 429, Bitrix24's QUERY_LIMIT_EXCEEDED): no
 * call under `key` from any instance for `pauseMs`.
 */
export async function pause(
  db: Queryable,
  key: string,
  rate: Rate,
  pauseMs: number,
): Promise<void> {
  const tolerance = (Math.max(1, rate.burst) - 1) / rate.perSecond
  await db.query(
    `INSERT INTO crm_rates AS r (key, tat)
       VALUES ($1, clock_timestamp() + make_interval(secs => $2 + $3))
     ON CONFLICT (key) DO UPDATE
       SET tat = GREATEST(r.tat, clock_timestamp() + make_interval(secs => $2 + $3))`,
    [key, pauseMs / 1000, tolerance],
  )
}

/** Where an instance keeps its rates: the database (PostgreSQL, shared) or its memory. */
export interface RateGate {
  /** The milliseconds to wait before the call it reserves a moment for. */
  reserve(key: string, rate: Rate): Promise<number>
  /** No call under `key` for `pauseMs`. */
  pause(key: string, rate: Rate, pauseMs: number): Promise<void>
}

/** PostgreSQL: the rates every instance shares (crm_rates). */
export class DatabaseRates implements RateGate {
  constructor(private readonly db: Queryable) {}
  reserve(key: string, rate: Rate): Promise<number> {
    return reserve(this.db, key, rate)
  }
  pause(key: string, rate: Rate, pauseMs: number): Promise<void> {
    return pause(this.db, key, rate, pauseMs)
  }
}

/**
 * PGlite: one process is the only instance there can be, so the same algorithm in its memory keeps
 * the rate as the table would, without a statement per call on the database's one thread.
 */
export class MemoryRates implements RateGate {
  private readonly tat = new Map<string, number>()

  constructor(private readonly now: () => number = Date.now) {}

  reserve(key: string, rate: Rate): Promise<number> {
    const interval = 1000 / rate.perSecond
    const tolerance = (Math.max(1, rate.burst) - 1) * interval
    const now = this.now()
    const next = Math.max(this.tat.get(key) ?? now, now) + interval
    this.tat.set(key, next)
    return Promise.resolve(Math.max(0, next - interval - tolerance - now))
  }

  pause(key: string, rate: Rate, pauseMs: number): Promise<void> {
    const tolerance = ((Math.max(1, rate.burst) - 1) * 1000) / rate.perSecond
    const until = this.now() + pauseMs + tolerance
    this.tat.set(key, Math.max(this.tat.get(key) ?? 0, until))
    return Promise.resolve()
  }
}
