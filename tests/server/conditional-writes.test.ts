import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testServer, type TestServer, type TestUser } from './helpers.ts'
import { fixtures, raceProblems, type Row } from './write-cases.ts'

/** If-Match on every update and delete (docs/API.md, "Conditional writes"). */
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

interface ConflictBody {
  error: { code: string; message: string; current: Row }
}

describe('conditional writes', () => {
  it(
    'a write from another version is refused with the row as it is now, and nothing is written',
    async () => {
      for (const c of f.cases) {
        const target = await c.setup()
        const before = (await target.read())!
        expect(before.version, c.name).toEqual(expect.any(Number))
        const stale = await target.write({ 'If-Match': String(before.version! + 1) })
        const body = (await stale.json()) as ConflictBody
        expect(stale.status, c.name).toBe(409)
        expect(body.error.code, c.name).toBe('conflict')
        expect(body.error.message, c.name).toMatch(/изменил кто-то другой/)
        expect(body.error.current, c.name).toEqual(before)
        expect(await target.read(), c.name).toEqual(before)
      }
    },
    TABLE_TIMEOUT,
  )

  it(
    'a write from the current version goes through, quoted or not',
    async () => {
      for (const [i, c] of f.cases.entries()) {
        const target = await c.setup()
        const before = (await target.read())!
        const header = i % 2 === 0 ? String(before.version) : `"${before.version}"`
        const res = await target.write({ 'If-Match': header })
        expect(res.status, `${c.name}: ${await res.clone().text()}`).toBe(200)
        if (c.op === 'delete') expect(await target.read(), c.name).toBeNull()
        else
          expect(await target.read(), c.name).toMatchObject({
            ...target.changed,
            version: before.version! + 1,
          })
      }
    },
    TABLE_TIMEOUT,
  )

  it('a real stale edit: two people start from one version, the second is refused', async () => {
    const ws = await f.workspace()
    const dep = await f.record('department', ws.id)
    const first = await f.call(
      'POST',
      '/api/department/update',
      { id: dep.id, name: 'Первое' },
      { 'If-Match': '1' },
    )
    expect(first.status).toBe(200)
    const second = await f.call(
      'POST',
      '/api/department/update',
      { id: dep.id, name: 'Второе' },
      { 'If-Match': '1' },
    )
    expect(second.status).toBe(409)
    const body = (await second.json()) as ConflictBody
    expect(body.error.current).toMatchObject({ id: dep.id, name: 'Первое', version: 2 })
  })

  it('parallel writes from one version: exactly one wins', async () => {
    // The row lock of the version check decides the race; only PostgreSQL can interleave the
    // writes (PGlite has one connection): tests/server/postgres/version-lock-mutant.test.ts.
    expect(await raceProblems(f)).toEqual([])
  })

  it('a row already deleted answers 404, with or without If-Match', async () => {
    const ws = await f.workspace()
    const loc = await f.record('location', ws.id)
    await f.ok(f.call('POST', '/api/location/delete', { id: loc.id }))
    const res = await f.call(
      'POST',
      '/api/location/update',
      { id: loc.id, name: 'x' },
      { 'If-Match': '1' },
    )
    expect(res.status).toBe(404)
  })

  it('refuses an If-Match that is not a version', async () => {
    const ws = await f.workspace()
    const loc = await f.record('location', ws.id)
    for (const bad of ['abc', '1.5', '"3', 'W/"1"', '*', '0', '-1', '']) {
      const res = await f.call(
        'POST',
        '/api/location/update',
        { id: loc.id, name: 'x' },
        { 'If-Match': bad },
      )
      expect(res.status, bad).toBe(422)
      const body = (await res.json()) as { error: { code: string; fields: Record<string, string> } }
      expect(body.error.code).toBe('validation_error')
      expect(body.error.fields['If-Match']).toMatch(/версия/i)
    }
    expect((await f.readRecord('location', loc.id))?.name).toBe('Клиника на Ленина')
  })

  it('an Idempotency-Key repeat answers what the first request answered, a 409 included', async () => {
    const ws = await f.workspace()
    const dep = await f.record('department', ws.id)
    const send = (key: string, version: number, name: string) =>
      f.call(
        'POST',
        '/api/department/update',
        { id: dep.id, name },
        { 'If-Match': String(version), 'Idempotency-Key': key },
      )
    const ok = await send('k-ok', 1, 'Новое')
    expect(ok.status).toBe(200)
    // The version has moved since, but the repeat is the same request: its stored answer.
    const again = await send('k-ok', 1, 'Новое')
    expect(again.status).toBe(200)
    expect(again.headers.get('Idempotent-Replayed')).toBe('true')
    expect(await again.json()).toMatchObject({ name: 'Новое', version: 2 })

    const refused = await send('k-stale', 1, 'Третье')
    expect(refused.status).toBe(409)
    const refusedBody = await refused.text()
    // Final for its key, as any 4xx: the repeat gets the same refusal, and nothing is written.
    const repeat = await send('k-stale', 1, 'Третье')
    expect(repeat.status).toBe(409)
    expect(repeat.headers.get('Idempotent-Replayed')).toBe('true')
    expect(await repeat.text()).toBe(refusedBody)
    expect((await f.readRecord('department', dep.id))?.name).toBe('Новое')
  })
})
