import { createHash, randomBytes } from 'node:crypto'
import type { Database, Queryable } from '../db/database.ts'
import type { Logger } from '../common/log.ts'
import { deviceOf, moscowDay, sourceOf } from './classify.ts'

/** What the counter needs of one view or click (docs/analytics.md). */
export interface Visit {
  /** The client's address and User-Agent: hashed with the day's salt, never stored as they are. */
  address: string
  userAgent: string
  utmSource: string | null
  referrer: string | null
  /** The host the page was asked of: a referrer from it is no source. */
  host: string | null
}

export interface CounterSettings {
  /** How often gathered counts are written (default 1 s). */
  flushEveryMs?: number
  /** The clock (tests move it). Default Date.now. */
  now?: () => number
  log?: Logger
}

interface Row {
  project_id: number
  day: string
  source: string
  device: string
  views: number
  visitors: number
  clicks: number
}

interface Batch {
  rows: Map<string, Row>
  /** The first view of each address + User-Agent per page and day in this batch: its row. */
  visitors: Map<string, { day: string; project_id: number; who: string; row: Row }>
}

const emptyBatch = (): Batch => ({ rows: new Map(), visitors: new Map() })

/** After a day ends, how long its salt and visitors' hashes are kept for late batches. */
const GRACE_MS = 10 * 60_000
/** Hashes this instance knows are stored (today's), beyond which it forgets and asks again. */
const SEEN_MAX = 200_000

/**
 * Views and clicks of published pages gathered in memory and written in batches
 * (docs/analytics.md): one transaction per batch adds them to the per-day rows (additive upserts,
 * so several instances add up) and stores the day's new visitor hashes, whose insert tells which
 * visitors are new today on any instance. Counting is a few map operations: the page never waits
 * for the database. `close()` writes what is gathered.
 */
export class AnalyticsCounter {
  private batch = emptyBatch()
  private flushing: Promise<void> | null = null
  private timer: ReturnType<typeof setInterval> | undefined
  private readonly salts = new Map<string, string>()
  private seen = new Set<string>()
  private sweptBefore = ''
  private closed = false
  private readonly now: () => number
  /** Views and clicks written so far by this instance (benches and tests read them). */
  written = { views: 0, clicks: 0, batches: 0 }
  /** Called after each batch is written (tests wait on it instead of time). */
  onFlushed: (() => void) | null = null

  constructor(
    private readonly db: () => Promise<Database>,
    private readonly settings: CounterSettings = {},
  ) {
    this.now = settings.now ?? Date.now
    const every = settings.flushEveryMs ?? 1_000
    if (every > 0) {
      this.timer = setInterval(() => void this.flush(), every)
      this.timer.unref()
    }
  }

  /** Counts a view of the page of `projectId`. */
  view(projectId: number, visit: Visit): void {
    if (this.closed) return
    const day = moscowDay(this.now())
    const row = this.rowOf(projectId, day, visit)
    row.views += 1
    const who = `${visit.address}\n${visit.userAgent}`
    const key = `${day}|${projectId}|${who}`
    if (!this.batch.visitors.has(key)) {
      this.batch.visitors.set(key, { day, project_id: projectId, who, row })
    }
  }

  /** Counts a click on a button of the page of `projectId`. */
  click(projectId: number, visit: Visit): void {
    if (this.closed) return
    this.rowOf(projectId, moscowDay(this.now()), visit).clicks += 1
  }

  /** Views and clicks gathered and not yet written. */
  get pending(): number {
    let n = 0
    for (const row of this.batch.rows.values()) n += row.views + row.clicks
    return n
  }

  private rowOf(projectId: number, day: string, visit: Visit): Row {
    const source = sourceOf(visit.utmSource, visit.referrer, visit.host)
    const device = deviceOf(visit.userAgent)
    const key = `${projectId}|${day}|${source}|${device}`
    let row = this.batch.rows.get(key)
    if (!row) {
      row = { project_id: projectId, day, source, device, views: 0, visitors: 0, clicks: 0 }
      this.batch.rows.set(key, row)
    }
    return row
  }

  /** Writes what is gathered; one batch at a time (a call during one waits for it, then writes). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing
    if (this.batch.rows.size === 0) return
    const batch = this.batch
    this.batch = emptyBatch()
    this.flushing = this.write(batch)
      .catch((error: unknown) => {
        this.restore(batch)
        this.settings.log?.({
          level: 'error',
          event: 'analytics_write_failed',
          message: error instanceof Error ? error.message : String(error),
        })
      })
      .finally(() => {
        this.flushing = null
      })
    await this.flushing
  }

  /** A batch that could not be written is added back, to go with the next. */
  private restore(batch: Batch) {
    for (const [key, row] of batch.rows) {
      const kept = this.batch.rows.get(key)
      if (!kept) {
        this.batch.rows.set(key, row)
        continue
      }
      kept.views += row.views
      kept.clicks += row.clicks
    }
    for (const [key, visitor] of batch.visitors) {
      if (this.batch.visitors.has(key)) continue
      const row = this.batch.rows.get(
        `${visitor.project_id}|${visitor.day}|${visitor.row.source}|${visitor.row.device}`,
      )
      if (row) this.batch.visitors.set(key, { ...visitor, row })
    }
  }

