import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { json, testServer, type TestServer, type TestUser } from './helpers.ts'

/** Several people in one workspace: its members and their roles (docs/API.md, "Members"). */
let s: TestServer
let admin: TestUser
let editor: TestUser
let stranger: TestUser

beforeAll(async () => {
  s = await testServer()
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

  it('an admin adds a registered user by email as an editor, once', async () => {
    const ws = await newWorkspace(admin)
    const res = await add(admin, ws.id, `  ${editor.email.toUpperCase()} `)
    expect(res.status).toBe(200)
    const member = await json<Member>(res)
    expect(member).toEqual({
      user_id: editor.id,
      name: 'Редактор',
      email: editor.email,
      role: 'editor',
    })
    // Again: answered as is, nothing doubled.
    expect(await json(await add(admin, ws.id, editor.email))).toEqual(member)
    const list = await json<Member[]>(await members(editor, ws.id))
    expect(list.map((m) => [m.user_id, m.role])).toEqual([
      [admin.id, 'admin'],
      [editor.id, 'editor'],
    ])
    const theirs = await json<{ id: number; role: string }[]>(
      await s.call('GET', '/api/workspace/list', { token: editor.token }),
    )
    expect(theirs.find((w) => w.id === ws.id)?.role).toBe('editor')
    // The editor works in it like any member.
    const dep = await s.call('POST', '/api/department/add', {
      token: editor.token,
      body: { workspace_id: ws.id, name: 'Терапия' },
    })
    expect(dep.status).toBe(200)
  })

  it('an unknown email is a 422 on the email field, in Russian', async () => {
    const ws = await newWorkspace(admin)
    const res = await add(admin, ws.id, 'nobody-here@example.ru')
    expect(res.status).toBe(422)
    const body = await json<ErrorBody>(res)
    expect(body.error.code).toBe('validation_error')
    expect(body.error.fields?.email).toBe('Пользователь с таким адресом не зарегистрирован')
  })

  it('an editor may not add, remove or delete the workspace: 403; a stranger gets 404', async () => {
    const ws = await newWorkspace(admin)
    await add(admin, ws.id, editor.email)
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
    await add(admin, ws.id, editor.email)
    const res = await remove(admin, ws.id, admin.id)
    expect(res.status).toBe(422)
    const body = await json<ErrorBody>(res)
    expect(body.error.message).toBe('Нельзя удалить последнего администратора пространства')
    expect((await json<Member[]>(await members(admin, ws.id))).length).toBe(2)
  })

  it('a removed member loses the workspace at once, on every call', async () => {
    const ws = await newWorkspace(admin)
    await add(admin, ws.id, editor.email)
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
