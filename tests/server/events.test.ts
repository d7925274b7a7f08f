import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer } from '../../server/index.ts'
import { addMember, json, testServer, type TestServer, type TestUser } from './helpers.ts'
import { SseReader } from './sse.ts'
import { fixtures } from './write-cases.ts'

/** GET /api/events: a workspace's changes, live and resumable (docs/API.md, "Live changes"). */
let s: TestServer
let admin: TestUser
let editor: TestUser
let stranger: TestUser
let fa: ReturnType<typeof fixtures>
let fe: ReturnType<typeof fixtures>

beforeAll(async () => {
  s = await testServer()
  admin = await s.signUp('Администратор')
  editor = await s.signUp('Редактор')
  stranger = await s.signUp('Посторонний')
  fa = fixtures(s, admin.token)
  fe = fixtures(s, editor.token)
}, 30_000)
afterAll(() => s.close())

const open = (user: TestUser, workspaceId: number, lastEventId?: string) =>
  s.call('GET', '/api/events', {
    token: user.token,
    query: { workspace_id: workspaceId },
    headers: lastEventId === undefined ? {} : { 'Last-Event-ID': lastEventId },
  })

async function stream(user: TestUser, workspaceId: number, lastEventId?: string) {
  const res = await open(user, workspaceId, lastEventId)
  expect(res.status).toBe(200)
  expect(res.headers.get('Content-Type')).toMatch(/^text\/event-stream/)
  return new SseReader(res)
}

/** A workspace of the admin's with the editor in it. */
async function shared() {
  const ws = await fa.workspace('Общее')
  await addMember(s, admin.token, ws.id, editor)
  return ws
}

