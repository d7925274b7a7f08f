import type { Database } from '../db/database.ts'
import { ERROR_CODES } from '../../src/domain/api-error.ts'
import type { ChangeFeed } from './changes.ts'
import { AppError } from './errors.ts'

const BATCH = 500
const encoder = new TextEncoder()

/**
 * How many streams one sign-in (token) and one person may hold open on an instance (docs/API.md,
 * "Live changes"). A tab holds one; more come from many tabs, or a client that reconnects without
 * closing. Past a cap the oldest of them is ended: its client, if still there, resumes with
 * Last-Event-ID.
 */
export const STREAM_CAPS = { perToken: 20, perUser: 50 } as const

interface Stream {
  userId: number
  tokenHash: string
  workspaceId: number
  /** The id of the last event sent (or the position the stream started from). */
  cursor: string
  controller: ReadableStreamDefaultController<Uint8Array>
  closed: boolean
}

/** The open streams of one workspace: one read serves them all. */
interface Group {
  workspaceId: number
  streams: Set<Stream>
  reading: boolean
  again: boolean
  /** When the last read began (performance.now()), and the timer of the next one. */
  readAt: number
  timer: ReturnType<typeof setTimeout> | undefined
}

export interface EventSettings {
  /** How often a `: ping` comment goes out (default 15 s). */
  pingMs?: number
  /** How long events are kept (default 24 h). */
  keepMs?: number
  /** Streams open at once per token and per user (default STREAM_CAPS). */
  caps?: { perToken?: number; perUser?: number }
  /**
   * The least time between two reads of one workspace (default 40 ms): changes made closer
   * together go out in one read and one write per stream.
   */
  gapMs?: number
}

/** What a person's own streams are told about them (not kept: no id, no resume). */
export type AccountNews = 'workspaces' | 'invitations' | 'notices'

/**
 * `GET /api/events` (docs/API.md, "Live changes"). Triggers store each change as an event of its
 * workspace and NOTIFY; this instance listens once and, for each announcement, reads once what
 * came in that workspace after the furthest-behind of its open streams, in id order, together with
 * which of their users are still members and which of their sessions still valid; then it hands
 * each stream the events after its own cursor. The database is the one queue, so a stream neither
 * skips nor repeats an event, whichever instance wrote. A stream whose user is no longer a member,
 * or whose session ended, ends (after the events it had still to send, a workspace's own delete
 * included); one whose user was removed from a workspace that still exists is told so first
 * (`event: removed`).
 */
export class EventHub {
  private readonly streams = new Set<Stream>()
  private readonly groups = new Map<number, Group>()
  /** Each user's streams, oldest first. */
  private readonly byUser = new Map<number, Stream[]>()
  private readonly pingMs: number
  private readonly gapMs: number
  private readonly caps: { perToken: number; perUser: number }
  readonly keepMs: number
  private timer: ReturnType<typeof setInterval> | undefined
  private stopped = false
  /** Reads of the database made for the streams (tests, the benchmark). */
  reads = 0

