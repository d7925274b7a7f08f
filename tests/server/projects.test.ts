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

type Row = Record<string, unknown> & { id: number }
type ProjectRow = Row & { updated_at: string; backgrounds?: Row[] }

beforeAll(async () => {
  s = await testServer()
  u = await s.signUp()
})
afterAll(() => s.close())

async function newProject(name = 'Акция') {
  return json<ProjectRow>(
    await s.call('POST', '/api/project/add', {
      token: u.token,
      body: { workspace_id: u.workspaceId, name },
    }),
  )
}

async function addBackground(projectId: number, width = 32, height = 18) {
  const res = await s.call('POST', '/api/project/add_bg', {
    token: u.token,
    raw: uploadForm(pngImage(width, height), { project_id: String(projectId) }),
  })
  expect(res.status).toBe(200)
  return json<Row>(res)
}

async function getProject(id: number) {
  return json<ProjectRow>(
    await s.call('GET', '/api/project/get', { token: u.token, query: { project_id: id } }),
  )
}

const tick = () => new Promise((r) => setTimeout(r, 5))

describe('projects', () => {
  it('lists the two project types', async () => {
    const res = await s.call('GET', '/api/project_types/list', { token: u.token })
    const types = await json<Row[]>(res)
    expect(types.map((t) => [t.id, t.name, t.aspect])).toEqual([
      [1, 'Лендинг', 16 / 9],
      [2, 'Сторис', 9 / 16],
    ])
  })

  it('add, list, rename, set_type, get, delete', async () => {
    const project = await newProject('Весна')
    expect(project).toMatchObject({ workspace_id: u.workspaceId, name: 'Весна', type: null })
    expect(Number.isNaN(Date.parse(project.updated_at))).toBe(false)
    const list = await json<Row[]>(
      await s.call('GET', '/api/project/list', {
        token: u.token,
        query: { workspace_id: u.workspaceId },
      }),
    )
    expect(list).toContainEqual(project)
    await tick()
    const renamed = await json<ProjectRow>(
      await s.call('POST', '/api/project/rename', {
        token: u.token,
        body: { id: project.id, name: 'Лето' },
      }),
    )
    expect(renamed.name).toBe('Лето')
    expect(renamed.updated_at > project.updated_at).toBe(true)
    const typed = await json<ProjectRow>(
      await s.call('POST', '/api/project/set_type', {
        token: u.token,
        body: { project_id: project.id, type: 2 },
      }),
    )
    expect(typed.type).toBe(2)
    const badType = await s.call('POST', '/api/project/set_type', {
      token: u.token,
      body: { project_id: project.id, type: 3 },
    })
    expect(badType.status).toBe(422)
    expect(await getProject(project.id)).toEqual({ ...typed, backgrounds: [] })
    const del = await s.call('GET', '/api/project/delete', {
      token: u.token,
      query: { id: project.id },
    })
    expect(await json(del)).toEqual({ id: project.id, deleted: true })
    const gone = await s.call('GET', '/api/project/get', {
      token: u.token,
      query: { project_id: project.id },
    })
    expect(gone.status).toBe(404)
  })

  it('adds backgrounds from PNG uploads, reading the pixel size, in position order', async () => {
    const project = await newProject()
    const first = await addBackground(project.id, 64, 36)
    expect(first).toMatchObject({ project_id: project.id, width: 64, height: 36, position: 0 })
    expect(first.image_url).toMatch(/^\/uploads\/[0-9a-f]{32}\.png$/)
    const explicit = await s.call('POST', '/api/project/add_bg', {
      token: u.token,
      raw: uploadForm(pngImage(4, 4), {
        project_id: String(project.id),
        width: '1080',
        height: '1920',
      }),
    })
    const second = await json<Row>(explicit)
    expect(second).toMatchObject({ width: 1080, height: 1920, position: 1 })
    const full = await getProject(project.id)
    expect(full.backgrounds).toEqual([first, second])
    expect(full.updated_at > project.updated_at).toBe(true)
    // The list shows the first background as the project's cover.
    expect(project.cover_url).toBeNull()
    expect(full.cover_url).toBe(first.image_url)

    const file = await s.app.request(first.image_url as string)
    expect(file.status).toBe(200)
    expect(file.headers.get('Content-Type')).toBe('image/png')
    expect(file.headers.get('X-Content-Type-Options')).toBe('nosniff')
    expect(file.headers.get('Cache-Control')).toContain('immutable')
    expect(Buffer.from(await file.arrayBuffer()).equals(pngImage(64, 36))).toBe(true)

    const del = await s.call('POST', '/api/project/delete_bg', {
      token: u.token,
      body: { id: first.id },
    })
    expect(await json(del)).toEqual({ id: first.id, deleted: true })
    expect((await getProject(project.id)).backgrounds).toEqual([second])
    const list = await json<Row[]>(
      await s.call('GET', '/api/project/list', {
        token: u.token,
        query: { workspace_id: u.workspaceId },
      }),
    )
    expect(list.find((p) => p.id === project.id)?.cover_url).toBe(second.image_url)
  })

  it('refuses a picture whose header claims absurd dimensions, and an absurd size given for it', async () => {
    const project = await newProject()
    // A real 1×1 PNG whose header says 4294967295 × 4294967295 (the sniffer reads only the header).
    const lying = Buffer.from(pngImage(1, 1))
    lying.writeUInt32BE(4_294_967_295, 16)
    lying.writeUInt32BE(4_294_967_295, 20)
    for (const [path, fields] of [
      ['/api/project/add_bg', { project_id: String(project.id) }],
      ['/api/image/upload', {}],
    ] as const) {
      const res = await s.call('POST', path, { token: u.token, raw: uploadForm(lying, fields) })
      expect(res.status, path).toBe(422)
      expect(
        (await json<{ error: { fields: Record<string, string> } }>(res)).error.fields.file,
      ).toMatch(/не больше 20 000 пикселей/)
    }
    const given = await s.call('POST', '/api/project/add_bg', {
      token: u.token,
      raw: uploadForm(pngImage(4, 4), {
        project_id: String(project.id),
        width: '99999',
        height: '100',
      }),
    })
    expect(given.status).toBe(422)
    const list = await json<{ backgrounds: unknown[] }>(
      await s.call('GET', '/api/project/get', {
        token: u.token,
        query: { project_id: project.id },
      }),
    )
    expect(list.backgrounds).toEqual([])
  })

  it('uploads an image and returns its url', async () => {
    const res = await s.call('POST', '/api/image/upload', {
      token: u.token,
      raw: uploadForm(pngImage(2, 2)),
    })
    expect(res.status).toBe(200)
    const { url } = await json<{ url: string }>(res)
    expect(url).toMatch(/^\/uploads\/[0-9a-f]{32}\.png$/)
    expect((await s.app.request(url)).status).toBe(200)
  })
})

