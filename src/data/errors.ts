/**
 * A command failed because the device's storage is full. Nothing of that command was written (its
 * transaction was rolled back) and everything saved before stays: the screen should say so.
 */
export function isQuotaError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth += 1) {
    const name = (e as { name?: unknown }).name
    if (name === 'QuotaExceededError') return true
    e = (e as { inner?: unknown; cause?: unknown }).inner ?? (e as { cause?: unknown }).cause
  }
  return false
}
