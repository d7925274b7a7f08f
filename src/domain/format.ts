import { parsePrice, ROUBLE } from './price.ts'

/**
 * Display formatters (docs/app-shell.md
 * "Display formats (src/domain/format.ts, src/domain/price.ts)"). Pure: the locale is an argument,
 * so the same function serves the page, the worker and tests. Locales are BCP 47 tags ('ru',
 * 'ru-RU', 'en').
 */

export type DateInput = Date | string | number

const NBSP = '\u00a0'

/**
 * Intl formatters, made once per locale and options: making one costs far more than formatting
 * with it (a page of 200 blocks spent most of its rendering making them).
 */
const numberFormats = new Map<string, Intl.NumberFormat>()
const dateFormats = new Map<string, Intl.DateTimeFormat>()

function numberFormat(
  locale: string,
  options: Intl.NumberFormatOptions,
  key = `${locale} ${JSON.stringify(options)}`,
): Intl.NumberFormat {
  let format = numberFormats.get(key)
  if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(locale, options)))
  return format
}

function dateFormat(
  locale: string,
  options: Intl.DateTimeFormatOptions,
  key = `${locale} ${JSON.stringify(options)}`,
): Intl.DateTimeFormat {
  let format = dateFormats.get(key)
  if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat(locale, options)))
  return format
}

function toDate(value: DateInput): Date | null {
  const date = value instanceof Date ? value : new Date(value)
  return Number.isNaN(date.getTime()) ? null : date
}

/**
 * "1 500 ₽": the amount with Russian grouping (Intl inserts a no-break space between groups),
 * then a no-break space and the rouble sign so the sign never wraps onto its own line.
 * Kopecks are shown only when present, and then always as two digits ("1 200,50 ₽", never
 * "1 200,5 ₽"). Not a finite number → ''.
 */
export function formatPrice(amount: number): string {
  if (!Number.isFinite(amount)) return ''
  const whole = Math.round(amount * 100) % 100 === 0
  const digits = whole ? 0 : 2
  const number = numberFormat(
    'ru-RU',
    { minimumFractionDigits: digits, maximumFractionDigits: digits },
    `price ${digits}`,
  ).format(amount)
  return `${number}${NBSP}${ROUBLE}`
}

/** The amount written before the rouble suffix ("1 500 ₽" → 1500), or null. */
export const parsePriceText = parsePrice

/**
 * Shortens `text` to at most `length` characters plus an ellipsis. Counts code points, so an emoji
 * is never cut in half; trailing spaces before the ellipsis are dropped.
 */
export function truncate(text: string, length: number): string {
  const chars = Array.from(text)
  if (chars.length <= length) return text
  const keep = Math.max(0, Math.floor(length))
  return `${chars.slice(0, keep).join('').trimEnd()}…`
}

/**
 * Values whose magnitude is over 999 as thousands with one decimal and "k"
 * (1500 → "1,5k" in Russian, "1.5k" in English); smaller values as they are, in the locale's format.
 */
export function formatK(value: number, locale: string = 'ru'): string {
  if (!Number.isFinite(value)) return ''
  if (Math.abs(value) > 999) {
    const thousands = numberFormat(locale, {
      minimumFractionDigits: 1,
      maximumFractionDigits: 1,
      useGrouping: false,
    }).format(value / 1000)
    return `${thousands}k`
  }
  return numberFormat(locale, { maximumFractionDigits: 2 }).format(value)
}

/** 12-hour clock "hh:mm AM/PM" in local time (09:05 PM). Invalid input → ''. */
export function formatTime12(value: DateInput): string {
  const date = toDate(value)
  if (!date) return ''
  const hours = date.getHours()
  const hh = String(hours % 12 === 0 ? 12 : hours % 12).padStart(2, '0')
  const mm = String(date.getMinutes()).padStart(2, '0')
  return `${hh}:${mm} ${hours < 12 ? 'AM' : 'PM'}`
}

/**
 * Day and month, optionally the year, in local time: "5 марта", "5 марта 2026" (ru),
 * "March 5", "March 5, 2026" (en). Russian's trailing " г." is left out. Invalid input → ''.
 */
export function formatDayMonth(
  value: DateInput,
  options: { withYear?: boolean; locale?: string } = {},
): string {
  const date = toDate(value)
  if (!date) return ''
  const locale = options.locale ?? 'ru'
  const parts = dateFormat(
    locale,
    { day: 'numeric', month: 'long', ...(options.withYear ? { year: 'numeric' } : {}) },
    `day-month ${locale} ${options.withYear === true}`,
  ).formatToParts(date)
  // Keep the literals between day, month and year; drop any after the last of them (" г.").
  let last = -1
  parts.forEach((part, index) => {
    if (part.type !== 'literal') last = index
  })
  return parts
    .slice(0, last + 1)
    .map((part) => part.value)
    .join('')
}
