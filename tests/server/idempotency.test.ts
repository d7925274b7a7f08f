import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  json,
  pngImage,
  testServer,
  textBlock,
  uploadForm,
  type TestServer,
  type TestUser,
} from './helpers.ts'
import { claimKey } from '../../server/storage/idempotency.ts'

let s: TestServer
let u: TestUser

type Row = Record<string, unknown> & { id: number }

beforeAll(async () => {
  s = await testServer()
  u = await s.signUp()
})
afterAll(() => s.close())

async function count(kind: string, workspaceId = u.workspaceId, token = u.token) {
  const list = await json<Row[]>(
    await s.call('GET', `/api/${kind}/list`, { token, query: { workspace_id: workspaceId } }),
  )
  return list.length
}

describe('Idempotency-Key', () => {
  it('a repeat returns the first response and creates nothing new', async () => {
    const key = randomUUID()
    const send = () =>
      s.call('POST', '/api/department/add', {
        token: u.token,
        headers: { 'Idempotency-Key': key },
        body: { workspace_id: u.workspaceId, name: 'Кардиология', description: '' },
      })
    const first = await send()
    const second = await send()
    expect(second.status).toBe(first.status)
    expect(await second.text()).toBe(await first.text())
    expect(second.headers.get('Idempotent-Replayed')).toBe('true')
    expect(await count('department')).toBe(1)
  })

  it('concurrent repeats create one record and all get the same body', async () => {
    const key = randomUUID()
    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        s.call('POST', '/api/location/add', {
          token: u.token,
          headers: { 'Idempotency-Key': key },
          body: { workspace_id: u.workspaceId, name: 'Филиал', address: '', phone: '' },
        }),
      ),
    )
    const bodies = await Promise.all(responses.map((r) => r.text()))
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200])
    expect(new Set(bodies).size).toBe(1)
    expect(await count('location')).toBe(1)
  })

  it('different keys create different records; no key means no dedupe', async () => {
    const body = { workspace_id: u.workspaceId, name: 'Без ключа', description: '' }
    await s.call('POST', '/api/department/add', {
      token: u.token,
      body,
      headers: { 'Idempotency-Key': randomUUID() },
    })
    await s.call('POST', '/api/department/add', {
      token: u.token,
      body,
      headers: { 'Idempotency-Key': randomUUID() },
    })
    await s.call('POST', '/api/department/add', { token: u.token, body })
    await s.call('POST', '/api/department/add', { token: u.token, body })
    expect(await count('department')).toBe(5)
  })

  it('keys are per user: the same key from another user runs anew', async () => {
    const other = await s.signUp()
    const key = randomUUID()
    const a = await s.call('POST', '/api/workspace/add', {
      token: u.token,
      headers: { 'Idempotency-Key': key },
      body: { name: 'А' },
    })
    const b = await s.call('POST', '/api/workspace/add', {
      token: other.token,
      headers: { 'Idempotency-Key': key },
      body: { name: 'Б' },
    })
    expect((await json<Row>(a)).name).toBe('А')
    expect((await json<Row>(b)).name).toBe('Б')
  })

  it('the same key with another body is refused with 422 idempotency_mismatch and stores nothing', async () => {
    const key = randomUUID()
    const send = (name: string) =>
      s.call('POST', '/api/department/add', {
        token: u.token,
        headers: { 'Idempotency-Key': key },
        body: { workspace_id: u.workspaceId, name, description: '' },
      })
    const before = await count('department')
    expect((await send('Неврология')).status).toBe(200)
    const other = await send('Хирургия')
    expect(other.status).toBe(422)
    expect((await json<{ error: { code: string } }>(other)).error.code).toBe('idempotency_mismatch')
    expect(await count('department')).toBe(before + 1)
    // The same request again is still answered from the first.
    expect((await json<Row>(await send('Неврология'))).name).toBe('Неврология')
  })

  it('a body that claims to be multipart but is not is answered as the call answers it, never 500', async () => {
    for (const [path, contentType, status] of [
      ['/api/gift/add', 'multipart/form-data; boundary=nope', 422],
      ['/api/workspace/add', 'multipart/form-data', 200],
      ['/api/image/upload', 'multipart/form-data; boundary=x', 400],
    ] as const) {
      const key = randomUUID()
      const first = await s.call('POST', path, {
        token: u.token,
        raw: '{"name":"Не форма"}',
        headers: { 'Content-Type': contentType, 'Idempotency-Key': key },
      })
      // JSON calls read the body as JSON whatever its type (a gift without its fields is 422);
      // an upload refuses it.
      expect(first.status, path).toBe(status)
      // The same bytes under the same key: the same answer.
      const again = await s.call('POST', path, {
        token: u.token,
        raw: '{"name":"Не форма"}',
        headers: { 'Content-Type': contentType, 'Idempotency-Key': key },
      })
      expect(again.status, path).toBe(first.status)
    }
  })

  it('the same key on another call is refused', async () => {
    const key = randomUUID()
    await s.call('POST', '/api/workspace/add', {
      token: u.token,
      headers: { 'Idempotency-Key': key },
      body: { name: 'Раз' },
    })
    const res = await s.call('POST', '/api/department/add', {
      token: u.token,
      headers: { 'Idempotency-Key': key },
      body: { workspace_id: u.workspaceId, name: 'Два', description: '' },
    })
    expect(res.status).toBe(422)
    expect((await json<{ error: { code: string } }>(res)).error.code).toBe('idempotency_mismatch')
  })

  it('covers block saves, uploads and the mutating GETs', async () => {
    const project = await json<Row>(
      await s.call('POST', '/api/project/add', {
        token: u.token,
        body: { workspace_id: u.workspaceId, name: 'И' },
      }),
    )
    const bgKey = randomUUID()
    const upload = () =>
      s.call('POST', '/api/project/add_bg', {
        token: u.token,
        headers: { 'Idempotency-Key': bgKey },
        raw: uploadForm(pngImage(4, 4), { project_id: String(project.id) }),
      })
    const bg1 = await json<Row>(await upload())
    const bg2 = await json<Row>(await upload())
    expect(bg2).toEqual(bg1)

    const blockKey = randomUUID()
    const save = () =>
      s.call('POST', '/api/text/add', {
        token: u.token,
        headers: { 'Idempotency-Key': blockKey },
        body: textBlock(bg1.id),
      })
    expect(await json(await save())).toEqual(await json(await save()))
    const items = await json<Row[]>(
      await s.call('GET', '/api/project/get_items', { token: u.token, query: { bg_id: bg1.id } }),
    )
    expect(items).toHaveLength(1)

    const copyKey = randomUUID()
    const copy = () =>
      s.call('GET', '/api/project/copy', {
        token: u.token,
        headers: { 'Idempotency-Key': copyKey },
        query: { id: project.id },
      })
    expect((await json<Row>(await copy())).id).toBe((await json<Row>(await copy())).id)
    const projects = await json<Row[]>(
      await s.call('GET', '/api/project/list', {
        token: u.token,
        query: { workspace_id: u.workspaceId },
      }),
    )
    expect(projects).toHaveLength(2)

    const project2 = projects[1]!
    const delKey = randomUUID()
    const del = () =>
      s.call('GET', '/api/project/delete', {
        token: u.token,
        headers: { 'Idempotency-Key': delKey },
        query: { id: project2.id },
      })
    const d1 = await del()
    const d2 = await del()
    expect(d1.status).toBe(200)
    expect(d2.status).toBe(200)
    expect(await d2.json()).toEqual({ id: project2.id, deleted: true })
  })
})

