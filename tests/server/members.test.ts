import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SseReader } from './sse.ts'
import { addMember, json, testServer, type TestServer, type TestUser } from './helpers.ts'

/** Several people in one workspace: its members and their roles (docs/API.md, "Members"). */
let s: TestServer
let admin: TestUser
let editor: TestUser
let stranger: TestUser

beforeAll(async () => {
  // Invitations to one address: more than the default allows in a minute, all in this file.
  s = await testServer({
    throttle: { invitee: { free: 100, baseMs: 1000, capMs: 60_000, forgetMs: 60_000 } },
  })
  admin = await s.signUp('Администратор')
  editor = await s.signUp('Редактор')
  stranger = await s.signUp('Посторонний')
}, 30_000)
afterAll(() => s.close())

interface Member {
  user_id: number
  name: string
  email: string
  role: string
}
type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } }

const members = async (user: TestUser, workspaceId: number) =>
  s.call('GET', '/api/workspace/members', {
    token: user.token,
    query: { workspace_id: workspaceId },
  })
const add = (user: TestUser, workspaceId: number, email: string) =>
  s.call('POST', '/api/workspace/member/add', {
    token: user.token,
    body: { workspace_id: workspaceId, email },
  })
const remove = (user: TestUser, workspaceId: number, userId: number) =>
  s.call('POST', '/api/workspace/member/remove', {
    token: user.token,
    body: { workspace_id: workspaceId, user_id: userId },
  })
const newWorkspace = async (user: TestUser, name = 'Общее') =>
  json<{ id: number; role: string; version: number }>(
    await s.call('POST', '/api/workspace/add', { token: user.token, body: { name } }),
  )

