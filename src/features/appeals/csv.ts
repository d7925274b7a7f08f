import {
  UTM_KEYS,
  type Appeal,
  type AppealKind,
  type AppealStatus,
  type DeliveryState,
  type DeliveryTarget,
} from '../../domain/appeal.ts'
import { moscowDayOf } from './filters.ts'

/**
 * «Скачать CSV» of «Обращения»: the requests shown, as a file Excel opens in Russian at a double
 * click — UTF-8 with a BOM (else Excel reads it as Windows-1251), `;` between cells (the list
 * separator of a Russian Windows), CRLF between lines, a cell quoted when it holds `;`, `"` or a
 * line break (its quotes doubled), decimal commas. Pure: tests/unit/appeals.test.ts.
 */

/** The words of the file, translated by the screen. */
export interface AppealCsvText {
  columns: {
    id: string
    createdAt: string
    status: string
    kind: string
    project: string
    name: string
    phone: string
    email: string
    comment: string
    price: string
    date: string
    specialist: string
    referrer: string
    page: string
    deliveries: string
  }
  status: Record<AppealStatus, string>
  kind: Record<AppealKind, string>
  target: Record<DeliveryTarget, string>
  delivery: Record<DeliveryState, string>
}

export interface AppealCsvNames {
  project(id: number): string
  specialist(id: number | null): string
}

/**
 * A cell: quoted when it must be. Text a visitor typed that starts like a formula (`=`, `+`, `-`,
 * `@`, a tab or a carriage return) gets a leading `'`, so Excel shows it instead of running it
 * (CSV injection).
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return ''
  let text = String(value)
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

const pad = (n: number) => String(n).padStart(2, '0')

/** A moment as Excel reads a date and time in Russian: `дд.мм.гггг чч:мм`, Moscow time. */
export function csvMoment(iso: string): string {
  const ms = Date.parse(iso)
  if (Number.isNaN(ms)) return iso
  const [y, m, d] = moscowDayOf(ms).split('-')
  const moscow = new Date(ms + 3 * 3_600_000)
  return `${d}.${m}.${y} ${pad(moscow.getUTCHours())}:${pad(moscow.getUTCMinutes())}`
}

/** `YYYY-MM-DD…` as `дд.мм.гггг`; anything else as it is. */
function csvDay(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day)
  return m ? `${m[3]}.${m[2]}.${m[1]}` : day
}

/**
 * The file's text. The phone goes as its eleven digits (`79123456789`): Excel keeps them as one
 * number, where `+7…` would be taken for a formula.
 */
export function appealsCsv(
  rows: readonly Appeal[],
  text: AppealCsvText,
  names: AppealCsvNames,
): string {
  const c = text.columns
  const header = [
    c.id,
    c.createdAt,
    c.status,
    c.kind,
    c.project,
    c.name,
    c.phone,
    c.email,
    c.comment,
    c.price,
    c.date,
    c.specialist,
    ...UTM_KEYS,
    c.referrer,
    c.page,
    c.deliveries,
  ]
  const lines = rows.map((a) => [
    a.id,
    csvMoment(a.created_at),
    text.status[a.status],
    text.kind[a.kind],
    names.project(a.project_id),
    a.name,
    a.phone.replace(/\D/g, ''),
    a.email,
    a.comment,
    a.price === null ? null : String(a.price).replace('.', ','),
    csvDay(a.date),
    a.specialist_id === null ? '' : names.specialist(a.specialist_id),
    ...UTM_KEYS.map((key) => a.utm[key] ?? ''),
    a.referrer,
    a.page_url,
    a.deliveries
      .map((d) => `${text.target[d.integration_kind]}: ${text.delivery[d.state]}`)
      .join(', '),
  ])
  const all = [header, ...lines].map((line) => line.map((value) => csvCell(value)).join(';'))
  return `\uFEFF${all.join('\r\n')}\r\n`
}

/** The file's name: `obrashcheniya-2030-04-20.csv` (Latin letters: every system keeps them). */
export function csvFileName(today: string): string {
  return `obrashcheniya-${today}.csv`
}
