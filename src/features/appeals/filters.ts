import { addDays } from '../../domain/analytics.ts'
import type { Appeal, AppealKind, AppealStatus } from '../../domain/appeal.ts'

/**
 * The pure rules of «Обращения» (docs/requests.md, "The app"): its filters, what the search looks
 * in, how a phone is written. No DOM, no React: tests/unit/appeals.test.ts.
 */

/** Period presets in Moscow days (today included), any time, or dates chosen. */
export type AppealPeriod = 'all' | 'today' | '7' | '30' | 'custom'

export interface AppealFilters {
  /** A project's id, or null for every project. */
  project: number | null
  kind: AppealKind | ''
  status: AppealStatus | ''
  period: AppealPeriod
  /** The chosen days (`YYYY-MM-DD`, Moscow), for `custom`; either may be ''. */
  from: string
  to: string
}

export const NO_FILTERS: AppealFilters = {
  project: null,
  kind: '',
  status: '',
  period: 'all',
  from: '',
  to: '',
}

/** Whether any filter narrows the list (the screen then offers «Сбросить фильтры»). */
export function isFiltered(filters: AppealFilters): boolean {
  return (
    filters.project !== null ||
    filters.kind !== '' ||
    filters.status !== '' ||
    (filters.period !== 'all' && (filters.period !== 'custom' || !!filters.from || !!filters.to))
  )
}

const DAY = /^\d{4}-\d{2}-\d{2}$/
/** Moscow keeps UTC+3 all year (no daylight saving since 2014): a day starts at 21:00 UTC. */
const MOSCOW_OFFSET = '+03:00'
const dayStart = (day: string) => Date.parse(`${day}T00:00:00${MOSCOW_OFFSET}`)

/** Today in Moscow, `YYYY-MM-DD`. */
export function moscowToday(now: number = Date.now()): string {
  return moscowDayOf(now)
}

/** The Moscow day of a moment, `YYYY-MM-DD`. */
export function moscowDayOf(iso: string | number): string {
  const ms = typeof iso === 'number' ? iso : Date.parse(iso)
  return new Date(ms + 3 * 3_600_000).toISOString().slice(0, 10)
}

/**
 * The period as moments `[from, to)` in ms (either end null: open), for `today` the Moscow day
 * `today` is. A malformed chosen day leaves that end open.
 */
export function periodBounds(
  filters: Pick<AppealFilters, 'period' | 'from' | 'to'>,
  today: string,
): { from: number | null; to: number | null } {
  const end = dayStart(addDays(today, 1))
  switch (filters.period) {
    case 'all':
      return { from: null, to: null }
    case 'today':
      return { from: dayStart(today), to: end }
    case '7':
    case '30':
      return { from: dayStart(addDays(today, -(Number(filters.period) - 1))), to: end }
    case 'custom':
      return {
        from: DAY.test(filters.from) ? dayStart(filters.from) : null,
        to: DAY.test(filters.to) ? dayStart(addDays(filters.to, 1)) : null,
      }
  }
}

/**
 * The predicate of the filters for the list (search is the list's own): built once per change
 * of the filters, then cheap per row (10,000 rows).
 */
export function appealFilter(
  filters: AppealFilters,
  today: string,
): (appeal: Pick<Appeal, 'project_id' | 'kind' | 'status' | 'created_at'>) => boolean {
  const { from, to } = periodBounds(filters, today)
  return (appeal) => {
    if (filters.project !== null && appeal.project_id !== filters.project) return false
    if (filters.kind !== '' && appeal.kind !== filters.kind) return false
    if (filters.status !== '' && appeal.status !== filters.status) return false
    if (from === null && to === null) return true
    const at = Date.parse(appeal.created_at)
    return (from === null || at >= from) && (to === null || at < to)
  }
}

/** `+79123456789` as people write it: `+7 912 345-67-89` (anything else as it is). */
export function formatPhone(phone: string): string {
  const m = /^\+7(\d{3})(\d{3})(\d{2})(\d{2})$/.exec(phone)
  return m ? `+7 ${m[1]} ${m[2]}-${m[3]}-${m[4]}` : phone
}

/**
 * What the search box looks in: the name and the phone in every common writing, so «912 345»,
 * «89123456789», «+7 (912) 345-67-89» and «345-67-89» all find `+79123456789`.
 */
export function appealSearchText(appeal: Pick<Appeal, 'name' | 'phone'>): string {
  const digits = appeal.phone.replace(/\D/g, '')
  const local = digits.length === 11 ? digits.slice(1) : digits
  return [
    appeal.name,
    appeal.phone,
    formatPhone(appeal.phone),
    digits,
    local,
    `8${local}`,
    local.length === 10 ? `(${local.slice(0, 3)})` : '',
  ].join(' ')
}
