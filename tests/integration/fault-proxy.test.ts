import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../server/start.ts'
import {
  faultOnce,
  randomPolicy,
  seededRandom,
  startFaultProxy,
  type Fault,
  type FaultProxy,
} from '../support/fault-proxy.ts'

// The proxy is the instrument of the convergence tests: each fault must do exactly what it says
// to a real server, or the scenarios built on it prove nothing.
let server: RunningServer
let proxy: FaultProxy
let token: string

beforeAll(async () => {
  server = await startServer({ port: 0, dataDir: 'memory' })
  proxy = await startFaultProxy(server.url, () => 'pass', { delayMs: 50 })
  const res = await fetch(`${server.url}/api/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Прокси', email: 'proxy@example.ru', password: 'password123' }),
  })
  token = ((await res.json()) as { access_token: string }).access_token
})

afterAll(async () => {
  await proxy.close()
  await server.close()
})

function addWorkspace(name: string, key = randomUUID()) {
  return fetch(`${proxy.url}/api/workspace/add`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Authorization: `Bearer ${token}`,
      'Idempotency-Key': key,
    },
    body: JSON.stringify({ name }),
  })
}

async function workspaceNames(): Promise<string[]> {
  const res = await fetch(`${server.url}/api/workspace/list`, {
    headers: { Authorization: `Bearer ${token}` },
  })
  return ((await res.json()) as { name: string }[]).map((w) => w.name)
}

function once(fault: Fault) {
  let used = false
  proxy.setPolicy(() => {
    if (used) return 'pass'
    used = true
    return fault
  })
}

describe('fault proxy in front of the reference server', () => {
  it('passes requests through untouched', async () => {
    proxy.setPolicy(() => 'pass')
    const res = await addWorkspace('Проходит')
    expect(res.status).toBe(200)
    expect(await workspaceNames()).toContain('Проходит')
  })

  it('drops a request before the server sees it', async () => {
    once('drop-request')
    await expect(addWorkspace('Потерян в пути')).rejects.toThrow()
    expect(await workspaceNames()).not.toContain('Потерян в пути')
  })

  it('drops the answer after the server applied the change', async () => {
    once('drop-response')
    await expect(addWorkspace('Применён без ответа')).rejects.toThrow()
    expect(await workspaceNames()).toContain('Применён без ответа')
  })

  it('delivers twice, and the idempotency key keeps it to one record', async () => {
    once('duplicate')
    const before = proxy.stats.forwarded
    const res = await addWorkspace('Дважды')
    expect(res.status).toBe(200)
    expect(proxy.stats.forwarded - before).toBe(2)
    expect((await workspaceNames()).filter((n) => n === 'Дважды')).toHaveLength(1)
  })

  it('answers 429 and 5xx itself without forwarding', async () => {
    for (const [fault, status] of [
      ['status-429', 429],
      ['status-500', 500],
      ['status-502', 502],
    ] as const) {
      once(fault)
      const res = await addWorkspace(`Статус ${status}`)
      expect(res.status).toBe(status)
      expect(await workspaceNames()).not.toContain(`Статус ${status}`)
    }
  })

  it('cuts everything while offline and recovers afterwards', async () => {
    proxy.setPolicy(() => 'pass')
    proxy.setOffline(true)
    await expect(addWorkspace('Без сети')).rejects.toThrow()
    proxy.setOffline(false)
    expect((await addWorkspace('Сеть вернулась')).status).toBe(200)
    expect(await workspaceNames()).toEqual(expect.arrayContaining(['Сеть вернулась']))
    expect(await workspaceNames()).not.toContain('Без сети')
  })

  it('delivers a write again late, after a newer write of the same record: the server answers it from its stored answer', async () => {
    proxy.setPolicy(() => 'pass')
    const created = (await (await addWorkspace('Старое имя')).json()) as { id: number }
    const rename = (name: string) =>
      fetch(`${proxy.url}/api/workspace/update`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${token}`,
          'Idempotency-Key': randomUUID(),
        },
        body: JSON.stringify({ id: created.id, name }),
      })
    once('stale-duplicate')
    expect((await rename('Первая правка')).status).toBe(200)
    const before = proxy.stats['stale-redelivered']
    expect((await rename('Вторая правка')).status).toBe(200)
    expect(proxy.stats['stale-redelivered'] - before).toBe(1)
    expect(proxy.anomalies).toEqual([])
    const names = await workspaceNames()
    expect(names).toContain('Вторая правка')
    expect(names).not.toContain('Первая правка')
  })

  it('without its key a late duplicate would undo the newer write (what the check above guards)', async () => {
    proxy.setPolicy(() => 'pass')
    const created = (await (await addWorkspace('Ещё одно')).json()) as { id: number }
    const rename = (name: string) =>
      fetch(`${proxy.url}/api/workspace/update`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${token}`,
          'Idempotency-Key': randomUUID(),
        },
        body: JSON.stringify({ id: created.id, name }),
      })
    proxy.lateDuplicates = 'new key'
    try {
      once('stale-duplicate')
      await rename('Устаревшее имя')
      await rename('Новое имя')
    } finally {
      proxy.lateDuplicates = 'same key'
    }
    expect(await workspaceNames()).toContain('Устаревшее имя')
  })

  it('refuses the first try of a chosen request with 404/409/422 itself, once', async () => {
    for (const [fault, status] of [
      ['reject-404', 404],
      ['reject-409', 409],
      ['reject-422', 422],
    ] as const) {
      const key = randomUUID()
      const policy = faultOnce(
        fault,
        (r) => r.path === '/api/workspace/add',
        () => 'pass',
      )
      proxy.setPolicy(policy)
      const res = await addWorkspace(`Отказ ${status}`, key)
      expect(res.status).toBe(status)
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/[а-я]/)
      expect(proxy.rejected.at(-1)).toEqual({ key, path: '/api/workspace/add', status })
      expect(await workspaceNames()).not.toContain(`Отказ ${status}`)
      // A retry of the same key is not a first try: it passes.
      expect((await addWorkspace(`Отказ ${status}`, key)).status).toBe(200)
      expect(policy.fired()).toBe(true)
    }
  })

  it('tells the observer of each answered request before the answer goes back', async () => {
    proxy.setPolicy(() => 'pass')
    const key = randomUUID()
    const seen: string[] = []
    proxy.setObserver((request) => {
      seen.push(`${request.method} ${request.path} ${request.status} ${request.firstTry}`)
    })
    try {
      await addWorkspace('Наблюдаемый', key)
      await addWorkspace('Наблюдаемый', key)
    } finally {
      proxy.setObserver(null)
    }
    expect(seen).toEqual(['POST /api/workspace/add 200 true', 'POST /api/workspace/add 200 false'])
  })

  it('an observer that answers "cut" takes the answer down after the server applied the write', async () => {
    proxy.setPolicy(() => 'pass')
    proxy.setObserver(() => 'cut')
    try {
      await expect(addWorkspace('Сервер упал с ответом')).rejects.toThrow()
    } finally {
      proxy.setObserver(null)
    }
    expect(await workspaceNames()).toContain('Сервер упал с ответом')
  })

  it('holds a hanging answer until the caller, told which request hangs, gives up', async () => {
    // Held for a minute unless the caller gives up: the test would time out waiting.
    const waiting = new Map<string, AbortController>()
    const told: string[] = []
    const hanging = await startFaultProxy(server.url, () => 'hang', {
      hangMs: 60_000,
      onHang: (call) => {
        told.push(call)
        waiting.get(call)?.abort(new DOMException('The operation timed out.', 'TimeoutError'))
      },
    })
    try {
      const controller = new AbortController()
      waiting.set('7', controller)
      const sent = fetch(`${hanging.url}/api/workspace/add`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${token}`,
          'Idempotency-Key': randomUUID(),
          'x-fault-call': '7',
        },
        body: JSON.stringify({ name: 'Ответ задержан' }),
        signal: controller.signal,
      })
      await expect(sent).rejects.toThrow('timed out')
      expect(told).toEqual(['7'])
      expect(await workspaceNames()).toContain('Ответ задержан')
    } finally {
      await hanging.close()
    }
  })

  it('draws the same faults from the same seed, and spares sign-in by default', () => {
    const rates = { 'drop-request': 0.2, 'status-500': 0.2, duplicate: 0.1 }
    const draw = (seed: number) => {
      const policy = randomPolicy(seededRandom(seed), rates)
      return Array.from({ length: 50 }, () =>
        policy({ method: 'POST', path: '/api/text/add', key: null, firstTry: false }),
      )
    }
    expect(draw(7)).toEqual(draw(7))
    expect(draw(7)).not.toEqual(draw(8))
    expect(new Set(draw(7)).size).toBeGreaterThan(2)
    const policy = randomPolicy(() => 0, { 'drop-request': 1 })
    expect(policy({ method: 'POST', path: '/api/login', key: null, firstTry: false })).toBe('pass')
    expect(
      policy({ method: 'POST', path: '/api/department/add', key: null, firstTry: false }),
    ).toBe('drop-request')
    // A browser journey faults the writes only: never a read, never the app's files.
    const writes = randomPolicy(() => 0, { 'drop-request': 1 }, { mutationsOnly: true })
    const asked = (method: string, path: string) =>
      writes({ method, path, key: null, firstTry: true })
    expect(asked('GET', '/api/project/list')).toBe('pass')
    expect(asked('GET', '/assets/index.js')).toBe('pass')
    expect(asked('POST', '/api/text/add')).toBe('drop-request')
  })
})