describe('workspace delete', () => {
  it('removes everything in the workspace', async () => {
    const user = await s.signUp()
    const ws = await json<Row>(
      await s.call('POST', '/api/workspace/add', {
        token: user.token,
        body: { name: 'Удаляемое' },
      }),
    )
    const renamed = await s.call('POST', '/api/workspace/update', {
      token: user.token,
      body: { id: ws.id, name: 'Удаляемое!' },
    })
    expect(await json(renamed)).toEqual({
      id: ws.id,
      name: 'Удаляемое!',
      version: 2,
      role: 'admin',
    })
    const dept = await json<Row>(
      await s.call('POST', '/api/department/add', {
        token: user.token,
        body: { workspace_id: ws.id, name: 'О', description: '' },
      }),
    )
    const project = await json<Row>(
      await s.call('POST', '/api/project/add', {
        token: user.token,
        body: { workspace_id: ws.id, name: 'П' },
      }),
    )
    const bg = await json<Row>(
      await s.call('POST', '/api/project/add_bg', {
        token: user.token,
        raw: uploadForm(pngImage(4, 4), { project_id: String(project.id) }),
      }),
    )
    const block = await json<Row>(
      await s.call('POST', '/api/text/add', { token: user.token, body: textBlock(bg.id) }),
    )

    const res = await s.call('POST', '/api/workspace/delete', {
      token: user.token,
      body: { id: ws.id },
    })
    expect(await json(res)).toEqual({ id: ws.id, deleted: true })
    const list = await json<Row[]>(
      await s.call('GET', '/api/workspace/list', { token: user.token }),
    )
    expect(list.map((w) => w.id)).toEqual([user.workspaceId])

    const db = (await s.app.ready()).services.db
    for (const [table, id] of [
      ['departments', dept.id],
      ['projects', project.id],
      ['backgrounds', bg.id],
      ['blocks', block.id],
    ] as const) {
      const { rows } = await db.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id])
      expect(rows, table).toHaveLength(0)
    }
  })
})

