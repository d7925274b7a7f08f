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

let s: TestServer
let u: TestUser
let bgId: number
let projectId: number
const logs: Record<string, unknown>[] = []

type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } }

const UPLOAD_MAX = 64 * 1024

beforeAll(async () => {
  s = await testServer({ uploadMaxBytes: UPLOAD_MAX, log: (entry) => logs.push(entry) })
  u = await s.signUp()
  const project = await json<{ id: number }>(
    await s.call('POST', '/api/project/add', {
      token: u.token,
      body: { workspace_id: u.workspaceId, name: 'П' },
    }),
  )
  projectId = project.id
  const bg = await json<{ id: number }>(
    await s.call('POST', '/api/project/add_bg', {
      token: u.token,
      raw: uploadForm(pngImage(10, 10), { project_id: String(project.id) }),
    }),
  )
  bgId = bg.id
})
afterAll(() => s.close())

function expectRussian(text: string) {
  expect(text).toMatch(/[А-Яа-яЁё]/)
}

describe('malformed and oversized bodies', () => {
  it('malformed JSON → 400 bad_json in Russian', async () => {
    const res = await s.call('POST', '/api/workspace/add', {
      token: u.token,
      raw: '{"name": ',
      headers: { 'Content-Type': 'application/json' },
    })
    expect(res.status).toBe(400)
    const body = await json<ErrorBody>(res)
    expect(body.error.code).toBe('bad_json')
    expectRussian(body.error.message)
  })

  it('a JSON body over 1 MB → 413', async () => {
    const res = await s.call('POST', '/api/workspace/add', {
      token: u.token,
      body: { name: 'x', padding: 'я'.repeat(600_000) },
    })
    expect(res.status).toBe(413)
    expect((await json<ErrorBody>(res)).error.code).toBe('too_large')
  })

  it('an array or a number where an object belongs → 422', async () => {
    for (const raw of ['[]', '42', 'null']) {
      const res = await s.call('POST', '/api/department/add', {
        token: u.token,
        raw,
        headers: { 'Content-Type': 'application/json' },
      })
      expect(res.status, raw).toBe(422)
    }
    const block = await s.call('POST', '/api/text/add', { token: u.token, raw: '[1]' })
    expect(block.status).toBe(422)
  })
})