  private async saltOf(db: Queryable, day: string): Promise<string> {
    const kept = this.salts.get(day)
    if (kept) return kept
    await db.query(
      'INSERT INTO analytics_salts (day, salt) VALUES ($1, $2) ON CONFLICT (day) DO NOTHING',
      [day, randomBytes(32).toString('base64')],
    )
    const { rows } = await db.query<{ salt: string }>(
      'SELECT salt FROM analytics_salts WHERE day = $1',
      [day],
    )
    const salt = rows[0]!.salt
    this.salts.set(day, salt)
    return salt
  }

  private async write(batch: Batch): Promise<void> {
    const db = await this.db()
    await this.sweep(db)
    // The visitors: salted hashes, those this instance has not stored yet.
    const hashes: { day: string; project_id: number; hash: string; row: Row }[] = []
    for (const visitor of batch.visitors.values()) {
      const salt = await this.saltOf(db, visitor.day)
      const hash = createHash('sha256')
        .update(`${salt}\n${visitor.who}`)
        .digest('base64url')
        .slice(0, 22)
      if (this.seen.has(`${visitor.day}|${visitor.project_id}|${hash}`)) continue
      hashes.push({ day: visitor.day, project_id: visitor.project_id, hash, row: visitor.row })
    }
    const rows = [...batch.rows.values()]
    await db.transaction(async (tx) => {
      // A batch tried before and given back may carry visitors of that attempt.
      for (const r of rows) r.visitors = 0
      if (hashes.length > 0) {
        const { rows: added } = await tx.query<{ day: string; project_id: number; hash: string }>(
          `INSERT INTO analytics_visitors (day, project_id, hash)
           SELECT * FROM unnest($1::date[], $2::int[], $3::text[])
           ON CONFLICT DO NOTHING
           RETURNING day::text AS day, project_id, hash`,
          [hashes.map((h) => h.day), hashes.map((h) => h.project_id), hashes.map((h) => h.hash)],
        )
        const rowOf = new Map(hashes.map((h) => [`${h.day}|${h.project_id}|${h.hash}`, h.row]))
        for (const a of added) {
          const row = rowOf.get(`${a.day}|${a.project_id}|${a.hash}`)
          if (row) row.visitors += 1
        }
      }
      // In the primary key's order, so that instances writing at once never deadlock.
      rows.sort((a, b) =>
        a.project_id !== b.project_id
          ? a.project_id - b.project_id
          : a.day < b.day
            ? -1
            : a.day > b.day
              ? 1
              : a.source < b.source
                ? -1
                : a.source > b.source
                  ? 1
                  : a.device < b.device
                    ? -1
                    : a.device > b.device
                      ? 1
                      : 0,
      )
      await tx.query(
        `INSERT INTO analytics_days
           (workspace_id, project_id, day, source, device, views, visitors, clicks)
         SELECT p.workspace_id, r.project_id, r.day, r.source, r.device, r.views, r.visitors,
                r.clicks
         FROM unnest($1::int[], $2::date[], $3::text[], $4::text[], $5::int[], $6::int[],
                     $7::int[]) WITH ORDINALITY
              AS r(project_id, day, source, device, views, visitors, clicks, n)
         JOIN projects p ON p.id = r.project_id
         ORDER BY r.n
         ON CONFLICT (project_id, day, source, device) DO UPDATE SET
           views = analytics_days.views + EXCLUDED.views,
           visitors = analytics_days.visitors + EXCLUDED.visitors,
           clicks = analytics_days.clicks + EXCLUDED.clicks`,
        [
          rows.map((r) => r.project_id),
          rows.map((r) => r.day),
          rows.map((r) => r.source),
          rows.map((r) => r.device),
          rows.map((r) => r.views),
          rows.map((r) => r.visitors),
          rows.map((r) => r.clicks),
        ],
      )
    })
    if (this.seen.size + hashes.length > SEEN_MAX) this.seen = new Set()
    for (const h of hashes) this.seen.add(`${h.day}|${h.project_id}|${h.hash}`)
    for (const r of rows) {
      this.written.views += r.views
      this.written.clicks += r.clicks
    }
    this.written.batches += 1
    this.onFlushed?.()
  }

  /**
   * Once a day has been over for a while, its salt and its visitors' hashes are deleted on every
   * instance (its counts stay): nobody can be followed into the next day.
   */
  private async sweep(db: Database): Promise<void> {
    const before = moscowDay(this.now() - GRACE_MS)
    if (before === this.sweptBefore) return
    await db.query('DELETE FROM analytics_visitors WHERE day < $1', [before])
    await db.query('DELETE FROM analytics_salts WHERE day < $1', [before])
    for (const day of this.salts.keys()) if (day < before) this.salts.delete(day)
    this.seen = new Set([...this.seen].filter((key) => key.slice(0, 10) >= before))
    this.sweptBefore = before
  }

  /** Stops the timer and writes what is gathered (a graceful stop). */
  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
    this.closed = true
    await this.flush()
  }
}
