/**
 * A fixed-window counter kept in this process's memory. Several instances each count on their own,
 * so the effective limit behind a load balancer is the limit times the number of instances.
 */
export class RateLimiter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>()

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one attempt; returns the seconds to wait when the key is over its limit, else 0. */
  hit(key: string): number {
    const now = this.now()
    if (this.hits.size > 10_000) this.sweep(now)
    const entry = this.hits.get(key)
    if (!entry || entry.resetAt <= now) {
      this.hits.set(key, { count: 1, resetAt: now + this.windowMs })
      return 0
    }
    entry.count += 1
    return entry.count > this.limit ? Math.ceil((entry.resetAt - now) / 1000) : 0
  }

  reset(key: string): void {
    this.hits.delete(key)
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.hits) if (entry.resetAt <= now) this.hits.delete(key)
  }
}
