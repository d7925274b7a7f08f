import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  json,
  pngImage,
  testServer,
  textBlock,
  uploadForm,
  type CallOptions,
  type TestServer,
  type TestUser,
} from './helpers.ts'

/** User B against each of user A's records and lists: always 404, nothing changes. */
let s: TestServer
let a: TestUser
let b: TestUser
const ids: Record<string, number> = {}

type Row = Record<string, unknown> & { id: number }

const recordBodies: Record<string, Record<string, unknown>> = {
  department: { name: 'Отдел', description: '' },
  location: { name: 'Адрес', address: '', phone: '' },
  specialist: {
    name: 'Врач',
    position: '',
    department_id: null,
    location_id: null,
    phone: '',
    email: '',
    photo_url: '',
    description: '',
  },
  amo: {
    name: 'amo',
    subdomain: 'acme',
    client_id: 'id',
    client_secret: 'secret-12345',
    redirect_uri: 'https://acme.example/cb',
  },
  bitrix: {
    name: 'b24',
    portal_url: 'https://acme.bitrix24.ru',
    webhook_url: 'https://acme.bitrix24.ru/rest/1/token123456/',
  },
}

async function snapshot(): Promise<string> {
  const parts: unknown[] = []
  for (const kind of Object.keys(recordBodies)) {
    parts.push(
      await json(
        await s.call('GET', `/api/${kind}/list`, {
          token: a.token,
          query: { workspace_id: a.workspaceId },
        }),
      ),
    )
  }
  parts.push(await json(await s.call('GET', '/api/workspace/list', { token: a.token })))
  parts.push(
    await json(
      await s.call('GET', '/api/project/get', {
        token: a.token,
        query: { project_id: ids.project! },
      }),
    ),
  )
  parts.push(
    await json(
      await s.call('GET', '/api/project/get_items', { token: a.token, query: { bg_id: ids.bg! } }),
    ),
  )
  return JSON.stringify(parts)
}

beforeAll(async () => {
  s = await testServer()
  a = await s.signUp('Пользователь А')
  b = await s.signUp('Пользователь Б')
  for (const [kind, body] of Object.entries(recordBodies)) {
    const res = await s.call('POST', `/api/${kind}/add`, {
      token: a.token,
      body: { workspace_id: a.workspaceId, ...body },
    })
    ids[kind] = (await json<Row>(res)).id
  }
  ids.project = (
    await json<Row>(
      await s.call('POST', '/api/project/add', {
        token: a.token,
        body: { workspace_id: a.workspaceId, name: 'Проект А' },
      }),
    )
  ).id
  ids.bg = (
    await json<Row>(
      await s.call('POST', '/api/project/add_bg', {
        token: a.token,
        raw: uploadForm(pngImage(8, 8), { project_id: String(ids.project) }),
      }),
    )
  ).id
  ids.text = (
    await json<Row>(
      await s.call('POST', '/api/text/add', { token: a.token, body: textBlock(ids.bg) }),
    )
  ).id
  ids.gift = (
    await json<Row>(
      await s.call('POST', '/api/gift/add', {
        token: a.token,
        body: {
          bg_id: ids.bg,
          x: 0,
          y: 0,
          zindex: 0,
          rotation: 0,
          color: '#fff',
          text: '',
          name: '',
          button_url: '',
          button_hook_url: '',
        },
      }),
    )
  ).id
})
afterAll(() => s.close())

