/**
 * Whether two values as records hold them are the same: strings, numbers, booleans and null
 * compared as they are, objects and arrays (a page's state, a request's UTM) by their JSON.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false
  return JSON.stringify(a) === JSON.stringify(b)
}

/** Whether two rows have the same fields with the same values. */
export function sameRow(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  for (const key of keys) if (!(key in b) || !sameValue(a[key], b[key])) return false
  return true
}
