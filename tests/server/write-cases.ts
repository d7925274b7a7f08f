import { expect } from 'vitest'
import { pngImage, textBlock, uploadForm, type TestServer } from './helpers.ts'

/**
 * Every call that changes or deletes one row, each able to make a fresh row of its own to work on:
 * the version and If-Match tests run the same table (docs/API.md, "Versions", "Conditional
 * writes").
 */
export type Row = Record<string, unknown> & { id: number; version?: number }

export interface Target {
  /** The row as a get (or list) answers it now; null once it is gone. */
  read(): Promise<Row | null>
  /** The write under test, with extra headers (If-Match). */
  write(headers?: Record<string, string>): Promise<Response>
  /** What the write changes when it succeeds (checked against `read` afterwards). */
  changed?: Record<string, unknown>
}

export interface WriteCase {
  name: string
  op: 'update' | 'delete'
  setup(): Promise<Target>
}

const RECORD_ADD = {
  department: { name: 'Терапия' },
  location: { name: 'Клиника на Ленина' },
  specialist: { name: 'Иванова Анна' },
  amo: {
    name: 'amoCRM',
    subdomain: 'clinic-one',
    client_id: 'client-1',
    client_secret: 'super-secret-value-1234',
  },
  bitrix: {
    name: 'Битрикс24',
    portal_url: 'https://clinic.bitrix24.ru',
    webhook_url: 'https://clinic.bitrix24.ru/rest/7/abcdefgh12345678/',
  },
} as const
type Kind = keyof typeof RECORD_ADD
const KINDS = Object.keys(RECORD_ADD) as Kind[]
const TOGGLES: Kind[] = ['amo', 'bitrix', 'specialist']

const ITEM_BODY = {
  text: (bg: number) => textBlock(bg),
  button: (bg: number) => ({
    bg_id: bg,
    x: 1,
    y: 1,
    zindex: 1,
    rotation: 0,
    width: 10,
    height: 5,
    fontSize: 4,
  }),
  image: (bg: number) => ({
    bg_id: bg,
    x: 1,
    y: 1,
    zindex: 1,
    rotation: 0,
    width: 10,
    height: 5,
    scaleX: 1,
    scaleY: 1,
  }),
  video: (bg: number) => ({
    bg_id: bg,
    x: 1,
    y: 1,
    zindex: 1,
    rotation: 0,
    width: 10,
    height: 5,
    scaleX: 1,
    scaleY: 1,
  }),
  gift: (bg: number) => ({ bg_id: bg, x: 1, y: 1, zindex: 1, rotation: 0 }),
  price: (bg: number) => ({ bg_id: bg, x: 1, y: 1, zindex: 1, rotation: 0 }),
  subscribe: (bg: number) => ({ bg_id: bg, x: 1, y: 1, zindex: 1, rotation: 0 }),
}
type BlockKind = keyof typeof ITEM_BODY

