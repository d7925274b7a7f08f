import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { testServer, type TestServer, type TestUser } from './helpers.ts'

// Every gzip the server makes, counted: whole bodies, and a kept list's pieces
// (server/common/list-gzip.ts). The encoders stay zlib's own.
const gzipped = vi.hoisted(() => ({ count: 0 }))
vi.mock('node:zlib', async (original) => {
  const zlib = await original<typeof import('node:zlib')>()
  const gzip = ((...args: Parameters<typeof zlib.gzip>) => {
    gzipped.count += 1
    return (zlib.gzip as (...a: unknown[]) => void)(...args)
  }) as typeof zlib.gzip
  const deflateRawSync = ((...args: Parameters<typeof zlib.deflateRawSync>) => {
    gzipped.count += 1
    return zlib.deflateRawSync(...args)
  }) as typeof zlib.deflateRawSync
  const counted = { gzip, deflateRawSync }
  return { ...zlib, default: { ...zlib, ...counted }, ...counted }
})

/**
 * A kept list goes out as the same bytes until it changes, so it is gzipped once per version
 * (server/http/compression.ts), and a change is never answered with the old list's encoding.
 */
let server: TestServer
let user: TestUser
let departmentId = 0

beforeAll(async () => {
  server = await testServer()
  user = await server.signUp()
  for (let n = 1; n <= 40; n += 1) {
    const res = await server.call('POST', '/api/department/add', {
      token: user.token,
      body: {
        workspace_id: user.workspaceId,
        name: `Отделение ${n}`,
        description: `Описание ${n}`,
      },
    })
    departmentId ||= ((await res.json()) as { id: number }).id
  }
})

afterAll(() => server?.close())

async function list(): Promise<{ name: string }[]> {
  const res = await server.call('GET', '/api/department/list', {
    token: user.token,
    query: { workspace_id: user.workspaceId },
    headers: { 'Accept-Encoding': 'gzip' },
  })
  expect(res.headers.get('Content-Encoding')).toBe('gzip')
  const text = gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8')
  return JSON.parse(text) as { name: string }[]
}

describe('a kept list sent gzipped', () => {
  it('is encoded once while it stays the same, and again once it changes', async () => {
    const first = await list()
    expect(first).toHaveLength(40)
    const before = gzipped.count
    expect(await list()).toEqual(first)
    expect(await list()).toEqual(first)
    expect(gzipped.count).toBe(before)

    const res = await server.call('POST', '/api/department/update', {
      token: user.token,
      body: { id: departmentId, name: 'Переименовано' },
    })
    expect(res.status).toBe(200)
    const changed = await list()
    expect(changed.map((d) => d.name)).toContain('Переименовано')
    const after = gzipped.count
    expect(after).toBeGreaterThan(before)
    expect(await list()).toEqual(changed)
    expect(gzipped.count).toBe(after)
  })

  it('is made and encoded once when several calls find it changed at the same time', async () => {
    // Written behind the server's back, so no call finds the change already in the kept list.
    const { services } = await server.app.ready()
    await services.db.query('UPDATE departments SET name = $2 WHERE id = $1', [
      departmentId,
      'Изменено в базе',
    ])
    const before = gzipped.count
    const lists = await Promise.all(Array.from({ length: 5 }, () => list()))
    for (const departments of lists) {
      expect(departments.map((d) => d.name)).toContain('Изменено в базе')
    }
    // The 40 departments are one piece (server/common/list-gzip.ts): one encoding for the five.
    expect(gzipped.count - before).toBe(1)
  })
})
