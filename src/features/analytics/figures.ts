import { addDays, type AnalyticsSummary } from '../../domain/analytics.ts'

/** The screen's pure rules (docs/analytics.md): periods, Moscow's today, the CSV export. */

export type Preset = 7 | 30 | 90

/** Today in Moscow, `YYYY-MM-DD`: the server counts Moscow days. */
export function moscowToday(now: number = Date.now()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow' }).format(new Date(now))
}

/** The last `days` days up to today, both included. */
export function lastDays(days: Preset, today: string): { from: string; to: string } {
  return { from: addDays(today, -(days - 1)), to: today }
}

export interface CsvLabels {
  project: string
  views: string
  visitors: string
  requests: string
  conversion: string
  total: string
}

const cell = (value: string | number) => {
  const text = String(value)
  return /[;"\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** Conversion as a percentage with one decimal place and a decimal comma (Russian spreadsheets). */
export const percent = (fraction: number) => (Math.round(fraction * 1000) / 10).toString()

/**
 * The table per page as CSV that Excel opens in Russian: UTF-8 with a BOM, `;` between cells,
 * CRLF between lines, decimal commas.
 */
export function summaryCsv(summary: AnalyticsSummary, labels: CsvLabels): string {
  const lines = [
    [labels.project, labels.views, labels.visitors, labels.requests, labels.conversion],
    ...summary.projects.map((p) => [
      p.name,
      p.views,
      p.visitors,
      p.submissions,
      percent(p.conversion).replace('.', ','),
    ]),
    [
      labels.total,
      summary.totals.views,
      summary.totals.visitors,
      summary.totals.submissions,
      percent(summary.totals.conversion).replace('.', ','),
    ],
  ]
  return `\uFEFF${lines.map((line) => line.map(cell).join(';')).join('\r\n')}\r\n`
}

/** Whether there is nothing to show yet: no page has been seen in the period. */
export function isEmpty(summary: AnalyticsSummary): boolean {
  return summary.totals.views === 0 && summary.totals.submissions === 0
}