export function fixtures(s: TestServer, token: string) {
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => s.call(method, path, { token, body, headers })
  const ok = async <T = Row>(res: Response | Promise<Response>): Promise<T> => {
    const r = await res
    const text = await r.text()
    expect(r.status, text).toBe(200)
    return JSON.parse(text) as T
  }

  const workspace = async (name = 'Общее') => ok(call('POST', '/api/workspace/add', { name }))
  const readWorkspace = async (id: number) =>
    (await ok<Row[]>(call('GET', '/api/workspace/list'))).find((w) => w.id === id) ?? null
  const record = async (kind: Kind, workspaceId: number) =>
    ok(call('POST', `/api/${kind}/add`, { workspace_id: workspaceId, ...RECORD_ADD[kind] }))
  const readRecord = async (kind: Kind, id: number) => {
    const res = await s.call('GET', `/api/${kind}/get`, { token, query: { id } })
    return res.status === 404 ? null : ok(res)
  }
  const project = async (workspaceId: number) =>
    ok(call('POST', '/api/project/add', { workspace_id: workspaceId, name: 'Акция' }))
  const readProject = async (id: number) => {
    const res = await s.call('GET', '/api/project/get', { token, query: { project_id: id } })
    return res.status === 404 ? null : ok<Row & { backgrounds: Row[] }>(res)
  }
  const background = async (projectId: number) =>
    ok(
      s.call('POST', '/api/project/add_bg', {
        token,
        raw: uploadForm(pngImage(16, 9), { project_id: String(projectId) }),
      }),
    )
  const readBackground = async (projectId: number, id: number) =>
    (await readProject(projectId))?.backgrounds.find((b) => b.id === id) ?? null
  const block = async (type: BlockKind, bgId: number) =>
    ok(call('POST', `/api/${type}/add`, ITEM_BODY[type](bgId)))
  const readBlock = async (bgId: number, id: number) => {
    const res = await s.call('GET', '/api/project/get_items', { token, query: { bg_id: bgId } })
    return res.status === 404 ? null : ((await ok<Row[]>(res)).find((b) => b.id === id) ?? null)
  }
  /** A workspace with a project, a background and a block of each type in it. */
  const tree = async () => {
    const ws = await workspace()
    const p = await project(ws.id)
    const bg = await background(p.id)
    return { ws, p, bg }
  }

  const cases: WriteCase[] = []
  for (const kind of KINDS) {
    cases.push({
      name: `${kind}/update`,
      op: 'update',
      async setup() {
        const ws = await workspace()
        const row = await record(kind, ws.id)
        return {
          read: () => readRecord(kind, row.id),
          write: (h) => call('POST', `/api/${kind}/update`, { id: row.id, name: 'Новое имя' }, h),
          changed: { name: 'Новое имя' },
        }
      },
    })
    cases.push({
      name: `${kind}/delete`,
      op: 'delete',
      async setup() {
        const ws = await workspace()
        const row = await record(kind, ws.id)
        return {
          read: () => readRecord(kind, row.id),
          write: (h) => call('POST', `/api/${kind}/delete`, { id: row.id }, h),
        }
      },
    })
  }
  for (const kind of TOGGLES) {
    for (const [action, enabled] of [
      ['disable', false],
      ['able', true],
    ] as const) {
      cases.push({
        name: `${kind}/${action}`,
        op: 'update',
        async setup() {
          const ws = await workspace()
          const row = await record(kind, ws.id)
          // able on a disabled row, so that the call changes it.
          if (enabled) await ok(call('POST', `/api/${kind}/disable`, { id: row.id }))
          return {
            read: () => readRecord(kind, row.id),
            write: (h) => call('POST', `/api/${kind}/${action}`, { id: row.id }, h),
            changed: { enabled },
          }
        },
      })
    }
  }
  cases.push(
    {
      name: 'workspace/update',
      op: 'update',
      async setup() {
        const ws = await workspace()
        return {
          read: () => readWorkspace(ws.id),
          write: (h) => call('POST', '/api/workspace/update', { id: ws.id, name: 'Другое' }, h),
          changed: { name: 'Другое' },
        }
      },
    },
    {
      name: 'workspace/delete',
      op: 'delete',
      async setup() {
        const ws = await workspace()
        return {
          read: () => readWorkspace(ws.id),
          write: (h) => call('POST', '/api/workspace/delete', { id: ws.id }, h),
        }
      },
    },
    {
      name: 'project/rename',
      op: 'update',
      async setup() {
        const ws = await workspace()
        const p = await project(ws.id)
        return {
          read: () => readProject(p.id),
          write: (h) => call('POST', '/api/project/rename', { id: p.id, name: 'Распродажа' }, h),
          changed: { name: 'Распродажа' },
        }
      },
    },
    {
      name: 'project/set_type',
      op: 'update',
      async setup() {
        const ws = await workspace()
        const p = await project(ws.id)
        return {
          read: () => readProject(p.id),
          write: (h) => call('POST', '/api/project/set_type', { project_id: p.id, type: 2 }, h),
          changed: { type: 2 },
        }
      },
    },
    {
      name: 'project/delete',
      op: 'delete',
      async setup() {
        const ws = await workspace()
        const p = await project(ws.id)
        return {
          read: () => readProject(p.id),
          write: (h) =>
            s.call('GET', '/api/project/delete', { token, query: { id: p.id }, headers: h }),
        }
      },
    },
    {
      name: 'project/delete_bg',
      op: 'delete',
      async setup() {
        const { p, bg } = await tree()
        return {
          read: () => readBackground(p.id, bg.id),
          write: (h) => call('POST', '/api/project/delete_bg', { id: bg.id }, h),
        }
      },
    },
  )
  for (const type of ['text', 'button', 'image', 'video', 'gift', 'price', 'subscribe'] as const) {
    cases.push({
      name: `${type}/add with id`,
      op: 'update',
      async setup() {
        const { bg } = await tree()
        const b = await block(type, bg.id)
        return {
          read: () => readBlock(bg.id, b.id),
          write: (h) => call('POST', `/api/${type}/add`, { id: b.id, x: 42 }, h),
          changed: { x: 42 },
        }
      },
    })
  }
  for (const type of ['gift', 'price', 'subscribe'] as const) {
    cases.push(
      {
        name: `${type}/update`,
        op: 'update',
        async setup() {
          const { bg } = await tree()
          const b = await block(type, bg.id)
          return {
            read: () => readBlock(bg.id, b.id),
            write: (h) => call('POST', `/api/${type}/update`, { id: b.id, y: 33 }, h),
            changed: { y: 33 },
          }
        },
      },
      {
        name: `${type}/delete`,
        op: 'delete',
        async setup() {
          const { bg } = await tree()
          const b = await block(type, bg.id)
          return {
            read: () => readBlock(bg.id, b.id),
            write: (h) => call('POST', `/api/${type}/delete`, { id: b.id }, h),
          }
        },
      },
    )
  }
  for (const type of ['text', 'button', 'image', 'video'] as const) {
    cases.push({
      name: `project/delete_item (${type})`,
      op: 'delete',
      async setup() {
        const { bg } = await tree()
        const b = await block(type, bg.id)
        return {
          read: () => readBlock(bg.id, b.id),
          write: (h) => call('POST', '/api/project/delete_item', { id: b.id }, h),
        }
      },
    })
  }

  return {
    call,
    ok,
    cases,
    workspace,
    readWorkspace,
    record,
    readRecord,
    project,
    readProject,
    background,
    readBackground,
    block,
    readBlock,
    tree,
  }
}

