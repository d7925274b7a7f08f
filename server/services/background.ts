/**
 * Work a request starts and does not wait for (a password reset link is made after the answer, so
 * a known and an unknown address take the same time: docs/API.md). `idle()` resolves when none is
 * left: tests await it, and the app awaits it before it closes the database.
 */
export class BackgroundTasks {
  private readonly running = new Set<Promise<void>>()

  /** Runs `task` after the current request's answer; its failure goes to `onError`. */
  run(task: () => Promise<void>, onError: (error: unknown) => void): void {
    const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch(onError)
      .finally(() => this.running.delete(done))
    this.running.add(done)
  }

  /** Tracks `work`, already started, until it settles; its failure goes to `onError`. */
  track(work: Promise<void>, onError: (error: unknown) => void): void {
    const done: Promise<void> = work.catch(onError).finally(() => this.running.delete(done))
    this.running.add(done)
  }

  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running])
  }
}
