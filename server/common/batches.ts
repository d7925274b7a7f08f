/**
 * Writes that arrive while one is under way go together in the next (docs/crm.md, "Requests
 * written together"): the first item of a quiet moment is written at once, alone; items that
 * arrive meanwhile wait for it and then go in one call, at most `max` at a time. Under load one
 * statement carries many items, and costs the database little more than one; at rest nothing
 * waits.
 *
 * A batch that fails is tried again item by item, so that one bad item fails alone and the others
 * are written (a statement that failed wrote nothing: it was one transaction).
 */
export class Batches<I, O> {
  private readonly waiting: {
    item: I
    resolve: (value: O) => void
    reject: (error: unknown) => void
  }[] = []
  private running = 0

  constructor(
    /** Writes the items in one call, answering each item's result in its place. */
    private readonly write: (items: I[]) => Promise<O[]>,
    private readonly max: number,
    /** How many calls may be under way at once (a pool of connections takes more than one). */
    private readonly parallel = 1,
  ) {}

  run(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject })
      if (this.running < this.parallel) void this.drain()
    })
  }

  private async drain(): Promise<void> {
    this.running++
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, this.max)
        try {
          const results = await this.write(batch.map((entry) => entry.item))
          batch.forEach((entry, i) => entry.resolve(results[i]!))
        } catch (error) {
          if (batch.length === 1) {
            batch[0]!.reject(error)
            continue
          }
          await Promise.all(
            batch.map(async (entry) => {
              try {
                const [result] = await this.write([entry.item])
                entry.resolve(result!)
              } catch (alone) {
                entry.reject(alone)
              }
            }),
          )
        }
      }
    } finally {
      this.running--
    }
  }
}
