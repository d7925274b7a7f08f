/**
 * A record id from a route segment: a server id (positive) or a local one made offline (negative).
 * Anything else (0, "abc", "1.5") is null, and the page says the record does not exist.
 */
export function parseRecordId(param: string): number | null {
  if (!/^-?\d{1,15}$/.test(param)) return null
  const id = Number(param)
  return id === 0 ? null : id
}
