import type { Database } from '../db/database.ts'
import { ERROR_CODES } from '../../src/domain/api-error.ts'
import type { ChangeFeed } from './changes.ts'
import { AppError } from './errors.ts'

const BATCH = 500
const encoder = new TextEncoder()

interface Stream {
  userId: number
  tokenHash: string
  workspaceId: number
  /** The id of the last event sent (or the position the stream started from). */
  cursor: string
  controller: ReadableStreamDefaultController<Uint8Array>
  pumping: boolean
  again: boolean
  closed: boolean
}

export interface EventSettings {
  /** How often a `: ping` comment goes out (default 15 s). */
  pingMs?: number
  /** How long events are kept (default 24 h). */
  keepMs?: number
}

/**
 * `GET /api/events` (docs/API.md, "Live changes"). Triggers store each change as an event of its
 * workspace and NOTIFY; this instance listens once and, for each announcement, every open stream
 * of that workspace reads what came after the last event it sent, in id order — the database is
 * the one queue, so a stream neither skips nor repeats an event, whichever instance wrote. The same
 * read tells whether the stream's user is still a member and still signed in: when not, the stream
 * ends (after the events it had still to send, a workspace's own delete included).
 */
export class EventHub {
  private readonly streams = new Set<Stream>()
  private readonly pingMs: number
  readonly keepMs: number
  private timer: ReturnType<typeof setInterval> | undefined
  private stopped = false

  constructor(
    private readonly db: Database,
    private readonly feed: ChangeFeed,
    settings: EventSettings = {},
  ) {
    this.pingMs = settings.pingMs ?? 15_000
    this.keepMs = settings.keepMs ?? 24 * 3_600_000
    feed.onMessage((payload) => this.heard(payload))
    // Announcements may have been missed: every stream ends, and its client resumes with
    // Last-Event-ID from the database. The next stream listens again.
    feed.onLost(() => {
      for (const stream of this.streams) this.end(stream)
    })
  }

  /** Open streams (tests). */
  get size(): number {
    return this.streams.size
  }

  private heard(payload: string): void {
    const [kind, value] = payload.split(':')
    const id = Number(value)
    for (const stream of this.streams) {
      if ((kind === 'w' && stream.workspaceId === id) || (kind === 'u' && stream.userId === id))
        void this.pump(stream)
    }
  }

