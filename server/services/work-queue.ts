import { Throttled } from './throttle.ts'

/**
 * At most `concurrency` jobs at once; up to `maxWaiting` more wait their turn, and beyond that a
 * job is refused (429, «Сервер занят…»). Password hashing runs through one of these, so requests
 * nobody signed can never take all of the machine's cores (docs/API.md, "Limits").
 */
export class WorkQueue {
  private active = 0
  private readonly waiting: (() => void)[] = []

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {}

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.active < this.concurrency) {
      this.active += 1
    } else {
      if (this.waiting.length >= this.maxWaiting) throw new Throttled(1, 'busy')
      // The finishing job hands its slot over: `active` stays as it is.
      await new Promise<void>((resolve) => this.waiting.push(resolve))
    }
    try {
      return await job()
    } finally {
      const next = this.waiting.shift()
      if (next) next()
      else this.active -= 1
    }
  }
}