  constructor(
    private readonly db: Database,
    private readonly feed: ChangeFeed,
    settings: EventSettings = {},
  ) {
    this.pingMs = settings.pingMs ?? 15_000
    this.keepMs = settings.keepMs ?? 24 * 3_600_000
    this.gapMs = settings.gapMs ?? 40
    this.caps = {
      perToken: settings.caps?.perToken ?? STREAM_CAPS.perToken,
      perUser: settings.caps?.perUser ?? STREAM_CAPS.perUser,
    }
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

  /**
   * `w:<ws>…`: a change in the workspace (or a member gone from it). `u:<user>`: a session of
   * theirs ended. `u:<user>:<news>`: their workspaces or invitations changed, or a colleague kept
   * their own values over theirs (AccountNews).
   */
  private heard(payload: string): void {
    const [kind, value, news, who] = payload.split(':')
    const id = Number(value)
    if (kind === 'w') {
      const group = this.groups.get(id)
      if (group) void this.read(group)
      // A member gone: their other streams hear that their workspaces changed (that workspace's
      // own stream says `removed` instead).
      if (news === 'member' && who) this.tell(Number(who), 'workspaces', id)
      return
    }
    if (kind !== 'u') return
    if (news === 'workspaces' || news === 'invitations' || news === 'notices') {
      this.tell(id, news)
      return
    }
    const seen = new Set<Group>()
    for (const stream of this.byUser.get(id) ?? []) {
      const group = this.groups.get(stream.workspaceId)
      if (group && !seen.has(group)) {
        seen.add(group)
        void this.read(group)
      }
    }
  }

  /** Tells each open stream of the user (but those of `except`) that their account changed. */
  private tell(userId: number, news: AccountNews, except?: number): void {
    const message = encoder.encode(`event: ${news}\ndata: {}\n\n`)
    for (const stream of this.byUser.get(userId) ?? [])
      if (stream.workspaceId !== except) this.send(stream, message)
  }

  private send(stream: Stream, bytes: Uint8Array): void {
    if (stream.closed) return
    try {
      stream.controller.enqueue(bytes)
    } catch {
      this.forget(stream)
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
        stream = { userId, tokenHash, workspaceId, cursor, controller, closed: false }
        if (first) controller.enqueue(encoder.encode(first))
      },
      cancel: () => this.forget(stream),
    })
    this.admit(stream)
    this.startTimer()
    void this.read(this.groups.get(workspaceId)!)
    return body
  }

  /** Adds the stream, ending the oldest of its token's and its user's past the caps. */
  private admit(stream: Stream): void {
    const own = this.byUser.get(stream.userId) ?? []
    const sameToken = own.filter((s) => s.tokenHash === stream.tokenHash)
    for (const old of sameToken.slice(0, Math.max(0, sameToken.length - this.caps.perToken + 1)))
      this.end(old)
    const left = this.byUser.get(stream.userId) ?? []
    for (const old of left.slice(0, Math.max(0, left.length - this.caps.perUser + 1))) this.end(old)
    this.streams.add(stream)
    this.byUser.set(stream.userId, [...(this.byUser.get(stream.userId) ?? []), stream])
    let group = this.groups.get(stream.workspaceId)
    if (!group) {
      group = {
        workspaceId: stream.workspaceId,
        streams: new Set(),
        reading: false,
        again: false,
        readAt: -Infinity,
        timer: undefined,
      }
      this.groups.set(stream.workspaceId, group)
    }
    group.streams.add(stream)
  }

  /**
   * One read for all the workspace's streams: the events after the furthest-behind cursor, which
   * of their users are members and which of their sessions are valid. Each stream gets the events
   * after its own cursor; one its user may no longer read ends. Reads of a workspace do not
   * overlap, and begin at least `gapMs` apart: announcements heard meanwhile make one read after
   * it (a burst of changes is one read and one write per stream, not one per change).
   */
  private async read(group: Group): Promise<void> {
    if (group.reading) {
      group.again = true
      return
    }
    if (group.timer) return
    const wait = group.readAt + this.gapMs - performance.now()
    if (wait > 0) {
      group.timer = setTimeout(() => {
        group.timer = undefined
        void this.read(group)
      }, wait)
      return
    }
    group.reading = true
    group.again = false
    let full = false
    try {
      do {
        group.readAt = performance.now()
        const streams = [...group.streams]
        if (streams.length === 0) return
        let from = BigInt(streams[0]!.cursor)
        for (const s of streams) if (BigInt(s.cursor) < from) from = BigInt(s.cursor)
        const users = [...new Set(streams.map((s) => s.userId))]
        const tokens = [...new Set(streams.map((s) => s.tokenHash))]
        this.reads++
        const { rows } = await this.db.query<{
          members: string
          sessions: string
          present: boolean
          events: string
        }>(
          `SELECT
             (SELECT COALESCE(json_agg(user_id), '[]')::text FROM workspace_members
               WHERE workspace_id = $1
                 AND user_id IN (SELECT value::int FROM json_array_elements_text($2::json))
             ) AS members,
             (SELECT COALESCE(json_agg(token_hash), '[]')::text FROM sessions
               WHERE token_hash IN (SELECT value FROM json_array_elements_text($3::json))
                 AND expires_at > now()) AS sessions,
             EXISTS (SELECT 1 FROM workspaces WHERE id = $1) AS present,
             (SELECT COALESCE(json_agg(json_build_object('id', e.id::text, 'data', e.data)
                 ORDER BY e.id), '[]')::text FROM (
               SELECT id, data FROM change_events
               WHERE workspace_id = $1 AND id > $4::bigint ORDER BY id LIMIT ${BATCH}
             ) e) AS events`,
          [group.workspaceId, JSON.stringify(users), JSON.stringify(tokens), from.toString()],
        )
        const row = rows[0]!
        const members = new Set(JSON.parse(row.members) as number[])
        const sessions = new Set(JSON.parse(row.sessions) as string[])
        const events = JSON.parse(row.events) as { id: string; data: string }[]
        const last = events.length > 0 ? events[events.length - 1]!.id : null
        // Streams at one cursor (nearly all: they keep up) get the same bytes, encoded once.
        const encoded = new Map<string, Uint8Array | null>()
        for (const stream of streams) {
          if (stream.closed) continue
          if (last !== null) {
            let bytes = encoded.get(stream.cursor)
            if (bytes === undefined) {
              const after = BigInt(stream.cursor)
              const text = events
                .filter((e) => BigInt(e.id) > after)
                .map((e) => `id: ${e.id}\ndata: ${e.data}\n\n`)
                .join('')
              bytes = text ? encoder.encode(text) : null
              encoded.set(stream.cursor, bytes)
            }
            if (bytes) {
              this.send(stream, bytes)
              stream.cursor = last
            }
          }
          if (!members.has(stream.userId) || !sessions.has(stream.tokenHash)) {
            // Removed from a workspace that is still there: said before the end.
            if (!members.has(stream.userId) && row.present)
              this.send(
                stream,
                encoder.encode(
                  `event: removed\ndata: ${JSON.stringify({ workspace_id: group.workspaceId })}\n\n`,
                ),
              )
            this.end(stream)
          }
        }
        // A stream catching up reads on at once.
        full = events.length === BATCH
      } while (full)
    } catch {
      // The database failed under it: the clients resume with Last-Event-ID.
      for (const stream of group.streams) this.end(stream)
    } finally {
      group.reading = false
      if (group.streams.size === 0 && this.groups.get(group.workspaceId) === group)
        this.groups.delete(group.workspaceId)
      else if (group.again) void this.read(group)
    }
  }

  private startTimer(): void {
    if (this.timer || this.stopped) return
    this.timer = setInterval(() => {
      const ping = encoder.encode(': ping\n\n')
      for (const stream of this.streams) this.send(stream, ping)
      // Also a safety net: a session that simply expired ends here.
      for (const group of this.groups.values()) void this.read(group)
    }, this.pingMs)
    this.timer.unref()
  }

  private forget(stream: Stream | undefined): void {
    if (!stream || stream.closed) return
    stream.closed = true
    this.streams.delete(stream)
    const own = this.byUser.get(stream.userId)?.filter((s) => s !== stream) ?? []
    if (own.length > 0) this.byUser.set(stream.userId, own)
    else this.byUser.delete(stream.userId)
    const group = this.groups.get(stream.workspaceId)
    if (group) {
      group.streams.delete(stream)
      if (group.streams.size === 0 && !group.reading) this.groups.delete(stream.workspaceId)
    }
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
    for (const group of this.groups.values()) clearTimeout(group.timer)
  }
}