  /**
   * Opens a stream of the workspace's changes for a member (404 otherwise). With `lastEventId`
   * the events after it come first; an id too old (pruned) or unknown makes the first event
   * `reset`. Without it, a line `id: <position>` marks where the stream starts.
   */
  async open(
    userId: number,
    tokenHash: string,
    workspaceId: number,
    lastEventId: string | undefined,
  ): Promise<ReadableStream<Uint8Array>> {
    if (this.stopped) throw new AppError(503, ERROR_CODES.server, 'busy')
    await this.feed.start()
    const { rows } = await this.db.query<{
      member: boolean | null
      position: string
      through: string
      newest: string | null
    }>(
      `SELECT (SELECT true FROM workspace_members WHERE workspace_id = $1 AND user_id = $2) AS member,
         (SELECT through FROM change_events_pruned)::text AS through,
         COALESCE((SELECT max(id) FROM change_events WHERE workspace_id = $1),
           (SELECT through FROM change_events_pruned))::text AS position,
         (SELECT max(id) FROM change_events)::text AS newest`,
      [workspaceId, userId],
    )
    const row = rows[0]!
    if (!row.member) throw AppError.notFound()
    let first: string
    let cursor = row.position
    if (lastEventId === undefined) {
      first = `id: ${cursor}\n\n`
    } else {
      const asked = /^\d{1,18}$/.test(lastEventId.trim()) ? BigInt(lastEventId.trim()) : null
      const newest = BigInt(row.newest ?? row.through)
      if (asked !== null && asked >= BigInt(row.through) && asked <= newest) {
        cursor = asked.toString()
        first = ''
      } else {
        first = `id: ${cursor}\nevent: reset\ndata: {}\n\n`
      }
    }
    let stream!: Stream
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        stream = {
          userId,
          tokenHash,
          workspaceId,
          cursor,
          controller,
          pumping: false,
          again: false,
          closed: false,
        }
        if (first) controller.enqueue(encoder.encode(first))
      },
      cancel: () => this.forget(stream),
    })
    this.streams.add(stream)
    this.startTimer()
    void this.pump(stream)
    return body
  }

  /** Sends the stream what came after its cursor; ends it when its user may no longer read. */
  private async pump(stream: Stream): Promise<void> {
    if (stream.closed) return
    if (stream.pumping) {
      stream.again = true
      return
    }
    stream.pumping = true
    try {
      do {
        stream.again = false
        const { rows } = await this.db.query<{
          member: boolean | null
          session: boolean | null
          events: string
        }>(
          `SELECT
             (SELECT true FROM workspace_members WHERE workspace_id = $1 AND user_id = $2) AS member,
             (SELECT true FROM sessions WHERE token_hash = $3 AND expires_at > now()) AS session,
             (SELECT COALESCE(json_agg(e ORDER BY e.id), '[]')::text FROM (
               SELECT id::text AS id, data FROM change_events
               WHERE workspace_id = $1 AND id > $4::bigint ORDER BY id LIMIT ${BATCH}
             ) e) AS events`,
          [stream.workspaceId, stream.userId, stream.tokenHash, stream.cursor],
        )
        if (stream.closed) return
        const row = rows[0]!
        const events = JSON.parse(row.events) as { id: string; data: string }[]
        if (events.length > 0) {
          const text = events.map((e) => `id: ${e.id}\ndata: ${e.data}\n\n`).join('')
          stream.controller.enqueue(encoder.encode(text))
          stream.cursor = events[events.length - 1]!.id
        }
        if (!row.member || !row.session) {
          this.end(stream)
          return
        }
        if (events.length === BATCH) stream.again = true
      } while (stream.again && !stream.closed)
    } catch {
      // The database failed under it: the client resumes with Last-Event-ID.
      this.end(stream)
    } finally {
      stream.pumping = false
    }
  }

  private startTimer(): void {
    if (this.timer || this.stopped) return
    this.timer = setInterval(() => {
      for (const stream of this.streams) {
        try {
          stream.controller.enqueue(encoder.encode(': ping\n\n'))
        } catch {
          this.forget(stream)
          continue
        }
        // Also a safety net: a session that simply expired ends here.
        void this.pump(stream)
      }
    }, this.pingMs)
    this.timer.unref()
  }

  private forget(stream: Stream | undefined): void {
    if (!stream) return
    stream.closed = true
    this.streams.delete(stream)
    if (this.streams.size === 0 && this.timer) {
      clearInterval(this.timer)
      this.timer = undefined
    }
  }

  private end(stream: Stream): void {
    if (stream.closed) return
    this.forget(stream)
    try {
      stream.controller.close()
    } catch {
      // Already cancelled by the client.
    }
  }

  /** Forgets events older than `keepMs` (docs/API.md): a resume from before them gets `reset`. */
  async prune(keepMs = this.keepMs): Promise<void> {
    await this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ through: string | null }>(
        `WITH gone AS (
           DELETE FROM change_events
           WHERE created_at < now() - make_interval(secs => $1::float8 / 1000) RETURNING id
         ) SELECT max(id)::text AS through FROM gone`,
        [keepMs],
      )
      const through = rows[0]?.through
      if (through)
        await tx.query('UPDATE change_events_pruned SET through = GREATEST(through, $1::bigint)', [
          through,
        ])
    })
  }

  /** Ends every open stream and opens no more (the server stops). */
  close(): void {
    this.stopped = true
    this.feed.close()
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
    for (const stream of this.streams) this.end(stream)
  }
}