/**
 * Writes from one version sent at once (docs/API.md "Conditional writes"): eight updates of a
 * department and eight of a price block from version 1, then four deletes of the block from the
 * version the winner made. Of each race exactly one write may pass; the rest are refused (409, or
 * 404 once the block is gone). Returns what went otherwise, naming the race and how many passed.
 */
export async function raceProblems(f: ReturnType<typeof fixtures>): Promise<string[]> {
  const { bg, ws } = await f.tree()
  const dep = await f.record('department', ws.id)
  const block = await f.block('price', bg.id)
  const problems: string[] = []
  const race = async (what: string, writes: Promise<Response>[], refused: number) => {
    const statuses = (await Promise.all(writes)).map((r) => r.status).sort()
    const passed = statuses.filter((status) => status === 200).length
    const others = statuses.filter((status) => status !== 200 && status !== refused)
    if (passed !== 1 || others.length > 0)
      problems.push(
        `${writes.length} ${what} at once: ${passed} passed, exactly one may (${statuses.join(', ')})`,
      )
  }
  const fromOne = { 'If-Match': '1' }
  await race(
    'department updates from version 1',
    Array.from({ length: 8 }, (_, i) =>
      f.call('POST', '/api/department/update', { id: dep.id, name: `Имя ${i}` }, fromOne),
    ),
    409,
  )
  const version = (await f.readRecord('department', dep.id))?.version
  if (version !== 2) problems.push(`the department is at version ${version} after them, not 2`)
  await race(
    'price block updates from version 1',
    Array.from({ length: 8 }, (_, i) =>
      f.call('POST', '/api/price/update', { id: block.id, x: i + 10 }, fromOne),
    ),
    409,
  )
  // Of four deletes from version 2, one deletes; the others find no row.
  await race(
    'price block deletes from version 2',
    Array.from({ length: 4 }, () =>
      f.call('POST', '/api/price/delete', { id: block.id }, { 'If-Match': '2' }),
    ),
    404,
  )
  return problems
}
