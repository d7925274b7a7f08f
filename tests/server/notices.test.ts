import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pngImage } from '../support/png.ts'
import { SseReader } from './sse.ts'
import {
  addMember,
  json,
  testServer,
  textBlock,
  uploadForm,
  type TestServer,
  type TestUser,
} from './helpers.ts'

/**
 * «Оставить моё» (docs/API.md "Conditional writes", "Members"): when a person keeps their own
 * values over a colleague's newer ones (a write with `Keep-Mine`), the colleague whose values were
 * replaced is told who, what and when — in the list of their notices and at once on their streams.
 */
let s: TestServer
let anna: TestUser
let boris: TestUser

beforeAll(async () => {
  s = await testServer()
  anna = await s.signUp('Анна')
  boris = await s.signUp('Борис')
  await addMember(s, anna.token, anna.workspaceId, boris)
}, 30_000)
afterAll(() => s.close())

interface Notice {
  id: number
  workspace_id: number
  workspace_name: string
  by: string
  kind: string
  record_id: number
  label: string
  changes: { field: string; was: unknown; now: unknown }[]
  block: { type: string; project_id: number; bg_width: number; bg_height: number } | null
  created_at: string
}
type Row = { id: number; version: number } & Record<string, unknown>

const notices = async (user: TestUser) =>
  json<Notice[]>(await s.call('GET', '/api/workspace/notices', { token: user.token }))

async function write(
  user: TestUser,
  path: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return s.call('POST', path, { token: user.token, body, headers })
}

async function department(name: string): Promise<Row> {
  const res = await write(anna, '/api/department/add', {
    workspace_id: anna.workspaceId,
    name,
    description: '',
  })
  expect(res.status).toBe(200)
  return json<Row>(res)
}

/** Anna writes `anna`, Boris (from the version before) is refused and keeps `boris` with `keep`. */
async function clash(row: Row, fields: { anna: object; boris: object }, keep: string | null) {
  const first = await write(
    anna,
    '/api/department/update',
    { id: row.id, ...fields.anna },
    { 'If-Match': String(row.version) },
  )
  expect(first.status).toBe(200)
  const refused = await write(
    boris,
    '/api/department/update',
    { id: row.id, ...fields.boris },
    { 'If-Match': String(row.version) },
  )
  expect(refused.status).toBe(409)
  const current = (await json<{ error: { current: Row } }>(refused)).error.current
  const kept = await write(
    boris,
    '/api/department/update',
    { id: row.id, ...fields.boris },
    { 'If-Match': String(current.version), ...(keep === null ? {} : { 'Keep-Mine': keep }) },
  )
  expect(kept.status).toBe(200)
  return json<Row>(kept)
}

describe('a colleague keeps their own values over the person’s', () => {
  it('tells the person whose value was replaced: who, which record, both values, when', async () => {
    const row = await department('Терапия')
    const before = Date.now()
    await clash(
      row,
      {
        anna: { name: 'Терапия взрослых', description: 'Этаж 2' },
        boris: { name: 'Терапия детей', description: 'Этаж 2' },
      },
      'name',
    )
    const [notice, ...rest] = await notices(anna)
    expect(rest).toEqual([])
    expect(notice).toMatchObject({
      workspace_id: anna.workspaceId,
      by: 'Борис',
      kind: 'department',
      record_id: row.id,
      label: 'Терапия детей',
      // Only the field kept: the description both wrote alike is nobody's loss.
      changes: [{ field: 'name', was: 'Терапия взрослых', now: 'Терапия детей' }],
      block: null,
    })
    expect(Date.parse(notice!.created_at)).toBeGreaterThanOrEqual(before - 1000)
    // Boris replaced; nothing was taken from him.
    expect(await notices(boris)).toEqual([])
  })

  it('tells nobody for an ordinary write, for one’s own value, or for a value nobody changed', async () => {
    const seen = (await notices(anna)).length
    // Without Keep-Mine: a plain edit after seeing the colleague's value.
    await clash(
      await department('Хирургия'),
      {
        anna: { name: 'Хирургия 1' },
        boris: { name: 'Хирургия 2' },
      },
      null,
    )
    // Kept over their own value: Anna keeps hers over her own earlier write.
    const own = await department('Неврология')
    const first = await write(
      anna,
      '/api/department/update',
      { id: own.id, name: 'Неврология 1' },
      {
        'If-Match': String(own.version),
      },
    )
    const mid = await json<Row>(first)
    await write(
      anna,
      '/api/department/update',
      { id: own.id, name: 'Неврология 2' },
      {
        'If-Match': String(mid.version),
        'Keep-Mine': 'name',
      },
    )
    // A field named that the write left as it was.
    await clash(
      await department('Кардиология'),
      {
        anna: { name: 'Кардиология 1' },
        boris: { name: 'Кардиология 1', description: 'Корпус Б' },
      },
      'name',
    )
    expect(await notices(anna)).toHaveLength(seen)
  })

  it('a block’s notice names its type, its project and its background’s size', async () => {
    const project = await json<{ id: number }>(
      await write(boris, '/api/project/add', { workspace_id: anna.workspaceId, name: 'Весна' }),
    )
    const bg = await json<{ id: number }>(
      await s.call('POST', '/api/project/add_bg', {
        token: boris.token,
        raw: uploadForm(pngImage(64, 36), { project_id: String(project.id) }),
      }),
    )
    const block = await json<Row>(await write(boris, '/api/text/add', textBlock(bg.id)))
    const moved = await write(
      boris,
      '/api/text/add',
      { ...block, x: 10, y: 20 },
      { 'If-Match': String(block.version) },
    )
    const current = await json<Row>(moved)
    const kept = await write(
      anna,
      '/api/text/add',
      { ...current, x: -5, y: 3 },
      { 'If-Match': String(current.version), 'Keep-Mine': 'x, y' },
    )
    expect(kept.status).toBe(200)
    const [notice] = await notices(boris)
    expect(notice).toMatchObject({
      by: 'Анна',
      kind: 'block',
      record_id: block.id,
      label: 'Весна',
      changes: [
        { field: 'x', was: 10, now: -5 },
        { field: 'y', was: 20, now: 3 },
      ],
      block: { type: 'text', project_id: project.id, bg_width: 64, bg_height: 36 },
    })
  })

  it('reaches the person’s open streams at once, and is theirs alone to dismiss', async () => {
    const res = await s.call('GET', '/api/events', {
      token: anna.token,
      query: { workspace_id: anna.workspaceId },
    })
    const stream = new SseReader(res)
    await stream.next()
    await clash(
      await department('Онкология'),
      {
        anna: { name: 'Онкология 1' },
        boris: { name: 'Онкология 2' },
      },
      'name',
    )
    let told = await stream.next()
    while (told && told.event !== 'notices') told = await stream.next()
    expect(told).toMatchObject({ event: 'notices', data: '{}' })
    await stream.cancel()

    const [latest] = await notices(anna)
    expect(latest!.label).toBe('Онкология 2')
    const dismiss = (user: TestUser) =>
      write(user, '/api/workspace/notice/dismiss', { id: latest!.id })
    expect((await dismiss(boris)).status).toBe(404)
    expect((await dismiss(anna)).status).toBe(200)
    expect((await notices(anna)).map((n) => n.id)).not.toContain(latest!.id)
    expect((await dismiss(anna)).status).toBe(404)
  })
})