describe('a repeat of a request still running', () => {
  it('waits, then answers 409 idempotency_pending, and stores nothing', async () => {
    const t = await testServer({ idempotencyWaitMs: 100 })
    try {
      const user = await t.signUp()
      const { services } = await t.app.ready()
      const key = randomUUID()
      // The first request claimed the key and is still being answered (its process is busy).
      await claimKey(services.db, user.id, key, 'POST', '/api/department/add')
      const res = await t.call('POST', '/api/department/add', {
        token: user.token,
        headers: { 'Idempotency-Key': key },
        body: { workspace_id: user.workspaceId, name: 'Повтор', description: '' },
      })
      expect(res.status).toBe(409)
      expect((await json<{ error: { code: string } }>(res)).error.code).toBe('idempotency_pending')
      const list = await json<Row[]>(
        await t.call('GET', '/api/department/list', {
          token: user.token,
          query: { workspace_id: user.workspaceId },
        }),
      )
      expect(list).toEqual([])
    } finally {
      await t.close()
    }
  })
})

describe('a first request’s stored answer', () => {
  it('is stored after the answer goes out; a repeat in between waits for it', async () => {
    const t = await testServer()
    try {
      const user = await t.signUp()
      const { services } = await t.app.ready()
      // Storing the answer is held until the test lets it go.
      const db = services.db
      const query = db.query
      let store!: () => void
      const stored = new Promise<void>((resolve) => (store = resolve))
      Object.assign(db, {
        query: async (text: string, params?: readonly unknown[]) => {
          if (/^UPDATE idempotency_keys/.test(text)) await stored
          return query(text, params)
        },
      })
      try {
        const key = randomUUID()
        const send = () =>
          t.call('POST', '/api/department/add', {
            token: user.token,
            headers: { 'Idempotency-Key': key },
            body: { workspace_id: user.workspaceId, name: 'Сразу', description: '' },
          })
        const first = await Promise.race([
          send(),
          new Promise<string>((resolve) => setTimeout(() => resolve('no answer in 2 s'), 2000)),
        ])
        if (typeof first === 'string') throw new Error(first)
        expect(first.status).toBe(200)
        const body = await first.text()
        let settled = false
        const repeat = send().then((res) => ((settled = true), res))
        await new Promise((resolve) => setTimeout(resolve, 150))
        expect(settled).toBe(false)
        store()
        const again = await repeat
        expect(again.headers.get('Idempotent-Replayed')).toBe('true')
        expect(await again.text()).toBe(body)
        await services.background.idle()
      } finally {
        Object.assign(db, { query })
      }
      const list = await json<Row[]>(
        await t.call('GET', '/api/department/list', {
          token: user.token,
          query: { workspace_id: user.workspaceId },
        }),
      )
      expect(list.map((d) => d.name)).toEqual(['Сразу'])
    } finally {
      await t.close()
    }
  })
})
