import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../server/start.ts'
import {
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

  it('draws the same faults from the same seed, and spares sign-in by default', () => {
    const rates = { 'drop-request': 0.2, 'status-500': 0.2, duplicate: 0.1 }
    const draw = (seed: number) => {
      const policy = randomPolicy(seededRandom(seed), rates)
      return Array.from({ length: 50 }, () => policy({ method: 'POST', path: '/api/text/add' }))
    }
    expect(draw(7)).toEqual(draw(7))
    expect(draw(7)).not.toEqual(draw(8))
    expect(new Set(draw(7)).size).toBeGreaterThan(2)
    const policy = randomPolicy(() => 0, { 'drop-request': 1 })
    expect(policy({ method: 'POST', path: '/api/login' })).toBe('pass')
    expect(policy({ method: 'POST', path: '/api/department/add' })).toBe('drop-request')
  })
})
