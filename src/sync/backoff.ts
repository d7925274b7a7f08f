/**
 * Retry delay after the n-th failed attempt (network, 5xx, 429): exponential from `baseMs`, capped
 * at `capMs`, with "equal jitter" (half fixed, half random) so tabs and devices that lost the network
 * together do not come back in lockstep. `random` returns [0, 1).
 */
export function backoffDelay(
  attempt: number,
  random: () => number = Math.random,
  baseMs = 1_000,
  capMs = 5 * 60_000,
): number {
  const exponent = Math.max(0, Math.floor(attempt) - 1)
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(exponent, 30))
  const r = Math.min(Math.max(random(), 0), 1)
  return Math.round(ceiling / 2 + (r * ceiling) / 2)
}