describe('workspace members', () => {
  it('whoever makes a workspace is its admin, and the list says each role', async () => {
    const ws = await newWorkspace(admin)
    expect(ws.role).toBe('admin')
    const list = await json<{ id: number; role: string }[]>(
      await s.call('GET', '/api/workspace/list', { token: admin.token }),
    )
    expect(list.find((w) => w.id === ws.id)?.role).toBe('admin')
    expect(list.find((w) => w.id === admin.workspaceId)?.role).toBe('admin')
    expect(await json(await members(admin, ws.id))).toEqual([
      { user_id: admin.id, name: 'Администратор', email: admin.email, role: 'admin' },
    ])
  })

  it('member/add invites: the same answer whoever the address is, nobody joins unasked', async () => {
    const ws = await newWorkspace(admin)
    const answers = []
    for (const email of [
      `  ${editor.email.toUpperCase()} `,
      'nobody-here@example.ru',
      admin.email,
      editor.email,
    ]) {
      const res = await add(admin, ws.id, email)
      expect(res.status).toBe(200)
      answers.push(await json(res))
    }
    // Registered or not, a member already or not: nothing tells them apart.
    expect(answers).toEqual([
      { invited: true, email: editor.email },
      { invited: true, email: 'nobody-here@example.ru' },
      { invited: true, email: admin.email },
      { invited: true, email: editor.email },
    ])
    // Not a member yet: the workspace is unknown to them.
    expect((await members(editor, ws.id)).status).toBe(404)
    // The admin sees the two invitations waiting (one each, the repeat made nothing).
    const list = await json<Record<string, unknown>[]>(await members(admin, ws.id))
    expect(list).toEqual([
      { user_id: admin.id, name: 'Администратор', email: admin.email, role: 'admin' },
      {
        invitation_id: expect.any(Number),
        email: editor.email,
        invited_by: 'Администратор',
        created_at: expect.any(String),
        pending: true,
      },
      {
        invitation_id: expect.any(Number),
        email: 'nobody-here@example.ru',
        invited_by: 'Администратор',
        created_at: expect.any(String),
        pending: true,
      },
    ])
  })

  it('the invited person sees the invitation and, accepting it, works in the workspace as an editor', async () => {
    const ws = await newWorkspace(admin, 'Клиника')
    await add(admin, ws.id, editor.email)
    const waiting = await json<Record<string, unknown>[]>(
      await s.call('GET', '/api/workspace/invitations', { token: editor.token }),
    )
    const mine = waiting.find((i) => i.workspace_id === ws.id)
    expect(mine).toEqual({
      id: expect.any(Number),
      workspace_id: ws.id,
      workspace_name: 'Клиника',
      invited_by: 'Администратор',
      created_at: expect.any(String),
    })
    // Someone else cannot take it.
    for (const path of ['/api/workspace/invitation/accept', '/api/workspace/invitation/decline']) {
      const res = await s.call('POST', path, { token: stranger.token, body: { id: mine!.id } })
      expect(res.status).toBe(404)
    }
    const accepted = await s.call('POST', '/api/workspace/invitation/accept', {
      token: editor.token,
      body: { id: mine!.id },
    })
    expect(accepted.status).toBe(200)
    expect(await json(accepted)).toEqual({ id: ws.id, name: 'Клиника', version: 1, role: 'editor' })
    const list = await json<Member[]>(await members(editor, ws.id))
    expect(list.map((m) => [m.user_id, m.role])).toEqual([
      [admin.id, 'admin'],
      [editor.id, 'editor'],
    ])
    const theirs = await json<{ id: number; role: string }[]>(
      await s.call('GET', '/api/workspace/list', { token: editor.token }),
    )
    expect(theirs.find((w) => w.id === ws.id)?.role).toBe('editor')
    const invitations = await json<{ workspace_id: number }[]>(
      await s.call('GET', '/api/workspace/invitations', { token: editor.token }),
    )
    expect(invitations.map((i) => i.workspace_id)).not.toContain(ws.id)
    // The editor works in it like any member.
    const dep = await s.call('POST', '/api/department/add', {
      token: editor.token,
      body: { workspace_id: ws.id, name: 'Терапия' },
    })
    expect(dep.status).toBe(200)
    // Accepted twice: it is gone.
    expect(
      (
        await s.call('POST', '/api/workspace/invitation/accept', {
          token: editor.token,
          body: { id: mine!.id },
        })
      ).status,
    ).toBe(404)
  })

  it('an invitation to an address not registered yet waits for whoever registers with it', async () => {
    const ws = await newWorkspace(admin, 'Будущее')
    const email = `later.${Date.now()}@example.ru`
    expect((await add(admin, ws.id, email)).status).toBe(200)
    const res = await s.call('POST', '/api/register', {
      body: { name: 'Новичок', email, password: 'password123' },
    })
    const { access_token: token } = await json<{ access_token: string }>(res)
    const waiting = await json<{ id: number; workspace_name: string }[]>(
      await s.call('GET', '/api/workspace/invitations', { token }),
    )
    expect(waiting.map((i) => i.workspace_name)).toEqual(['Будущее'])
    // Declined: gone, and no membership.
    const declined = await s.call('POST', '/api/workspace/invitation/decline', {
      token,
      body: { id: waiting[0]!.id },
    })
    expect(await json(declined)).toEqual({ id: waiting[0]!.id, declined: true })
    expect(await json(await s.call('GET', '/api/workspace/invitations', { token }))).toEqual([])
    expect(
      (await s.call('GET', '/api/workspace/members', { token, query: { workspace_id: ws.id } }))
        .status,
    ).toBe(404)
  })

  it('an admin withdraws an invitation; an editor may not', async () => {
    const ws = await newWorkspace(admin)
    await addMember(s, admin.token, ws.id, editor)
    await add(admin, ws.id, stranger.email)
    const pending = (await json<{ invitation_id?: number }[]>(await members(admin, ws.id))).find(
      (m) => m.invitation_id,
    )!
    // An editor sees the members only, and may not withdraw.
    const seen = await json<{ invitation_id?: number }[]>(await members(editor, ws.id))
    expect(seen.some((m) => m.invitation_id)).toBe(false)
    const cancel = (user: TestUser) =>
      s.call('POST', '/api/workspace/invitation/cancel', {
        token: user.token,
        body: { id: pending.invitation_id },
      })
    expect((await cancel(editor)).status).toBe(403)
    expect((await cancel(stranger)).status).toBe(404)
    const res = await cancel(admin)
    expect(await json(res)).toEqual({
      id: pending.invitation_id,
      workspace_id: ws.id,
      cancelled: true,
    })
    expect(
      await json(await s.call('GET', '/api/workspace/invitations', { token: stranger.token })),
    ).toEqual([])
    expect((await cancel(admin)).status).toBe(404)
  })

  it('invitations are limited like sign-ins: a flood waits (429), whoever the addresses are', async () => {
    const own = await testServer({
      throttle: { inviter: { free: 3, baseMs: 1000, capMs: 60_000, forgetMs: 60_000 } },
    })
    try {
      const boss = await own.signUp('Администратор')
      const send = (email: string) =>
        own.call('POST', '/api/workspace/member/add', {
          token: boss.token,
          body: { workspace_id: boss.workspaceId, email },
        })
      for (let i = 0; i < 3; i++) expect((await send(`a${i}@example.ru`)).status).toBe(200)
      const refused = await send('a3@example.ru')
      expect(refused.status).toBe(429)
      expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
    } finally {
      await own.close()
    }
  }, 60_000)

  it('a member leaves; the last admin cannot, and is told so in Russian', async () => {
    const ws = await newWorkspace(admin)
    await addMember(s, admin.token, ws.id, editor)
    const leave = (user: TestUser) =>
      s.call('POST', '/api/workspace/leave', { token: user.token, body: { workspace_id: ws.id } })
    const refused = await leave(admin)
    expect(refused.status).toBe(422)
    const body = await json<ErrorBody>(refused)
    expect(body.error.code).toBe('validation_error')
    expect(body.error.fields?.workspace_id).toMatch(/^Вы последний администратор пространства/)
    const left = await leave(editor)
    expect(await json(left)).toEqual({ workspace_id: ws.id, left: true })
    expect((await members(editor, ws.id)).status).toBe(404)
    expect((await leave(editor)).status).toBe(404)
    expect((await leave(stranger)).status).toBe(404)
  })

  it("an accepted invitation reaches the person's own open streams at once", async () => {
    const ws = await newWorkspace(admin, 'Живое')
    const res = await s.call('GET', '/api/events', {
      token: editor.token,
      query: { workspace_id: editor.workspaceId },
    })
    const stream = new SseReader(res)
    await stream.next()
    await add(admin, ws.id, editor.email)
    expect(await stream.next()).toMatchObject({ event: 'invitations', data: '{}' })
    const waiting = await json<{ id: number; workspace_id: number }[]>(
      await s.call('GET', '/api/workspace/invitations', { token: editor.token }),
    )
    await s.call('POST', '/api/workspace/invitation/accept', {
      token: editor.token,
      body: { id: waiting.find((i) => i.workspace_id === ws.id)!.id },
    })
    const told = [await stream.next(), await stream.next()].map((m) => m?.event)
    expect(told.sort()).toEqual(['invitations', 'workspaces'])
    await stream.cancel()
  })

  it('an editor may not invite, remove or delete the workspace: 403; a stranger gets 404', async () => {
    const ws = await newWorkspace(admin)
    await addMember(s, admin.token, ws.id, editor)
    for (const res of [
      await add(editor, ws.id, stranger.email),
      await remove(editor, ws.id, admin.id),
      await s.call('POST', '/api/workspace/delete', { token: editor.token, body: { id: ws.id } }),
    ]) {
      expect(res.status).toBe(403)
      const body = await json<ErrorBody>(res)
      expect(body.error).toEqual({ code: 'forbidden', message: 'Недостаточно прав' })
    }
    for (const res of [
      await members(stranger, ws.id),
      await add(stranger, ws.id, stranger.email),
      await remove(stranger, ws.id, admin.id),
    ]) {
      expect(res.status).toBe(404)
    }
    expect((await members(admin, ws.id)).status).toBe(200)
    expect(
      (await s.call('POST', '/api/workspace/delete', { token: admin.token, body: { id: ws.id } }))
        .status,
    ).toBe(200)
  })

  it('the last admin cannot be removed', async () => {
    const ws = await newWorkspace(admin)
    await addMember(s, admin.token, ws.id, editor)
    const res = await remove(admin, ws.id, admin.id)
    expect(res.status).toBe(422)
    const body = await json<ErrorBody>(res)
    expect(body.error.message).toBe('Нельзя удалить последнего администратора пространства')
    expect((await json<Member[]>(await members(admin, ws.id))).length).toBe(2)
  })

  it('a removed member loses the workspace at once, on every call', async () => {
    const ws = await newWorkspace(admin)
    await addMember(s, admin.token, ws.id, editor)
    const project = await json<{ id: number }>(
      await s.call('POST', '/api/project/add', {
        token: admin.token,
        body: { workspace_id: ws.id, name: 'Акция' },
      }),
    )
    // The editor reads it first, so whatever the server keeps of those answers is warm.
    const reads = () => [
      s.call('GET', '/api/department/list', {
        token: editor.token,
        query: { workspace_id: ws.id },
      }),
      s.call('GET', '/api/project/list', { token: editor.token, query: { workspace_id: ws.id } }),
      s.call('GET', '/api/project/get', { token: editor.token, query: { project_id: project.id } }),
      members(editor, ws.id),
    ]
    for (const res of await Promise.all(reads())) expect(res.status).toBe(200)
    const removed = await remove(admin, ws.id, editor.id)
    expect(removed.status).toBe(200)
    expect(await json(removed)).toEqual({ workspace_id: ws.id, user_id: editor.id, removed: true })
    for (const res of await Promise.all(reads())) expect(res.status).toBe(404)
    const list = await json<{ id: number }[]>(
      await s.call('GET', '/api/workspace/list', { token: editor.token }),
    )
    expect(list.map((w) => w.id)).not.toContain(ws.id)
    // Removed twice: no longer a member.
    expect((await remove(admin, ws.id, editor.id)).status).toBe(404)
  })

  it('the demo seed shares its workspace between an admin and an editor', async () => {
    const { createApp } = await import('../../server/app.ts')
    // A database of its own: seconds to open, with its thread (server/db/pglite-thread.ts).
    const demo = createApp({ dataDir: 'memory', seed: true })
    try {
      const { seeded } = await demo.ready()
      const login = async (email: string) => {
        const res = await demo.request('/api/login', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email, password: 'demo12345' }),
        })
        return ((await res.json()) as { access_token: string }).access_token
      }
      const token = await login('demo@promo.local')
      const res = await demo.request(`/api/workspace/members?workspace_id=${seeded!.workspaceId}`, {
        headers: { Authorization: `Bearer ${token}` },
      })
      const list = (await res.json()) as Member[]
      expect(list.map((m) => [m.email, m.role])).toEqual([
        ['demo@promo.local', 'admin'],
        ['editor@promo.local', 'editor'],
      ])
    } finally {
      await demo.close()
    }
  }, 60_000)
})
