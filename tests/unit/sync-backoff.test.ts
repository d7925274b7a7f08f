import { describe, expect, it } from 'vitest'
import { backoffDelay } from '../../src/sync/backoff.ts'

describe('backoffDelay', () => {
  it('doubles per attempt between half and all of the ceiling', () => {
    expect(backoffDelay(1, () => 0)).toBe(500)
    expect(backoffDelay(1, () => 0.999999)).toBe(1000)
    expect(backoffDelay(2, () => 0)).toBe(1000)
    expect(backoffDelay(3, () => 0.5)).toBe(3000)
    expect(backoffDelay(5, () => 0)).toBe(8000)
  })

  it('is capped and stays finite for absurd attempt counts', () => {
    expect(backoffDelay(50, () => 1)).toBe(300_000)
    expect(backoffDelay(1e9, () => 0)).toBe(150_000)
  })

  it('spreads retries: different random draws give different delays', () => {
    const delays = new Set([0.1, 0.4, 0.7, 0.9].map((r) => backoffDelay(4, () => r)))
    expect(delays.size).toBe(4)
    for (const d of delays) expect(d).toBeGreaterThanOrEqual(4000)
  })
})
