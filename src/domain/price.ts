/**
 * Prices: "1 500 ₽" ↔ 1500 (docs/app-shell.md
 * "Display formats (src/domain/format.ts, src/domain/price.ts)"). Russian grouping uses a (narrow)
 * no-break space.
 */

export const ROUBLE = '₽'

/**
 * The number written before the rouble suffix, or null when there is none.
 * Accepts "1 500 ₽", "1500₽", "1 500,50 руб.", "1500 р.", "1500".
 */
export function parsePrice(text: string): number | null {
  const head = text.split(/₽|руб\.?|р\./i)[0] ?? ''
  const compact = head.replace(/[\s\u00a0\u202f]/g, '')
  const match = /^-?\d+(?:[.,]\d{1,2})?/.exec(compact)
  if (!match) return null
  const value = Number(match[0].replace(',', '.'))
  return Number.isFinite(value) && value >= 0 ? value : null
}
