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
