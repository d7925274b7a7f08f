import { describe, expect, it } from 'vitest'
import * as live from '../../src/sync/live-events.ts'
import { listenToWorkspace, scopesOf, type LiveChange } from '../../src/sync/live-events.ts'
import { liveKindProblems } from '../support/live-kinds.ts'

/** A response streaming `chunks`, then ending (or staying open with `hold`). */
function stream(chunks: string[], hold = false): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk))
      if (!hold) controller.close()
    },
  })
  return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } })
}

function waitFor(check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const poll = () => (check() ? resolve() : setTimeout(poll, 5))
    poll()
  })
}

describe('live changes of a workspace', () => {
  it('maps each change to the scopes that show it', () => {
    expect(scopesOf({ table: 'department', id: 3, version: 2, op: 'update' }, 7)).toEqual([
      { kind: 'department', workspaceId: 7 },
    ])
    expect(
      scopesOf({ table: 'block', id: 9, version: 2, op: 'update', project_id: 4, bg_id: 2 }, 7),
    ).toEqual([
      { kind: 'project', projectId: 4 },
      { kind: 'projects', workspaceId: 7 },
    ])
    expect(scopesOf({ table: 'workspace', id: 7, version: 2, op: 'update' }, 7)).toEqual([
      { kind: 'workspaces' },
    ])
  })

  it('refreshes what shows every kind the server announces, whatever the operation, as the page hears it', async () => {
    // Every kind and operation through the stream and the page's choice of what to refresh
    // (tests/support/live-kinds.ts; tests/integration/soak-mutants.test.ts plants a kind ignored).
    expect(await liveKindProblems(live)).toEqual([])
  })

  it('delivers changes, reconnects with Last-Event-ID and refreshes everything on reset', async () => {
    const requests: (string | null)[] = []
    const answers = [
      stream([
        'id: 5\ndata: {"table":"department","id":1,"version":2,"op":"update"}\n\n',
        'id: 6\ndata: {"table":"project","id":4,"version":2,"op":"update","page":true}\n\n',
      ]),
      stream(
        [
          'event: reset\ndata: {}\n\n',
          'id: 9\ndata: {"table":"location","id":2,"version":1,"op":"add"}\n\n',
        ],
        true,
      ),
    ]
    const changes: LiveChange[] = []
    let resets = 0
    const stop = listenToWorkspace({
      workspaceId: 7,
      onChange: (event) => changes.push(event),
      onReset: () => (resets += 1),
      random: () => 0,
      open: (lastEventId) => {
        requests.push(lastEventId)
        return Promise.resolve(answers.shift() ?? stream([], true))
      },
    })
    await waitFor(() => changes.length === 3)
    stop()
    expect(changes.map((c) => c.table)).toEqual(['department', 'project', 'location'])
    // A page's change says so: the project's version did not move (docs/SYNC.md "Publishing").
    expect(changes.map((c) => c.page === true)).toEqual([false, true, false])
    expect(resets).toBe(1)
    // The second connection resumes after the last event the first one delivered.
    expect(requests.slice(0, 2)).toEqual([null, '6'])
  })

  it('says when the person was removed (an event, or a 404 on reconnect) and stops; passes on account news', async () => {
    const removed: number[] = []
    const news: string[] = []
    let opened = 0
    const stop = listenToWorkspace({
      workspaceId: 7,
      onChange: () => undefined,
      onReset: () => undefined,
      onRemoved: (id) => removed.push(id),
      onAccount: (what) => news.push(what),
      random: () => 0,
      open: () => {
        opened += 1
        return Promise.resolve(
          stream(
            [
              'id: 3\n\n',
              'event: invitations\ndata: {}\n\n',
              'event: workspaces\ndata: {}\n\n',
              'event: removed\ndata: {"workspace_id":7}\n\n',
            ],
            true,
          ),
        )
      },
    })
    await waitFor(() => removed.length === 1)
    expect(news).toEqual(['invitations', 'workspaces'])
    expect(removed).toEqual([7])

    // A reconnect answered 404: no longer theirs either.
    const gone: number[] = []
    const stopGone = listenToWorkspace({
      workspaceId: 8,
      onChange: () => undefined,
      onReset: () => undefined,
      onRemoved: (id) => gone.push(id),
      random: () => 0,
      open: () => Promise.resolve(new Response('{}', { status: 404 })),
    })
    await waitFor(() => gone.length === 1)
    // Stopped: no second attempt comes (the backoff's first wait is at least 1 s).
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(gone).toEqual([8])
    expect(opened).toBe(1)
    stop()
    stopGone()
  })
})