describe('blocks', () => {
  const samples: Record<string, (bg: number) => Record<string, unknown>> = {
    text: (bg) => textBlock(bg),
    button: (bg) => ({
      bg_id: bg,
      x: 1.5,
      y: 2.25,
      zindex: 1,
      rotation: 0,
      width: 20,
      height: 8,
      btn_type: 'link',
      btn_type_value: 'https://example.ru',
      name: 'Кнопка',
      border_width: 1,
      border_color: '#000',
      fontSize: 3,
      font: 'Inter',
      align: 'left',
      color: '#ffffff',
      background: '#ff0000',
      text: 'Жми',
    }),
    image: (bg) => ({
      bg_id: bg,
      x: -10,
      y: 5,
      zindex: 2,
      rotation: 90,
      width: 30,
      height: 20,
      scaleX: 1.25,
      scaleY: 0.75,
      name: 'Фото',
      image_url: '/uploads/x.png',
    }),
    video: (bg) => ({
      bg_id: bg,
      x: 0,
      y: 0,
      zindex: 0,
      rotation: 0,
      width: 50,
      height: 40,
      scaleX: 1,
      scaleY: 1,
      video_url: 'https://video.example/v.mp4',
      video_src: '',
      name: 'Видео',
    }),
    gift: (bg) => ({
      bg_id: bg,
      x: 3,
      y: 4,
      zindex: 5,
      rotation: 0,
      color: '#ffcc00',
      text: 'Подарок',
      name: 'Подарок',
      button_url: 'https://example.ru/gift',
      button_hook_url: '',
    }),
    price: (bg) => ({
      bg_id: bg,
      x: 3,
      y: 4,
      zindex: 5,
      rotation: 0,
      color: '#000000',
      text: '1 500 ₽',
      text_price: 1500,
      button_text: 'Купить',
    }),
    subscribe: (bg) => ({
      bg_id: bg,
      x: 3,
      y: 4,
      zindex: 5,
      rotation: 0,
      specialist_id: null,
      date: '2026-12-01',
      action: 'Записаться',
    }),
  }

  it('saves every type, returns it exactly, lists it with its type, updates and deletes it', async () => {
    const project = await newProject('Блоки')
    const bg = await addBackground(project.id)
    const saved: Row[] = []
    for (const [type, make] of Object.entries(samples)) {
      const body = make(bg.id)
      const res = await s.call('POST', `/api/${type}/add`, { token: u.token, body })
      expect(res.status, type).toBe(200)
      const block = await json<Row>(res)
      expect(block).toEqual({ ...body, type, id: expect.any(Number), version: 1 })
      saved.push(block)
    }
    expect(new Set(saved.map((b) => b.id)).size).toBe(7)
    const items = await json<Row[]>(
      await s.call('GET', '/api/project/get_items', { token: u.token, query: { bg_id: bg.id } }),
    )
    expect(items).toEqual(saved)

    // text..video: /add with id updates; gift..subscribe: /update.
    const text = saved[0]!
    await tick()
    const before = await getProject(project.id)
    const moved = await json<Row>(
      await s.call('POST', '/api/text/add', {
        token: u.token,
        body: { id: text.id, x: 0.1 + 0.2, y: -1 / 3, text: 'Новый текст' },
      }),
    )
    expect(moved).toEqual({
      ...text,
      x: 0.1 + 0.2,
      y: -1 / 3,
      text: 'Новый текст',
      version: 2,
    })
    expect((await getProject(project.id)).updated_at > before.updated_at).toBe(true)

    const price = saved[5]!
    const updatedPrice = await json<Row>(
      await s.call('POST', '/api/price/update', {
        token: u.token,
        body: { id: price.id, text: '2 750 ₽' },
      }),
    )
    expect(updatedPrice).toMatchObject({ id: price.id, text: '2 750 ₽', text_price: 2750 })

    const noId = await s.call('POST', '/api/gift/update', {
      token: u.token,
      body: samples.gift!(bg.id),
    })
    expect(noId.status).toBe(422)

    // Deleting: items through delete_item, widgets through their own delete.
    const delText = await s.call('POST', '/api/project/delete_item', {
      token: u.token,
      body: { id: text.id },
    })
    expect(await json(delText)).toEqual({ id: text.id, deleted: true })
    const wrongRoute = await s.call('POST', '/api/project/delete_item', {
      token: u.token,
      body: { id: price.id },
    })
    expect(wrongRoute.status).toBe(404)
    const delPrice = await s.call('POST', '/api/price/delete', {
      token: u.token,
      body: { id: price.id },
    })
    expect(await json(delPrice)).toEqual({ id: price.id, deleted: true })
    const left = await json<Row[]>(
      await s.call('GET', '/api/project/get_items', { token: u.token, query: { bg_id: bg.id } }),
    )
    expect(left.map((b) => b.type)).toEqual(['button', 'image', 'video', 'gift', 'subscribe'])
  })

  it('refuses to update a block through another type', async () => {
    const project = await newProject()
    const bg = await addBackground(project.id)
    const text = await json<Row>(
      await s.call('POST', '/api/text/add', { token: u.token, body: textBlock(bg.id) }),
    )
    const res = await s.call('POST', '/api/image/add', {
      token: u.token,
      body: { ...samples.image!(bg.id), id: text.id },
    })
    expect([404, 409]).toContain(res.status)
    const mismatch = await s.call('POST', '/api/image/add', {
      token: u.token,
      body: { ...samples.image!(bg.id), type: 'text' },
    })
    expect(mismatch.status).toBe(422)
  })

  it('a subscribe block takes only a specialist of the same workspace', async () => {
    const project = await newProject()
    const bg = await addBackground(project.id)
    const spec = await json<Row>(
      await s.call('POST', '/api/specialist/add', {
        token: u.token,
        body: {
          workspace_id: u.workspaceId,
          name: 'Врач',
          position: '',
          department_id: null,
          location_id: null,
          phone: '',
          email: '',
          photo_url: '',
          description: '',
        },
      }),
    )
    const ok = await s.call('POST', '/api/subscribe/add', {
      token: u.token,
      body: { ...samples.subscribe!(bg.id), specialist_id: spec.id },
    })
    expect((await json<Row>(ok)).specialist_id).toBe(spec.id)
    const other = await s.signUp()
    const foreign = await json<Row>(
      await s.call('POST', '/api/specialist/add', {
        token: other.token,
        body: {
          workspace_id: other.workspaceId,
          name: 'Чужой',
          position: '',
          department_id: null,
          location_id: null,
          phone: '',
          email: '',
          photo_url: '',
          description: '',
        },
      }),
    )
    const bad = await s.call('POST', '/api/subscribe/add', {
      token: u.token,
      body: { ...samples.subscribe!(bg.id), specialist_id: foreign.id },
    })
    expect(bad.status).toBe(422)
    expect((await json<{ error: { fields: object } }>(bad)).error.fields).toHaveProperty(
      'specialist_id',
    )
  })

  it('deleting a specialist clears it from subscribe blocks, which still save afterwards', async () => {
    const project = await newProject()
    const bg = await addBackground(project.id)
    const spec = await json<Row>(
      await s.call('POST', '/api/specialist/add', {
        token: u.token,
        body: {
          workspace_id: u.workspaceId,
          name: 'Уходящий врач',
          position: '',
          department_id: null,
          location_id: null,
          phone: '',
          email: '',
          photo_url: '',
          description: '',
        },
      }),
    )
    const block = await json<Row>(
      await s.call('POST', '/api/subscribe/add', {
        token: u.token,
        body: { ...samples.subscribe!(bg.id), specialist_id: spec.id },
      }),
    )
    const deleted = await s.call('POST', '/api/specialist/delete', {
      token: u.token,
      body: { id: spec.id },
    })
    expect(deleted.status).toBe(200)
    const items = await json<Row[]>(
      await s.call('GET', '/api/project/get_items', { token: u.token, query: { bg_id: bg.id } }),
    )
    expect(items.find((b) => b.id === block.id)).toMatchObject({ specialist_id: null })
    const saved = await s.call('POST', '/api/subscribe/update', {
      token: u.token,
      body: { ...samples.subscribe!(bg.id), id: block.id, action: 'Записаться снова' },
    })
    expect(saved.status).toBe(200)
  })

  it('copy duplicates backgrounds and blocks into a new project', async () => {
    const project = await newProject('Оригинал')
    await s.call('POST', '/api/project/set_type', {
      token: u.token,
      body: { project_id: project.id, type: 1 },
    })
    const bg1 = await addBackground(project.id)
    const bg2 = await addBackground(project.id)
    await s.call('POST', '/api/text/add', { token: u.token, body: textBlock(bg1.id) })
    await s.call('POST', '/api/price/add', { token: u.token, body: samples.price!(bg1.id) })
    await s.call('POST', '/api/gift/add', { token: u.token, body: samples.gift!(bg2.id) })

    const res = await s.call('GET', '/api/project/copy', {
      token: u.token,
      query: { id: project.id },
    })
    expect(res.status).toBe(200)
    const copy = await json<ProjectRow>(res)
    expect(copy).toMatchObject({ name: 'Оригинал (копия)', type: 1, workspace_id: u.workspaceId })
    expect(copy.id).not.toBe(project.id)
    const full = await getProject(copy.id)
    expect(full.backgrounds).toHaveLength(2)
    const strip = (rows: Row[]) => rows.map(({ id: _id, bg_id: _bg, ...rest }) => rest)
    for (const [i, original] of [bg1, bg2].entries()) {
      const copied = full.backgrounds![i]!
      expect(copied.id).not.toBe(original.id)
      expect(copied).toMatchObject({ image_url: original.image_url, position: original.position })
      const a = await json<Row[]>(
        await s.call('GET', '/api/project/get_items', {
          token: u.token,
          query: { bg_id: original.id },
        }),
      )
      const b = await json<Row[]>(
        await s.call('GET', '/api/project/get_items', {
          token: u.token,
          query: { bg_id: copied.id },
        }),
      )
      expect(b.length).toBeGreaterThan(0)
      expect(strip(b)).toEqual(strip(a))
      expect(b.every((block) => block.bg_id === copied.id)).toBe(true)
    }
  })
})
