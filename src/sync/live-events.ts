import { createParser, type EventSourceMessage } from 'eventsource-parser'
import * as v from 'valibot'
import { openEventStream } from '../api/client.ts'
import type { KnownChange, RefreshScope } from './protocol.ts'
import { RECORD_KINDS, type RecordKind } from '../data/types.ts'
import { ChangeEvent } from '../domain/workspace.ts'

/**
 * Live changes of the current workspace (docs/SYNC.md, "Live changes"): the page reads
 * `GET /api/events?workspace_id=N` as a stream (fetch, so the token goes in a header) and refreshes
 * the scopes a change touches. It reconnects with backoff and `Last-Event-ID`, so nothing is
 * missed; a `reset` (the server no longer has the events since then) refreshes everything. While
 * the stream is down the periodic refresh goes on as before.
 */

/**
 * A change as the stream says it. `page`: a project's public page was published, unpublished or
 * given an address (docs/API.md "Published pages"); the project's version does not move, so the
 * mirror cannot tell it already knows it (docs/SYNC.md "Publishing").
 */
export type LiveChange = ChangeEvent & { page?: boolean }

export interface LiveOptions {
  workspaceId: number
  onChange(event: LiveChange): void
  /** The server cannot replay what was missed: refresh everything on screen. */
  onReset(): void
  /**
   * The person is no longer a member of the workspace: the server said so (`event: removed`), or
   * a reconnect was answered 404. The stream stops.
   */
  onRemoved?(workspaceId: number): void
  /**
   * The person's own workspaces or invitations changed, or a colleague kept their values over the
   * person's (docs/API.md, "Members").
   */
  onAccount?(news: AccountNews): void
  /** Opens the stream (default: the API client's, with the session's token). */
  open?: (lastEventId: string | null, signal: AbortSignal) => Promise<Response>
  random?: () => number
  /** No byte for this long (the server pings every 15 s) means the link is dead: reconnect. */
  idleMs?: number
}

const RECORD_SET = new Set<string>(RECORD_KINDS)

/** The scopes a change touches, for a workspace (only those on screen are refreshed). */
export function scopesOf(event: ChangeEvent, workspaceId: number): RefreshScope[] {
  if (event.table === 'workspace') return [{ kind: 'workspaces' }]
  if (RECORD_SET.has(event.table)) return [{ kind: event.table as RecordKind, workspaceId }]
  if (event.table === 'project')
    return [
      { kind: 'projects', workspaceId },
      { kind: 'project', projectId: event.id },
    ]
  if ((event.table === 'background' || event.table === 'block') && event.project_id)
    return [
      { kind: 'project', projectId: event.project_id },
      // A project's cover and «changed» time follow its backgrounds and blocks.
      { kind: 'projects', workspaceId },
    ]
  // A visitor's request: only it is read again, not every window of the list.
  if (event.table === 'appeal') return [{ kind: 'appeal', workspaceId, id: event.id }]
  return []
}

/**
 * What the page does with a change it hears (docs/SYNC.md "Live changes"): the scopes it touches,
 * refreshed where a screen shows them, once the sync worker says the mirror does not hold the
 * change already (`ask`; this device's own writes come back too). A page change or a request's
 * delivery leaves the version as it was, so the mirror cannot know them by that: nothing to ask,
 * always refreshed.
 */
export function heardChange(
  event: LiveChange,
  workspaceId: number,
): { scopes: RefreshScope[]; ask: KnownChange | null } {
  const scopes = scopesOf(event, workspaceId)
  if (event.page || event.deliveries) return { scopes, ask: null }
  const { table, id, version, op } = event
  return { scopes, ask: { table, id, version, op } }
}

/** Backoff between reconnects: 1 s doubling to 30 s, half fixed and half random. */
export function reconnectDelay(failures: number, random: () => number): number {
  const ceiling = Math.min(30_000, 1_000 * 2 ** Math.min(failures, 5))
  return ceiling / 2 + (ceiling / 2) * random()
}

function parseChange(data: string): LiveChange | null {
  try {
    const raw: unknown = JSON.parse(data)
    const parsed = v.safeParse(ChangeEvent, raw)
    if (!parsed.success) return null
    const page = (raw as { page?: unknown }).page === true
    return page ? { ...parsed.output, page } : parsed.output
  } catch {
    return null
  }
}

/** Listens until the returned function is called. */
export function listenToWorkspace(options: LiveOptions): () => void {
  const open =
    options.open ??
    ((lastEventId: string | null, signal: AbortSignal) =>
      openEventStream('/api/events', {
        query: { workspace_id: options.workspaceId },
        lastEventId,
        signal,
      }))
  const random = options.random ?? Math.random
  const idleMs = options.idleMs ?? 45_000
  let stopped = false
  let controller: AbortController | null = null
  let lastEventId: string | null = null
  let failures = 0
  let wake: (() => void) | null = null

  const removed = () => {
    if (stopped) return
    stopped = true
    controller?.abort()
    options.onRemoved?.(options.workspaceId)
  }

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms)
      wake = () => {
        clearTimeout(timer)
        resolve()
      }
    })

  async function connect(): Promise<void> {
    controller = new AbortController()
    const response = await open(lastEventId, controller.signal)
    // No longer theirs (a workspace made here and not yet on the server is not asked about).
    if (response.status === 404 && options.workspaceId > 0) {
      await response.body?.cancel().catch(() => undefined)
      removed()
      return
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel().catch(() => undefined)
      throw new Error(`events: ${response.status}`)
    }
    const parser = createParser({
      onEvent(message: EventSourceMessage) {
        if (message.id) lastEventId = message.id
        if (message.event === 'reset') {
          options.onReset()
          return
        }
        if (message.event === 'removed') {
          removed()
          return
        }
        if (
          message.event === 'workspaces' ||
          message.event === 'invitations' ||
          message.event === 'notices'
        ) {
          options.onAccount?.(message.event)
          return
        }
        const change = parseChange(message.data)
        if (change) options.onChange(change)
      },
    })
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
    let idle: ReturnType<typeof setTimeout> | null = null
    const arm = () => {
      if (idle) clearTimeout(idle)
      idle = setTimeout(() => controller?.abort(), idleMs)
    }
    arm()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return
        failures = 0
        arm()
        parser.feed(value)
      }
    } finally {
      if (idle) clearTimeout(idle)
    }
  }

  void (async () => {
    while (!stopped) {
      try {
        await connect()
      } catch {
        // Refused, cut off or gone quiet: try again after a while.
      }
      if (stopped) break
      failures += 1
      await pause(reconnectDelay(failures, random))
    }
  })()

  return () => {
    stopped = true
    controller?.abort()
    wake?.()
  }
}

/** What the server tells a person's own streams about them (docs/API.md, "Members"). */
export type AccountNews = 'workspaces' | 'invitations' | 'notices'
