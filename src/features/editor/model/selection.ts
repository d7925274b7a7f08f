/**
 * The selection as a list of block keys in the order they were picked; pure rules, the store
 * (`editor-store.ts`) keeps the list.
 */

export function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)]
}

/** `keys` that exist, added to `current` or instead of it. */
export function selecting(
  current: readonly string[],
  keys: readonly string[],
  exists: (key: string) => boolean,
  additive: boolean,
): readonly string[] {
  const valid = keys.filter(exists)
  return additive ? unique([...current, ...valid]) : unique(valid)
}

/** Shift-click: adds the key, or removes it when already selected. */
export function toggling(current: readonly string[], key: string): readonly string[] {
  return current.includes(key) ? current.filter((k) => k !== key) : [...current, key]
}

/** The keys still selected that `keep` accepts (the same list when all are). */
export function keeping(
  current: readonly string[],
  keep: (key: string) => boolean,
): readonly string[] {
  const kept = current.filter(keep)
  return kept.length === current.length ? current : kept
}
