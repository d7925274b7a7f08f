import type { Database, Listening } from '../db/database.ts'

const CHANNEL = 'changes'

/**
 * The one subscription of an instance to the announcements of changes (the `changes` channel:
 * `w:<workspace>…` for a change in a workspace, `u:<user>` for an ended session; migrations.ts),
 * shared by the live change streams (events.ts) and the lists kept in memory (records.ts). It
 * listens on first use and again on the first use after its connection failed. `session` is raised
 * whenever announcements may have been missed: what was confirmed under an older one is not trusted.
 */
export class ChangeFeed {
  private listening: Promise<Listening> | undefined
  private live: Listening | undefined
  private readonly heard = new Set<(payload: string) => void>()
  private readonly lost = new Set<() => void>()
  private stopped = false
  session = 0

  constructor(private readonly db: Database) {}

  onMessage(handler: (payload: string) => void): void {
    this.heard.add(handler)
  }

  onLost(handler: () => void): void {
    this.lost.add(handler)
  }

  /** Listening now: announcements since `session` began have all been handed over or are coming. */
  get current(): Listening | undefined {
    return this.live
  }

  /** Listens, unless it already does. */
  start(): Promise<Listening> {
    if (this.stopped) return Promise.reject(new Error('stopped'))
    this.listening ??= this.db
      .subscribe(
        CHANNEL,
        (payload) => {
          for (const handler of this.heard) handler(payload)
        },
        () => this.fail(),
      )
      .then((live) => {
        this.live = live
        return live
      })
      .catch((error: unknown) => {
        this.listening = undefined
        this.session++
        throw error
      })
    return this.listening
  }

  private fail(): void {
    this.listening = undefined
    this.live = undefined
    this.session++
    for (const handler of this.lost) handler()
  }

  /** No more listening (the server stops). */
  close(): void {
    this.stopped = true
    this.live = undefined
    this.session++
  }
}
