import * as v from 'valibot'
import { FieldCode, Id, IdParam } from './validation.ts'

/**
 * Analytics of published pages (docs/analytics.md): `GET /api/analytics/summary`'s query and
 * answer, shared by the app and the server. Days are Moscow days, written `YYYY-MM-DD`.
 */

/** A visitor's device class, told from the User-Agent. */
export const DEVICES = ['phone', 'tablet', 'computer'] as const
export type Device = (typeof DEVICES)[number]

/** The longest period one summary covers, in days. */
export const SUMMARY_MAX_DAYS = 366

/** The source of visits with neither `utm_source` nor another site's referrer («прямые заходы»). */
export const DIRECT_SOURCE = ''

const DAY_SHAPE = /^\d{4}-\d{2}-\d{2}$/

/** Whether `YYYY-MM-DD` names a real calendar day. */
export function isDay(s: string): boolean {
  if (!DAY_SHAPE.test(s)) return false
  const date = new Date(`${s}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === s
}

/** The day `n` days after `day` (before, when negative). */
export function addDays(day: string, n: number): string {
  const date = new Date(`${day}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() + n)
  return date.toISOString().slice(0, 10)
}

/** Every day from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = []
  for (let day = from; day <= to && out.length <= SUMMARY_MAX_DAYS; day = addDays(day, 1)) {
    out.push(day)
  }
  return out
}

const Day = v.pipe(v.string(FieldCode.invalidDate), v.check(isDay, FieldCode.invalidDate))

export const SummaryQuery = v.pipe(
  v.object({
    workspace_id: IdParam,
    from: Day,
    to: Day,
    project_id: v.optional(IdParam),
  }),
  v.forward(
    v.check(
      (q) => q.from <= q.to && daysBetween(q.from, q.to).length <= SUMMARY_MAX_DAYS,
      FieldCode.outOfRange,
    ),
    ['to'],
  ),
)
export type SummaryQuery = v.InferOutput<typeof SummaryQuery>

const Count = v.pipe(v.number(), v.integer(), v.minValue(0))
/** submissions / visitors, 0 when there were no visitors. */
const Fraction = v.pipe(v.number(), v.minValue(0))

export const AnalyticsSummary = v.object({
  totals: v.object({
    views: Count,
    visitors: Count,
    submissions: Count,
    clicks: Count,
    conversion: Fraction,
  }),
  days: v.array(v.object({ date: Day, views: Count, visitors: Count, submissions: Count })),
  projects: v.array(
    v.object({
      project_id: Id,
      name: v.string(),
      views: Count,
      visitors: Count,
      submissions: Count,
      conversion: Fraction,
    }),
  ),
  sources: v.array(
    v.object({ source: v.string(), views: Count, visitors: Count, submissions: Count }),
  ),
  devices: v.array(v.object({ device: v.picklist(DEVICES), views: Count })),
})
export type AnalyticsSummary = v.InferOutput<typeof AnalyticsSummary>

/** submissions / visitors as a fraction 0…1 (more requests than visitors: still 1 at most). */
export function conversion(submissions: number, visitors: number): number {
  if (visitors <= 0) return 0
  return Math.min(1, submissions / visitors)
}
