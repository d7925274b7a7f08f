import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { STREAM_CAPS } from '../../server/services/events.ts'
import { addMember, json, testServer, type TestServer, type TestUser } from './helpers.ts'
import { SseReader } from './sse.ts'

/**
 * The fan-out of live changes (docs/API.md, "Live changes"): one read of the database per change
 * serves every stream of the workspace, each stream gets what its user may see, and the streams
 * one token and one person hold open are capped, the oldest ended.
 */
let s: TestServer
let admin: TestUser
let editor: TestUser
let stranger: TestUser

const CAPS = { perToken: 3, perUser: 5 }

beforeAll(async () => {
  s = await testServer({ eventStreamCaps: CAPS })
  admin = await s.signUp('Администратор')
  editor = await s.signUp('Редактор')
  stranger = await s.signUp('Посторонний')
  await addMember(s, admin.token, admin.workspaceId, editor)
}, 30_000)
afterAll(() => s.close())

async function stream(token: string, workspaceId: number): Promise<SseReader> {
  const res = await s.call('GET', '/api/events', { token, query: { workspace_id: workspaceId } })
  expect(res.status).toBe(200)
  const reader = new SseReader(res)
  await reader.next()
  return reader
}

async function signIn(user: TestUser): Promise<string> {
  const res = await s.call('POST', '/api/login', {
    body: { email: user.email, password: 'password123' },
  })
  return (await json<{ access_token: string }>(res)).access_token
}

const department = (token: string, workspaceId: number, name: string) =>
  s
    .call('POST', '/api/department/add', { token, body: { workspace_id: workspaceId, name } })
    .then((res) => json<{ id: number }>(res))

/** Resolves with what `promise` gives, or with 'nothing' once `ms` have passed. */
function within<T>(ms: number, promise: Promise<T>): Promise<T | 'nothing'> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<'nothing'>((resolve) => {
    timer = setTimeout(() => resolve('nothing'), ms)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

describe('fan-out of live changes', () => {
  it('reads the database once per change, however many streams are open', async () => {
    const { services } = await s.app.ready()
    const tokens = [admin.token, await signIn(admin), editor.token, await signIn(editor)]
    // Eight streams of two people in one workspace, two per token.
    const readers: SseReader[] = []
    for (const token of tokens)
      for (let i = 0; i < 2; i++) readers.push(await stream(token, admin.workspaceId))
    // A first change reaches them all: the reads their opening asked for are done.
    const first = await department(admin.token, admin.workspaceId, 'Первое')
    for (const reader of readers)
      expect((await reader.change()).data).toMatchObject({ id: first.id })
    const { db } = services
    const sent: string[] = []
    const query = db.query
    db.query = (text, params) => {
      if (text.includes('FROM change_events') && !text.includes('INSERT')) sent.push(text)
      return query(text, params)
    }
    try {
      const dep = await department(admin.token, admin.workspaceId, 'Терапия')
      for (const reader of readers)
        expect((await reader.change()).data).toMatchObject({ table: 'department', id: dep.id })
      // One read for the eight streams (before: one per stream). At most one more may have been
      // due already from the first change's burst.
      expect(sent.length).toBeGreaterThanOrEqual(1)
      expect(sent.length).toBeLessThanOrEqual(2)
    } finally {
      db.query = query
      await Promise.all(readers.map((r) => r.cancel()))
    }
  })

  it('sends a change to exactly the streams allowed to see it', async () => {
    const mine = await stream(admin.token, admin.workspaceId)
    const colleague = await stream(editor.token, admin.workspaceId)
    const editorsOwn = await stream(editor.token, editor.workspaceId)
    const outsider = await stream(stranger.token, stranger.workspaceId)

    const dep = await department(admin.token, admin.workspaceId, 'Неврология')
    expect((await mine.change()).data).toMatchObject({ id: dep.id })
    expect((await colleague.change()).data).toMatchObject({ id: dep.id })
    // The other workspaces' streams got nothing: their next event is their own workspace's.
    const strangers = await department(stranger.token, stranger.workspaceId, 'Своё')
    expect((await outsider.change()).data).toMatchObject({ id: strangers.id })
    const editors = await department(editor.token, editor.workspaceId, 'Своё')
    expect((await editorsOwn.change()).data).toMatchObject({ id: editors.id })

    // Removed, the editor's stream of that workspace is told so and ends; the admin's goes on,
    // and so does the editor's stream of their own workspace.
    await s.call('POST', '/api/workspace/member/remove', {
      token: admin.token,
      body: { workspace_id: admin.workspaceId, user_id: editor.id },
    })
    const said = []
    for (let m = await colleague.nextRaw(); m; m = await colleague.nextRaw()) said.push(m)
    expect(said.map((m) => m.event).filter(Boolean)).toContain('removed')
    expect(said.find((m) => m.event === 'removed')?.data).toBe(
      JSON.stringify({ workspace_id: admin.workspaceId }),
    )
    const after = await department(admin.token, admin.workspaceId, 'Хирургия')
    expect((await mine.change()).data).toMatchObject({ id: after.id })
    expect(await within(300, editorsOwn.change())).toBe('nothing')
    await Promise.all([mine, editorsOwn, outsider].map((r) => r.cancel()))
    await addMember(s, admin.token, admin.workspaceId, editor)
  })

  it('ends the oldest stream of a token past its cap, and the oldest of a person past theirs', async () => {
    const { services } = await s.app.ready()
    const token = await signIn(stranger)
    const ofToken: SseReader[] = []
    for (let i = 0; i < CAPS.perToken; i++) ofToken.push(await stream(token, stranger.workspaceId))
    const opened = services.events.size
    ofToken.push(await stream(token, stranger.workspaceId))
    expect(await ofToken[0]!.ended()).toBe(true)
    expect(services.events.size).toBe(opened)
    // The others of that token are still live.
    const dep = await department(stranger.token, stranger.workspaceId, 'Стоматология')
    for (const reader of ofToken.slice(1))
      expect((await reader.change()).data).toMatchObject({ id: dep.id })

    // The person: three of the first token and two of another make five; the sixth ends the
    // oldest of all of them, whichever token it was.
    const second = await signIn(stranger)
    const more = [
      await stream(second, stranger.workspaceId),
      await stream(second, stranger.workspaceId),
    ]
    const sixth = await stream(second, stranger.workspaceId)
    expect(await ofToken[1]!.ended()).toBe(true)
    const dep2 = await department(stranger.token, stranger.workspaceId, 'Ортопедия')
    for (const reader of [...ofToken.slice(2), ...more, sixth])
      expect((await reader.change()).data).toMatchObject({ id: dep2.id })
    await Promise.all([...ofToken.slice(2), ...more, sixth].map((r) => r.cancel()))
  })

  it('caps at 20 streams per token and 50 per person unless told otherwise', () => {
    expect(STREAM_CAPS).toEqual({ perToken: 20, perUser: 50 })
  })
})
