import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiApp } from '../../server/app.ts'
import { secondInstance, testServer, type TestServer, type TestUser } from './helpers.ts'
import { SseReader } from './sse.ts'

/**
 * Two server instances over one database (docs/API.md, "Live changes"; server/README.md): a change
 * made through one reaches a stream open on the other within a second. On PostgreSQL the second
 * instance opens its own pool on the same schema and hears the first through NOTIFY; on PGlite
 * (one process) it is handed the same database object.
 */
let s: TestServer
let other: ApiApp
let user: TestUser
const postgres = Boolean(process.env.DATABASE_URL)

beforeAll(async () => {
  s = await testServer()
  other = await secondInstance(s)
  user = await s.signUp()
}, 30_000)

afterAll(async () => {
  await other.close()
  await s.close()
})

const openOnOther = async (workspaceId: number, lastEventId?: string) => {
  const res = await other.request(`/api/events?workspace_id=${workspaceId}`, {
    headers: {
      Authorization: `Bearer ${user.token}`,
      ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}),
    },
  })
  expect(res.status).toBe(200)
  return new SseReader(res)
}

/** Resolves with what `promise` gives, or fails once `ms` have passed. */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`nothing within ${ms} ms`)), ms)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

describe('live changes across instances', () => {
  it('a change through one instance reaches a stream on the other within 1 s', async () => {
    const events = await openOnOther(user.workspaceId)
    await events.next()
    const latencies: number[] = []
    for (let i = 0; i < 5; i++) {
      const started = performance.now()
      const res = await s.call('POST', '/api/department/add', {
        token: user.token,
        body: { workspace_id: user.workspaceId, name: `Отдел ${i}` },
      })
      const dep = (await res.json()) as { id: number }
      const change = await within(1000, events.change())
      latencies.push(performance.now() - started)
      expect(change.data).toEqual({ table: 'department', id: dep.id, version: 1, op: 'add' })
    }
    // The figure for the record (server/README.md): write answered and event heard, in ms.
    console.log(
      `cross-instance change events (${postgres ? 'PostgreSQL' : 'PGlite'}):`,
      latencies.map(Math.round),
    )
    await events.cancel()
  })

  it('a stream resumed on the other instance misses nothing written through the first', async () => {
    const first = await openOnOther(user.workspaceId)
    const position = (await first.next())!.id!
    await first.cancel()
    const ids: number[] = []
    for (let i = 0; i < 3; i++) {
      const res = await s.call('POST', '/api/location/add', {
        token: user.token,
        body: { workspace_id: user.workspaceId, name: `Филиал ${i}` },
      })
      ids.push(((await res.json()) as { id: number }).id)
    }
    const resumed = await openOnOther(user.workspaceId, position)
    const got = [await resumed.change(), await resumed.change(), await resumed.change()]
    expect(got.map((e) => e.data.id)).toEqual(ids)
    await resumed.cancel()
  })

  it('concurrent writers through both instances: every stream sees every event once, in id order', async () => {
    const onFirst = new SseReader(
      await s.call('GET', '/api/events', {
        token: user.token,
        query: { workspace_id: user.workspaceId },
      }),
    )
    await onFirst.next()
    const onOther = await openOnOther(user.workspaceId)
    await onOther.next()
    const writes = Array.from({ length: 12 }, (_, i) => {
      const body = JSON.stringify({ workspace_id: user.workspaceId, name: `Параллельно ${i}` })
      const init = {
        method: 'POST',
        headers: { Authorization: `Bearer ${user.token}`, 'Content-Type': 'application/json' },
        body,
      }
      return Promise.resolve(
        i % 2 === 0
          ? s.app.request('/api/department/add', init)
          : other.request('/api/department/add', init),
      )
    })
    const made = await Promise.all(
      writes.map(async (w) => ((await (await w).json()) as { id: number }).id),
    )
    for (const reader of [onFirst, onOther]) {
      const seen = []
      for (let i = 0; i < made.length; i++) seen.push(await within(2000, reader.change()))
      expect(seen.map((e) => e.data.id).sort()).toEqual([...made].sort())
      const eventIds = seen.map((e) => BigInt(e.eventId))
      expect(eventIds).toEqual([...eventIds].sort((a, b) => (a < b ? -1 : 1)))
      await reader.cancel()
    }
  })
})
