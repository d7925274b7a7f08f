import type { Context } from 'hono'
import { AppError } from '../services/errors.ts'

/**
 * The version a write was made from (docs/API.md, "Conditional writes"): `If-Match: 3` or
 * `If-Match: "3"`. Undefined without the header (last write wins); anything else is a 422.
 */
export function ifMatch(c: Context): number | undefined {
  const header = c.req.header('If-Match')
  if (header === undefined) return undefined
  const match = /^\s*(?:"(\d{1,15})"|(\d{1,15}))\s*$/.exec(header)
  const version = match ? Number(match[1] ?? match[2]) : NaN
  if (!Number.isSafeInteger(version) || version < 1) {
    throw AppError.validation({ 'If-Match': { code: 'bad_version' } })
  }
  return version
}
