/** Pure pieces of the record list: search normalisation, filtering and sorting. */

export interface SortOption<T> {
  value: string
  label: string
  compare: (a: T, b: T) => number
}

export type SortDirection = 'asc' | 'desc'

/** Lower case, «ё» as «е», collapsed spaces: what a person types should find what they mean. */
export function normalizeSearch(text: string): string {
  return text
    .toLocaleLowerCase('ru')
    .replace(/\u0451/g, String.fromCharCode(0x435))
    .replace(/\s+/g, ' ')
    .trim()
}

const collator = new Intl.Collator('ru', { sensitivity: 'base', numeric: true })

export function compareText(a: string, b: string): number {
  return collator.compare(a, b)
}

/**
 * A sorted copy: by `compare`, then by `tieBreak` so equal keys keep a stable, predictable order.
 * Kept apart from `filterList` so a screen sorts a long list once, not on every keystroke of a
 * search or when a filter changes (filtering keeps the order).
 */
export function sortList<T>(
  items: readonly T[],
  options: {
    compare?: (a: T, b: T) => number
    direction?: SortDirection
    tieBreak?: (a: T, b: T) => number
  },
): T[] {
  const out = [...items]
  const { compare, tieBreak } = options
  if (compare) {
    const sign = options.direction === 'desc' ? -1 : 1
    out.sort((a, b) => sign * compare(a, b) || (tieBreak ? tieBreak(a, b) : 0))
  }
  return out
}

/** The items `filter` keeps whose `searchText` holds every word of `search`, in their order. */
export function filterList<T>(
  items: readonly T[],
  options: { search: string; searchText: (item: T) => string; filter?: (item: T) => boolean },
): T[] {
  const needle = normalizeSearch(options.search)
  const words = needle ? needle.split(' ') : []
  return items.filter((item) => {
    if (options.filter && !options.filter(item)) return false
    if (words.length === 0) return true
    const haystack = normalizeSearch(options.searchText(item))
    return words.every((word) => haystack.includes(word))
  })
}

/** Filters and sorts in one go (`filterList` of `sortList`). */
export function queryList<T>(
  items: readonly T[],
  options: {
    search: string
    searchText: (item: T) => string
    filter?: (item: T) => boolean
    compare?: (a: T, b: T) => number
    direction?: SortDirection
    tieBreak?: (a: T, b: T) => number
  },
): T[] {
  return sortList(filterList(items, options), options)
}