describe('field validation', () => {
  it('wrong types and missing fields → 422 with a Russian message per field', async () => {
    const res = await s.call('POST', '/api/location/add', {
      token: u.token,
      // address may be left out on add (docs/API.md); a number there is still wrong.
      body: { workspace_id: '1x', name: 12, phone: 'звоните', address: 5 },
    })
    expect(res.status).toBe(422)
    const body = await json<ErrorBody>(res)
    expect(body.error.code).toBe('validation_error')
    expectRussian(body.error.message)
    expect(Object.keys(body.error.fields!).sort()).toEqual([
      'address',
      'name',
      'phone',
      'workspace_id',
    ])
    for (const message of Object.values(body.error.fields!)) expectRussian(message)
  })

  it('non-numeric, negative or missing ids in queries → 422', async () => {
    for (const query of [
      { id: 'abc' },
      { id: '-1' },
      { id: '1.5' },
      {},
      { id: '99999999999999999999' },
    ] as Record<string, string>[]) {
      const res = await s.call('GET', '/api/department/get', { token: u.token, query })
      expect(res.status, JSON.stringify(query)).toBe(422)
      expect((await json<ErrorBody>(res)).error.fields).toHaveProperty('id')
    }
  })

  it('ids beyond what the id columns hold (2³¹ and more) → 422, in queries and bodies, never 5xx', async () => {
    const big = 2_147_483_648
    for (const [method, path, options, field] of [
      ['GET', '/api/amo/get', { query: { id: big } }, 'id'],
      ['GET', '/api/project/get', { query: { project_id: 99_999_999_999 } }, 'project_id'],
      ['GET', '/api/department/list', { query: { workspace_id: big } }, 'workspace_id'],
      ['GET', '/api/project/get_items', { query: { bg_id: big } }, 'bg_id'],
      [
        'POST',
        '/api/department/add',
        { body: { workspace_id: big, name: 'Большой', description: '' } },
        'workspace_id',
      ],
      ['POST', '/api/text/add', { body: textBlock(big) }, 'bg_id'],
      [
        'POST',
        '/api/specialist/add',
        {
          body: {
            workspace_id: u.workspaceId,
            name: 'Анна',
            position: '',
            department_id: big,
            location_id: null,
            phone: '',
            email: '',
            photo_url: '',
            description: '',
          },
        },
        'department_id',
      ],
    ] as const) {
      const res = await s.call(method, path, { ...options, token: u.token })
      expect(res.status, path).toBe(422)
      expect((await json<ErrorBody>(res)).error.fields, path).toHaveProperty(field)
    }
  })

  it('a NUL character or half a surrogate pair is refused with 422, a whole emoji is stored as typed', async () => {
    for (const body of [
      { workspace_id: u.workspaceId, name: 'Кардио\u0000логия', description: '' },
      { workspace_id: u.workspaceId, name: 'Кардиология', description: 'половина \ud83d пары' },
      { workspace_id: u.workspaceId, name: 'Кардиология', description: 'хвост \ude00' },
    ]) {
      const res = await s.call('POST', '/api/department/add', { token: u.token, body })
      expect(res.status, JSON.stringify(body)).toBe(422)
      const fields = (await json<ErrorBody>(res)).error.fields ?? {}
      expect(Object.values(fields)).toContain('Текст содержит недопустимые символы')
    }
    const ok = await s.call('POST', '/api/department/add', {
      token: u.token,
      body: { workspace_id: u.workspaceId, name: 'Педиатрия 😀', description: 'ёжик 👍🏽' },
    })
    expect(ok.status).toBe(200)
    const id = (await json<{ id: number }>(ok)).id
    const stored = await json<{ name: string; description: string }>(
      await s.call('GET', '/api/department/get', { token: u.token, query: { id } }),
    )
    expect(stored).toMatchObject({ name: 'Педиатрия 😀', description: 'ёжик 👍🏽' })
  })

  it("a block's font, colour, date or URL holding a NUL or half a surrogate pair → 422, never 500", async () => {
    // PostgreSQL's jsonb cannot hold either: these fields escaped the rule and answered 500.
    for (const [path, body, field] of [
      ['/api/text/add', textBlock(bgId, { font: 'Inter\u0000' }), 'font'],
      ['/api/text/add', textBlock(bgId, { font: '\uD800' }), 'font'],
      ['/api/button/add', { ...textBlock(bgId), height: 5, font: 'Ro\u0000boto' }, 'font'],
      ['/api/button/add', { ...textBlock(bgId), height: 5, font: 'Roboto\uD800' }, 'font'],
      ['/api/text/add', textBlock(bgId, { color: '#fff\u0000' }), 'color'],
      ['/api/gift/add', { ...textBlock(bgId), button_url: 'https://a.ru/\u0000' }, 'button_url'],
      ['/api/subscribe/add', { ...textBlock(bgId), date: '2026-05-01\u0000' }, 'date'],
    ] as const) {
      const res = await s.call('POST', path, { token: u.token, body })
      expect(res.status, `${path} ${field}`).toBe(422)
      const error = (await json<ErrorBody>(res)).error
      expect(error.code).toBe('validation_error')
      expect(error.fields?.[field], `${path} ${field}`).toBe('Текст содержит недопустимые символы')
    }
  })

  it('a field left out is a required field, named in Russian', async () => {
    const res = await s.call('POST', '/api/department/add', {
      token: u.token,
      body: { description: '' },
    })
    expect(res.status).toBe(422)
    const fields = (await json<ErrorBody>(res)).error.fields ?? {}
    expect(fields.name).toBe('Обязательное поле')
    expect(Object.values(fields).join(' ')).not.toMatch(/Invalid|Неверное значение/)
  })

  it('unknown ids → 404', async () => {
    for (const [method, path, options] of [
      ['GET', '/api/department/get', { query: { id: 999999 } }],
      ['POST', '/api/specialist/update', { body: { id: 999999, name: 'x' } }],
      ['GET', '/api/project/get_items', { query: { bg_id: 999999 } }],
      ['POST', '/api/text/add', { body: textBlock(999999) }],
    ] as const) {
      const res = await s.call(method, path, { ...options, token: u.token })
      expect(res.status, path).toBe(404)
    }
  })

  it('block geometry must be finite numbers within range', async () => {
    const res = await s.call('POST', '/api/text/add', {
      token: u.token,
      body: textBlock(bgId, { x: 'левее', zindex: 1.5, color: 'red', width: -1 }),
    })
    expect(res.status).toBe(422)
    const fields = (await json<ErrorBody>(res)).error.fields!
    expect(fields).toMatchObject({
      x: 'Нужно число',
      zindex: 'Нужно целое число',
      color: 'Неверный цвет',
      width: 'Значение вне допустимого диапазона',
    })
  })

  it('too long text names the limit', async () => {
    const res = await s.call('POST', '/api/workspace/add', {
      token: u.token,
      body: { name: 'я'.repeat(201) },
    })
    expect((await json<ErrorBody>(res)).error.fields).toEqual({ name: 'Не длиннее 200 символов' })
  })
})

describe('routes', () => {
  it('unknown /api route → 404 JSON, signed in or not', async () => {
    for (const token of [undefined, u.token]) {
      const res = await s.call('GET', '/api/no/such/call', { token })
      expect(res.status).toBe(404)
      expect(res.headers.get('Content-Type')).toContain('application/json')
      expect((await json<ErrorBody>(res)).error.code).toBe('not_found')
    }
    const wrongMethod = await s.call('GET', '/api/workspace/add', { token: u.token })
    expect(wrongMethod.status).toBe(404)
  })
})

