import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  json,
  pngImage,
  testServer,
  uploadForm,
  type TestServer,
  type TestUser,
} from './helpers.ts'

/**
 * Fields a record or a block can do without may be left out on add and take their defaults;
 * `enabled: false` on add is stored as sent. The app's own forms send every field (tested in
 * records.test.ts and projects.test.ts); a thinner client must not have to.
 */
let s: TestServer
let u: TestUser
beforeAll(async () => {
  s = await testServer()
  u = await s.signUp()
})
afterAll(() => s.close())

async function add(kind: string, body: Record<string, unknown>) {
  const res = await s.call('POST', `/api/${kind}/add`, {
    token: u.token,
    body: { workspace_id: u.workspaceId, ...body },
  })
  return { status: res.status, body: await json(res) }
}

describe('records: optional fields left out on add', () => {
  it('a department with a name only', async () => {
    const res = await add('department', { name: 'Терапия' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ name: 'Терапия', description: '' })
  })

  it('a location with a name only', async () => {
    const res = await add('location', { name: 'Клиника' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ name: 'Клиника', address: '', phone: '' })
  })

  it('a specialist with a name only, enabled by default', async () => {
    const res = await add('specialist', { name: 'Иванова Анна' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      name: 'Иванова Анна',
      position: '',
      department_id: null,
      location_id: null,
      phone: '',
      email: '',
      photo_url: '',
      description: '',
      enabled: true,
    })
  })

  it('an amo integration without a redirect URI', async () => {
    const res = await add('amo', {
      name: 'amoCRM',
      subdomain: 'clinic',
      client_id: 'client-1',
      client_secret: 'super-secret-value-1234',
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ redirect_uri: '', enabled: true })
  })

  it('a required field left out is still refused', async () => {
    const res = await add('specialist', { position: 'Терапевт' })
    expect(res.status).toBe(422)
    expect(res.body).toMatchObject({ error: { fields: { name: 'Обязательное поле' } } })
    const amo = await add('amo', { name: 'amoCRM', client_id: 'c', client_secret: 'secret' })
    expect(amo.status).toBe(422)
    expect(amo.body).toMatchObject({ error: { fields: { subdomain: 'Обязательное поле' } } })
  })

  it('a value of the wrong type for an optional field is refused', async () => {
    const res = await add('location', { name: 'Клиника', phone: 42 })
    expect(res.status).toBe(422)
    const enabled = await add('specialist', { name: 'Анна', enabled: 'no' })
    expect(enabled.status).toBe(422)
  })
})

describe('records: enabled: false on add is honoured', () => {
  it.each([
    ['specialist', { name: 'Петров' }],
    [
      'amo',
      {
        name: 'amoCRM',
        subdomain: 'clinic-two',
        client_id: 'client-2',
        client_secret: 'super-secret-value-5678',
        redirect_uri: 'https://clinic.example/cb',
      },
    ],
    [
      'bitrix',
      {
        name: 'Битрикс24',
        portal_url: 'https://clinic.bitrix24.ru',
        webhook_url: 'https://clinic.bitrix24.ru/rest/7/abcdefgh12345678/',
      },
    ],
  ] as const)('%s', async (kind, body) => {
    const res = await add(kind, { ...body, enabled: false })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ enabled: false })
    const got = await s.call('GET', `/api/${kind}/get`, {
      token: u.token,
      query: { id: (res.body as { id: number }).id },
    })
    expect(await json(got)).toMatchObject({ enabled: false })
  })
})

describe('blocks: every field but the geometry may be left out on add', () => {
  let bgId: number
  beforeAll(async () => {
    const project = await json<{ id: number }>(
      await s.call('POST', '/api/project/add', {
        token: u.token,
        body: { workspace_id: u.workspaceId, name: 'Акция' },
      }),
    )
    const bg = await s.call('POST', '/api/project/add_bg', {
      token: u.token,
      raw: uploadForm(pngImage(32, 18), { project_id: String(project.id) }),
    })
    bgId = (await json<{ id: number }>(bg)).id
  })

  const geometry = { x: 0, y: 0, zindex: 1, rotation: 0 }
  const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['text', { width: 50, fontSize: 4 }, { text: '', name: '', align: 'center', font: 'Roboto' }],
    [
      'button',
      { width: 20, height: 10, fontSize: 3 },
      { btn_type: 'link', btn_type_value: '', border_width: 0, text: '' },
    ],
    ['image', { width: 40, height: 30, scaleX: 1, scaleY: 1 }, { image_url: '', name: '' }],
    ['video', { width: 60, height: 34, scaleX: 1, scaleY: 1 }, { video_url: '', video_src: '' }],
    ['gift', {}, { text: '', button_url: '', button_hook_url: '' }],
    ['price', { width: 30 }, { text: '', text_price: null, button_text: '' }],
    ['subscribe', {}, { specialist_id: null, date: '', action: '' }],
  ]

  it.each(cases)('%s', async (type, size, defaults) => {
    const res = await s.call('POST', `/api/${type}/add`, {
      token: u.token,
      body: { bg_id: bgId, ...geometry, ...size },
    })
    expect(res.status).toBe(200)
    const block = await json(res)
    expect(block).toMatchObject({ type, bg_id: bgId, ...geometry, ...size, ...defaults })
    // What was stored is what comes back.
    const list = await json<Record<string, unknown>[]>(
      await s.call('GET', '/api/project/get_items', { token: u.token, query: { bg_id: bgId } }),
    )
    expect(list.find((b) => b.id === block.id)).toEqual(block)
  })

  it('geometry left out is still refused', async () => {
    const res = await s.call('POST', '/api/text/add', {
      token: u.token,
      body: { bg_id: bgId, y: 0, zindex: 1, rotation: 0, width: 50, fontSize: 4 },
    })
    expect(res.status).toBe(422)
    expect(await json(res)).toMatchObject({ error: { fields: { x: 'Обязательное поле' } } })
  })

  it('an update keeps the stored value of a field left out', async () => {
    const created = await json<{ id: number }>(
      await s.call('POST', '/api/text/add', {
        token: u.token,
        body: { bg_id: bgId, ...geometry, width: 50, fontSize: 4, text: 'Привет' },
      }),
    )
    const updated = await s.call('POST', '/api/text/add', {
      token: u.token,
      body: { id: created.id, x: 5 },
    })
    expect(await json(updated)).toMatchObject({ x: 5, text: 'Привет' })
  })
})