describe('tenant isolation', () => {
  it("B's workspace list holds only B's workspace", async () => {
    const list = await json<Row[]>(await s.call('GET', '/api/workspace/list', { token: b.token }))
    expect(list.map((w) => w.id)).toEqual([b.workspaceId])
  })

  it('every call B makes against A’s records answers 404 and changes nothing', async () => {
    const before = await snapshot()
    const ws = a.workspaceId
    const attempts: [string, string, CallOptions][] = []
    for (const [kind, body] of Object.entries(recordBodies)) {
      const id = ids[kind]!
      attempts.push(
        ['GET', `/api/${kind}/list`, { query: { workspace_id: ws } }],
        ['GET', `/api/${kind}/get`, { query: { id } }],
        ['POST', `/api/${kind}/add`, { body: { workspace_id: ws, ...body } }],
        ['POST', `/api/${kind}/update`, { body: { id, name: 'Взлом' } }],
        ['POST', `/api/${kind}/delete`, { body: { id } }],
      )
      if (kind !== 'department' && kind !== 'location') {
        attempts.push(
          ['POST', `/api/${kind}/disable`, { body: { id } }],
          ['POST', `/api/${kind}/able`, { body: { id } }],
        )
      }
    }
    const bgId = ids.bg!
    attempts.push(
      ['POST', '/api/workspace/update', { body: { id: ws, name: 'Взлом' } }],
      ['POST', '/api/workspace/delete', { body: { id: ws } }],
      ['GET', '/api/project/list', { query: { workspace_id: ws } }],
      ['POST', '/api/project/add', { body: { workspace_id: ws, name: 'Взлом' } }],
      ['POST', '/api/project/rename', { body: { id: ids.project, name: 'Взлом' } }],
      ['POST', '/api/project/set_type', { body: { project_id: ids.project, type: 2 } }],
      ['GET', '/api/project/get', { query: { project_id: ids.project! } }],
      ['GET', '/api/project/get_items', { query: { bg_id: bgId } }],
      ['GET', '/api/project/copy', { query: { id: ids.project! } }],
      ['GET', '/api/project/delete', { query: { id: ids.project! } }],
      ['POST', '/api/project/delete_bg', { body: { id: bgId } }],
      ['POST', '/api/project/delete_item', { body: { id: ids.text } }],
      ['POST', '/api/text/add', { body: textBlock(bgId) }],
      ['POST', '/api/text/add', { body: { id: ids.text, text: 'Взлом' } }],
      ['POST', '/api/gift/update', { body: { id: ids.gift, text: 'Взлом' } }],
      ['POST', '/api/gift/delete', { body: { id: ids.gift } }],
      [
        'POST',
        '/api/subscribe/add',
        {
          body: {
            bg_id: bgId,
            x: 0,
            y: 0,
            zindex: 0,
            rotation: 0,
            specialist_id: null,
            date: '',
            action: '',
          },
        },
      ],
    )
    for (const [method, path, options] of attempts) {
      const res = await s.call(method, path, { ...options, token: b.token })
      expect(res.status, `${method} ${path}`).toBe(404)
      const body = await json<{ error: { code: string; message: string } }>(res)
      expect(body.error).toEqual({ code: 'not_found', message: 'Не найдено' })
    }
    const upload = await s.call('POST', '/api/project/add_bg', {
      token: b.token,
      raw: uploadForm(pngImage(8, 8), { project_id: String(ids.project) }),
    })
    expect(upload.status).toBe(404)
    expect(await snapshot()).toBe(before)
  })

  it('B cannot move their own block onto A’s background', async () => {
    const project = await json<Row>(
      await s.call('POST', '/api/project/add', {
        token: b.token,
        body: { workspace_id: b.workspaceId, name: 'Проект Б' },
      }),
    )
    const bg = await json<Row>(
      await s.call('POST', '/api/project/add_bg', {
        token: b.token,
        raw: uploadForm(pngImage(8, 8), { project_id: String(project.id) }),
      }),
    )
    const block = await json<Row>(
      await s.call('POST', '/api/text/add', { token: b.token, body: textBlock(bg.id) }),
    )
    const res = await s.call('POST', '/api/text/add', {
      token: b.token,
      body: { id: block.id, bg_id: ids.bg },
    })
    expect(res.status).toBe(404)
    const items = await json<Row[]>(
      await s.call('GET', '/api/project/get_items', { token: a.token, query: { bg_id: ids.bg! } }),
    )
    expect(items.map((i) => i.id)).not.toContain(block.id)
  })
})
