import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testServer, type TestServer, type TestUser } from './helpers.ts'
import { fixtures, type Row } from './write-cases.ts'

/** Every row carries a version that every write changing it raises by one (docs/API.md, "Versions"). */
let s: TestServer
let u: TestUser
let f: ReturnType<typeof fixtures>
/** The tables of cases make a fresh row for every call. */
const TABLE_TIMEOUT = 60_000

beforeAll(async () => {
  s = await testServer()
  u = await s.signUp()
  f = fixtures(s, u.token)
})
afterAll(() => s.close())

describe('row versions', () => {
  it('every kind of row starts at version 1, in every answer that returns it', async () => {
    const ws = await f.workspace()
    expect(ws.version).toBe(1)
    expect((await f.readWorkspace(ws.id))?.version).toBe(1)
    for (const kind of ['department', 'location', 'specialist', 'amo', 'bitrix'] as const) {
      const row = await f.record(kind, ws.id)
      expect(row.version, kind).toBe(1)
      expect((await f.readRecord(kind, row.id))?.version, kind).toBe(1)
      const list = await f.ok<Row[]>(
        s.call('GET', `/api/${kind}/list`, { token: u.token, query: { workspace_id: ws.id } }),
      )
      expect(list[0]?.version, kind).toBe(1)
    }
    const p = await f.project(ws.id)
    expect(p.version).toBe(1)
    const bg = await f.background(p.id)
    expect(bg.version).toBe(1)
    const block = await f.block('gift', bg.id)
    expect(block.version).toBe(1)
    expect((await f.readBlock(bg.id, block.id))?.version).toBe(1)
    const got = await f.readProject(p.id)
    expect(got?.version).toBe(1)
    expect(got?.backgrounds[0]?.version).toBe(1)
    const lists = await f.ok<Row[]>(
      s.call('GET', '/api/project/list', { token: u.token, query: { workspace_id: ws.id } }),
    )
    expect(lists[0]?.version).toBe(1)
    // A copy is a new row: version 1, as are its backgrounds.
    const copy = await f.ok(
      s.call('GET', '/api/project/copy', { token: u.token, query: { id: p.id } }),
    )
    expect(copy.version).toBe(1)
    expect((await f.readProject(copy.id))?.backgrounds[0]?.version).toBe(1)
  })

  const updates = () => f.cases.filter((c) => c.op === 'update')

  it(
    'each update call raises its row by one, whoever makes it',
    async () => {
      for (const c of updates()) {
        const target = await c.setup()
        const before = (await target.read())!
        const res = await target.write()
        const answer = (await res.json()) as Row
        expect(res.status, c.name).toBe(200)
        expect(answer.version, c.name).toBe(before.version! + 1)
        const after = (await target.read())!
        expect(after, c.name).toMatchObject({ ...target.changed, version: before.version! + 1 })
        // The same write again changes nothing: the version stays.
        await target.write()
        expect((await target.read())?.version, c.name).toBe(before.version! + 1)
      }
    },
    TABLE_TIMEOUT,
  )

  it('a department delete that clears a specialist raises the specialist', async () => {
    const ws = await f.workspace()
    const dep = await f.record('department', ws.id)
    const spec = await f.ok(
      f.call('POST', '/api/specialist/add', {
        workspace_id: ws.id,
        name: 'Петров',
        department_id: dep.id,
      }),
    )
    expect(spec.version).toBe(1)
    await f.ok(f.call('POST', '/api/department/delete', { id: dep.id }))
    expect(await f.readRecord('specialist', spec.id)).toMatchObject({
      department_id: null,
      version: 2,
    })
  })

  it("a block save or a background does not move the project's version", async () => {
    const { p, bg } = await f.tree()
    const before = (await f.readProject(p.id))!
    const block = await f.block('text', bg.id)
    await f.ok(f.call('POST', '/api/text/add', { id: block.id, x: 5 }))
    await f.ok(f.call('POST', '/api/project/delete_item', { id: block.id }))
    await f.background(p.id)
    const after = (await f.readProject(p.id))!
    expect(after.updated_at).not.toBe(before.updated_at)
    expect(after.version).toBe(before.version)
  })

  it('a version sent in a block body is not stored nor taken', async () => {
    const { bg } = await f.tree()
    const block = await f.block('price', bg.id)
    const saved = await f.ok(
      f.call('POST', '/api/price/update', { id: block.id, version: 40, text: '100 ₽' }),
    )
    expect(saved.version).toBe(2)
    expect((await f.readBlock(bg.id, block.id))?.version).toBe(2)
  })
})
