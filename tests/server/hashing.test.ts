import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Throttled } from '../../server/services/throttle.ts'
import { WorkQueue } from '../../server/services/work-queue.ts'
import { json, testServer, type TestServer } from './helpers.ts'

/**
 * Password hashing (scrypt) is the server's dearest work and anyone may ask for it: it runs only
 * after the limits and the reset token are checked, and a few at a time (docs/API.md, "Limits").
 * scrypt is counted through a wrapper around node:crypto.
 */
const scryptCalls = vi.hoisted(() => ({ started: 0, inFlight: 0, most: 0 }))
vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof import('node:crypto')>()
  const scrypt = (...args: unknown[]) => {
    const done = args.pop() as (error: Error | null, key: Buffer) => void
    scryptCalls.started += 1
    scryptCalls.inFlight += 1
    scryptCalls.most = Math.max(scryptCalls.most, scryptCalls.inFlight)
    ;(crypto.scrypt as (...a: unknown[]) => void)(...args, (error: Error | null, key: Buffer) => {
      scryptCalls.inFlight -= 1
      done(error, key)
    })
  }
  return { ...crypto, default: { ...crypto, scrypt }, scrypt }
})

let s: TestServer
let clock = Date.UTC(2026, 0, 1)
beforeAll(async () => {
  s = await testServer({ trustProxy: 1, now: () => clock, hashConcurrency: 2 })
})
afterAll(() => s.close())

const from = (address: string) => ({ 'X-Forwarded-For': address })

describe('password hashing', () => {
  it('a reset token that does not work is refused before any hashing', async () => {
    const before = scryptCalls.started
    const res = await s.call('POST', '/api/reset_password', {
      body: { token: 'not-a-real-token', password: 'password123' },
      headers: from('198.51.100.1'),
    })
    expect(res.status).toBe(422)
    expect(scryptCalls.started).toBe(before)
  })

  it('a sign-in refused by the limits costs no hashing', async () => {
    const user = await s.signUp()
    let limited: Response | undefined
    for (let i = 0; i < 20 && !limited; i++) {
      const res = await s.call('POST', '/api/login', {
        body: { email: user.email, password: `wrong-${i}` },
        headers: from('198.51.100.2'),
      })
      if (res.status === 429) limited = res
    }
    expect(limited).toBeDefined()
    const before = scryptCalls.started
    for (let i = 0; i < 10; i++) {
      const res = await s.call('POST', '/api/login', {
        body: { email: user.email, password: 'password123' },
        headers: from('198.51.100.2'),
      })
      expect(res.status).toBe(429)
    }
    expect(scryptCalls.started).toBe(before)
    clock += 24 * 3_600_000
  })

  it('at most two hashes run at once, however many sign-ins and registrations arrive', async () => {
    scryptCalls.most = 0
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        i % 2 === 0
          ? s.call('POST', '/api/login', {
              body: { email: `unknown${i}@example.ru`, password: 'password123' },
              headers: from(`198.51.100.${10 + i}`),
            })
          : s.call('POST', '/api/register', {
              body: { name: 'Гость', email: `guest${i}@example.ru`, password: 'password123' },
              headers: from(`198.51.100.${10 + i}`),
            }),
      ),
    )
    expect(results.map((r) => r.status).sort()).toEqual([
      ...Array<number>(12).fill(200),
      ...Array<number>(12).fill(401),
    ])
    expect(scryptCalls.most).toBeGreaterThan(0)
    expect(scryptCalls.most).toBeLessThanOrEqual(2)
  })

  it('a valid reset token still sets the new password', async () => {
    const links: string[] = []
    const t = await testServer({ onResetLink: (link) => links.push(link) })
    try {
      const user = await t.signUp()
      await t.call('POST', '/api/forgot_password', { body: { email: user.email } })
      await (await t.app.ready()).services.background.idle()
      const token = decodeURIComponent(links[0]!.split('token=')[1]!)
      const res = await t.call('POST', '/api/reset_password', {
        body: { token, password: 'brand-new-pass' },
      })
      expect(res.status).toBe(200)
      const login = await t.call('POST', '/api/login', {
        body: { email: user.email, password: 'brand-new-pass' },
      })
      expect(await json(login)).toHaveProperty('access_token')
    } finally {
      await t.close()
    }
  })
})

describe('the hashing queue', () => {
  it('runs a few at once, lets some wait, and refuses the rest with a wait of a second', async () => {
    const queue = new WorkQueue(1, 1)
    let finishFirst!: () => void
    const first = queue.run(() => new Promise<string>((r) => (finishFirst = () => r('first'))))
    const order: string[] = []
    const second = queue.run(() => {
      order.push('second started')
      return Promise.resolve('second')
    })
    await expect(queue.run(() => Promise.resolve('third'))).rejects.toEqual(
      new Throttled(1, 'busy'),
    )
    expect(order).toEqual([])
    finishFirst()
    expect(await first).toBe('first')
    expect(await second).toBe('second')
    // Free again: the next one runs at once.
    expect(await queue.run(() => Promise.resolve('fourth'))).toBe('fourth')
  })
})