describe('uploads', () => {
  it('refuses HTML disguised as PNG with 415', async () => {
    const html = Buffer.from('<!doctype html><script>alert(1)</script>')
    for (const path of ['/api/image/upload', '/api/project/add_bg']) {
      const res = await s.call('POST', path, {
        token: u.token,
        raw: uploadForm(html, { project_id: String(projectId) }, 'evil.png'),
      })
      expect(res.status, path).toBe(415)
      const body = await json<ErrorBody>(res)
      expect(body.error.code).toBe('unsupported_media_type')
      expectRussian(body.error.message)
    }
  })

  it('refuses a file over the limit with 413', async () => {
    const big = Buffer.concat([pngImage(4, 4), Buffer.alloc(UPLOAD_MAX)])
    const res = await s.call('POST', '/api/image/upload', { token: u.token, raw: uploadForm(big) })
    expect(res.status).toBe(413)
    expectRussian((await json<ErrorBody>(res)).error.message)
    const huge = Buffer.concat([pngImage(4, 4), Buffer.alloc(UPLOAD_MAX * 3)])
    const res2 = await s.call('POST', '/api/image/upload', {
      token: u.token,
      raw: uploadForm(huge),
    })
    expect(res2.status).toBe(413)
  })

  it('asks for the file when it is missing', async () => {
    const form = new FormData()
    form.append('project_id', String(projectId))
    const res = await s.call('POST', '/api/project/add_bg', { token: u.token, raw: form })
    expect(res.status).toBe(422)
    expect((await json<ErrorBody>(res)).error.fields).toHaveProperty('file')
  })

  it('recognises JPEG, GIF and WebP by their bytes and reads their size', async () => {
    const gif = Buffer.from('474946383961' + '0300' + '0500' + '000000', 'hex')
    const webp = Buffer.alloc(30)
    webp.write('RIFF', 0)
    webp.write('WEBPVP8X', 8)
    webp.writeUIntLE(639, 24, 3)
    webp.writeUIntLE(479, 27, 3)
    const jpeg = Buffer.from(
      'ffd8ffe000104a46494600010100000100010000' +
        'ffc0001108' +
        '0078' +
        '00a0' +
        '03012200021101031101',
      'hex',
    )
    for (const [bytes, w, h, ext] of [
      [gif, 3, 5, 'gif'],
      [webp, 640, 480, 'webp'],
      [jpeg, 160, 120, 'jpg'],
    ] as const) {
      const res = await s.call('POST', '/api/project/add_bg', {
        token: u.token,
        raw: uploadForm(bytes, { project_id: String(projectId) }),
      })
      expect(res.status, ext).toBe(200)
      const bg = await json<{ width: number; height: number; image_url: string }>(res)
      expect([bg.width, bg.height]).toEqual([w, h])
      expect(bg.image_url.endsWith(`.${ext}`)).toBe(true)
    }
  })

  it('serves nothing that is not a stored upload', async () => {
    for (const path of ['/uploads/../package.json', '/uploads/nope.png', '/uploads/x.svg']) {
      expect((await s.app.request(path)).status, path).toBe(404)
    }
  })
})

describe('faults', () => {
  it('a server fault answers a Russian message with no stack or SQL, and is logged', async () => {
    const faults: Record<string, unknown>[] = []
    const broken = await testServer({ log: (entry) => faults.push(entry) })
    try {
      const user = await broken.signUp()
      const project = await json<{ id: number }>(
        await broken.call('POST', '/api/project/add', {
          token: user.token,
          body: { workspace_id: user.workspaceId, name: 'x' },
        }),
      )
      const bg = await json<{ id: number }>(
        await broken.call('POST', '/api/project/add_bg', {
          token: user.token,
          raw: uploadForm(pngImage(2, 2), { project_id: String(project.id) }),
        }),
      )
      // Take the blocks table away under the running server.
      await (await broken.app.ready()).services.db.query('DROP TABLE blocks')
      const fault = await broken.call('GET', '/api/project/get_items', {
        token: user.token,
        query: { bg_id: bg.id },
      })
      expect(fault.status).toBe(500)
      const text = await fault.text()
      expect(JSON.parse(text)).toEqual({
        error: {
          code: 'server_error',
          message: 'Внутренняя ошибка сервера. Попробуйте ещё раз позже',
        },
      })
      expect(text).not.toMatch(/blocks|relation|SELECT|at /)
      expect(faults).toContainEqual(
        expect.objectContaining({
          level: 'error',
          path: '/api/project/get_items',
          stack: expect.any(String),
        }),
      )
    } finally {
      await broken.close()
    }
  })

  it('logs one JSON line per request with method, path, status and time, never the token', async () => {
    const before = logs.length
    await s.call('GET', '/api/workspace/list', { token: u.token, query: { secret: 'x' } })
    const line = logs.slice(before).find((l) => l.path === '/api/workspace/list')
    expect(line).toMatchObject({ method: 'GET', status: 200, ms: expect.any(Number) })
    expect(JSON.stringify(logs)).not.toContain(u.token)
    expect(JSON.stringify(logs)).not.toContain('password123')
  })
})