describe('live changes', () => {
  it('answers 404 to a non-member and 401 without a token', async () => {
    const ws = await shared()
    expect((await open(stranger, ws.id)).status).toBe(404)
    expect((await s.call('GET', '/api/events', { query: { workspace_id: ws.id } })).status).toBe(
      401,
    )
  })

  it("sends every change of the workspace, one's own and others', in order", async () => {
    const ws = await shared()
    const events = await stream(editor, ws.id)
    // The stream opens with its position: an id line alone.
    const start = await events.next()
    expect(start).toMatchObject({ id: expect.stringMatching(/^\d+$/) })
    expect(start?.data).toBeUndefined()

    const dep = await fa.record('department', ws.id)
    expect((await events.change()).data).toEqual({
      table: 'department',
      id: dep.id,
      version: 1,
      op: 'add',
    })
    await fe.ok(fe.call('POST', '/api/department/update', { id: dep.id, name: 'Другое' }))
    const update = await events.change()
    expect(update.data).toEqual({ table: 'department', id: dep.id, version: 2, op: 'update' })
    expect(BigInt(update.eventId) > BigInt(start!.id!)).toBe(true)

    const p = await fe.project(ws.id)
    expect((await events.change()).data).toEqual({
      table: 'project',
      id: p.id,
      version: 1,
      op: 'add',
    })
    const bg = await fe.background(p.id)
    expect((await events.change()).data).toEqual({
      table: 'background',
      id: bg.id,
      version: 1,
      op: 'add',
      project_id: p.id,
    })
    const block = await fa.block('gift', bg.id)
    // The save touches the project's updated_at, which is no change of the project: one event.
    expect((await events.change()).data).toEqual({
      table: 'block',
      id: block.id,
      version: 1,
      op: 'add',
      bg_id: bg.id,
      project_id: p.id,
      type: 'gift',
    })
    await fa.ok(fa.call('POST', '/api/gift/delete', { id: block.id }))
    expect((await events.change()).data).toMatchObject({
      table: 'block',
      id: block.id,
      op: 'delete',
    })
    await fa.ok(fa.call('POST', '/api/workspace/update', { id: ws.id, name: 'Новое' }))
    expect((await events.change()).data).toEqual({
      table: 'workspace',
      id: ws.id,
      version: 2,
      op: 'update',
    })
    // A department delete that clears a specialist: the specialist's update is sent too.
    const dep2 = await fa.record('department', ws.id)
    const spec = await fa.ok(
      fa.call('POST', '/api/specialist/add', {
        workspace_id: ws.id,
        name: 'Врач',
        department_id: dep2.id,
      }),
    )
    await events.change()
    await events.change()
    await fa.ok(fa.call('POST', '/api/department/delete', { id: dep2.id }))
    const cascade = [(await events.change()).data, (await events.change()).data]
    expect(cascade).toEqual(
      expect.arrayContaining([
        { table: 'specialist', id: spec.id, version: 2, op: 'update' },
        { table: 'department', id: dep2.id, version: 1, op: 'delete' },
      ]),
    )
    // Another workspace's changes are not sent: the next event is this workspace's.
    await fa.record('location', admin.workspaceId)
    const loc = await fa.record('location', ws.id)
    expect((await events.change()).data).toMatchObject({ table: 'location', id: loc.id })
    await events.cancel()
  })

  it('resumes after Last-Event-ID with no gap and no repeat, then goes live', async () => {
    const ws = await shared()
    const first = await stream(editor, ws.id)
    await first.next()
    const a = await fa.record('location', ws.id)
    const seen = await first.change()
    expect(seen.data).toMatchObject({ id: a.id })
    await first.cancel()

    // While away: three changes.
    const b = await fa.record('location', ws.id)
    await fa.ok(fa.call('POST', '/api/location/update', { id: a.id, name: 'Ещё' }))
    const c = await fa.record('department', ws.id)

    const again = await stream(editor, ws.id, seen.eventId)
    const replay = [await again.change(), await again.change(), await again.change()]
    expect(replay.map((e) => [e.data.table, e.data.id, e.data.op])).toEqual([
      ['location', b.id, 'add'],
      ['location', a.id, 'update'],
      ['department', c.id, 'add'],
    ])
    const ids = [seen.eventId, ...replay.map((e) => e.eventId)].map(BigInt)
    expect(ids).toEqual([...ids].sort((x, y) => (x < y ? -1 : 1)))
    expect(new Set(ids).size).toBe(4)
    // Then live.
    const d = await fa.record('department', ws.id)
    const live = await again.change()
    expect(live.data).toMatchObject({ table: 'department', id: d.id, op: 'add' })
    expect(BigInt(live.eventId) > ids[3]!).toBe(true)
    await again.cancel()

    // From the position line alone (no change seen): what came since.
    const quiet = await stream(editor, ws.id)
    const position = (await quiet.next())!.id!
    await quiet.cancel()
    const e = await fa.record('location', ws.id)
    const fromPosition = await stream(editor, ws.id, position)
    expect((await fromPosition.change()).data).toMatchObject({ id: e.id, op: 'add' })
    await fromPosition.cancel()
  })

  it('sends in id order and repeats none when the ids grow a digit', async () => {
    const ws = await shared()
    const quiet = await stream(editor, ws.id)
    const position = (await quiet.next())!.id!
    await quiet.cancel()
    // The next events take the ids 10^n − 2 to 10^n + 1, past every id so far: read together,
    // ordered as text, 10^n would come before 10^n − 2.
    const { services } = await s.app.ready()
    const before = BigInt(10) ** BigInt(position.length + 1) - BigInt(3)
    await services.db.query(`SELECT setval(pg_get_serial_sequence('change_events', 'id'), $1)`, [
      before.toString(),
    ])
    const made: number[] = []
    for (let i = 0; i < 4; i++) made.push((await fa.record('location', ws.id)).id)
    const resumed = await stream(editor, ws.id, position)
    const replay = [
      await resumed.change(),
      await resumed.change(),
      await resumed.change(),
      await resumed.change(),
    ]
    expect(replay.map((e) => BigInt(e.eventId) - before)).toEqual([1n, 2n, 3n, 4n])
    expect(replay.map((e) => e.data.id)).toEqual(made)
    // Then the next change, not one of those again.
    const next = await fa.record('location', ws.id)
    expect((await resumed.change()).data).toMatchObject({ id: next.id, op: 'add' })
    await resumed.cancel()
  })

  it('answers reset for a pruned or unknown Last-Event-ID', async () => {
    const ws = await shared()
    const first = await stream(editor, ws.id)
    await first.next()
    await fa.record('location', ws.id)
    const old = await first.change()
    await first.cancel()
    // One more after it, so that pruning takes an event the stream has not seen.
    await fa.record('location', ws.id)
    const { services } = await s.app.ready()
    // Everything, the event just made included: PGlite's clock counts whole milliseconds, so an
    // event made in the millisecond of the pruning is not older than it (keeping 0 ms).
    await services.events.prune(-60_000)
    for (const asked of [old.eventId, '999999999999', 'abc']) {
      const reader = await stream(editor, ws.id, asked)
      const message = await reader.next()
      expect(message, asked).toMatchObject({ event: 'reset', data: '{}' })
      // Its id resumes from here on.
      expect(message?.id).toMatch(/^\d+$/)
      await reader.cancel()
    }
    // Changes after the pruning resume as usual.
    const reader = await stream(editor, ws.id)
    const position = (await reader.next())!.id!
    await reader.cancel()
    const loc = await fa.record('location', ws.id)
    const resumed = await stream(editor, ws.id, position)
    expect((await resumed.change()).data).toMatchObject({ id: loc.id })
    await resumed.cancel()
  })

  it('ends when the member is removed', async () => {
    const ws = await shared()
    const events = await stream(editor, ws.id)
    await events.next()
    await fa.ok(
      fa.call('POST', '/api/workspace/member/remove', { workspace_id: ws.id, user_id: editor.id }),
    )
    expect(await events.ended()).toBe(true)
    expect((await open(editor, ws.id)).status).toBe(404)
  })

  it('ends after the delete event when the workspace is deleted', async () => {
    const ws = await shared()
    const events = await stream(editor, ws.id)
    await events.next()
    await fa.ok(fa.call('POST', '/api/workspace/delete', { id: ws.id }))
    expect((await events.change()).data).toEqual({
      table: 'workspace',
      id: ws.id,
      version: 1,
      op: 'delete',
    })
    expect(await events.ended()).toBe(true)
  })

  it('ends when its session is signed out, and with the server', async () => {
    const ws = await shared()
    const login = await json<{ access_token: string }>(
      await s.call('POST', '/api/login', {
        body: { email: editor.email, password: 'password123' },
      }),
    )
    const session = { ...editor, token: login.access_token }
    const events = await stream(session, ws.id)
    await events.next()
    // Another session of the same user keeps its stream.
    const other = await stream(editor, ws.id)
    await other.next()
    await s.call('POST', '/api/logout', { token: session.token })
    expect(await events.ended()).toBe(true)
    const loc = await fa.record('location', ws.id)
    expect((await other.change()).data).toMatchObject({ id: loc.id })

    // The server stopping ends the streams still open.
    const own = await testServer()
    try {
      const user = await own.signUp()
      const res = await own.call('GET', '/api/events', {
        token: user.token,
        query: { workspace_id: user.workspaceId },
      })
      const reader = new SseReader(res)
      await reader.next()
      const { services } = await own.app.ready()
      expect(services.events.size).toBe(1)
      await own.close()
      expect(await reader.ended()).toBe(true)
    } finally {
      await own.close().catch(() => undefined)
    }
  })

  it('sends a ping comment at its interval', async () => {
    const own = await testServer({ eventPingMs: 50 })
    try {
      const user = await own.signUp()
      const res = await own.call('GET', '/api/events', {
        token: user.token,
        query: { workspace_id: user.workspaceId },
      })
      const reader = new SseReader(res)
      await reader.next()
      const ping = await reader.nextRaw()
      expect(ping?.comments).toEqual(['ping'])
      await reader.cancel()
    } finally {
      await own.close()
    }
  })

  it('over HTTP: uncompressed, delivered as it happens, and closing the server ends it', async () => {
    const server = await startServer({ port: 0, dataDir: 'memory' })
    let closed = false
    try {
      const post = (path: string, body: unknown, token?: string) =>
        fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            ...(token ? { Authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify(body),
        })
      const auth = (await (
        await post('/api/register', {
          name: 'Сеть',
          email: 'http-events@example.ru',
          password: 'password123',
        })
      ).json()) as { access_token: string }
      const token = auth.access_token
      const list = (await (
        await fetch(`${server.url}/api/workspace/list`, {
          headers: { Authorization: `Bearer ${token}` },
        })
      ).json()) as { id: number }[]
      const res = await fetch(`${server.url}/api/events?workspace_id=${list[0]!.id}`, {
        headers: { Authorization: `Bearer ${token}`, 'Accept-Encoding': 'gzip' },
      })
      expect(res.headers.get('Content-Encoding')).toBeNull()
      const reader = new SseReader(res)
      await reader.next()
      await post('/api/department/add', { workspace_id: list[0]!.id, name: 'Терапия' }, token)
      expect((await reader.change()).data).toMatchObject({ table: 'department', op: 'add' })
      await server.close()
      closed = true
      expect(await reader.ended()).toBe(true)
    } finally {
      if (!closed) await server.close()
    }
    // It starts a server of its own (PGlite in memory), which takes seconds on a busy machine.
  }, 60_000)
})
