import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { json, testServer, type TestServer, type TestUser } from './helpers.ts'

/**
 * Limits on sign-in, registration and password reset (docs/API.md, "Limits"), on a clock the test
 * moves by hand. Addresses come from X-Forwarded-For behind one trusted proxy.
 */
let s: TestServer
let clock = Date.UTC(2026, 0, 1)
const tick = (ms: number) => (clock += ms)

beforeAll(async () => {
  s = await testServer({ trustProxy: 1, now: () => clock })
})
afterAll(() => s.close())
// Every test starts where the limits of the one before have been forgotten.
beforeEach(() => {
  tick(24 * 3_600_000)
})

let nextAddress = 1
/** A fresh address (TEST-NET-3). */
const address = () => `203.0.113.${nextAddress++}`

function login(email: string, password: string, from: string, xff = from) {
  return s.call('POST', '/api/login', {
    body: { email, password },
    headers: { 'X-Forwarded-For': xff },
  })
}

async function expectLimited(res: Response): Promise<number> {
  expect(res.status).toBe(429)
  const body = await json<{ error: { code: string; message: string } }>(res)
  expect(body.error.code).toBe('rate_limited')
  expect(body.error.message).toMatch(/Слишком много попыток/)
  const wait = Number(res.headers.get('Retry-After'))
  expect(wait).toBeGreaterThan(0)
  return wait
}

/** Wrong passwords from `from` until the server asks it to wait; returns how many were answered. */
async function guessUntilLimited(email: string, from: string, max = 200): Promise<number> {
  for (let i = 0; i < max; i++) {
    const res = await login(email, `wrong-password-${i}`, from)
    if (res.status === 429) return i
    expect(res.status).toBe(401)
  }
  throw new Error('never limited')
}

describe('sign-in: a stranger cannot keep the owner out', () => {
  let owner: TestUser
  let home: string
  beforeEach(async () => {
    owner = await s.signUp()
    home = address()
    expect((await login(owner.email, 'password123', home)).status).toBe(200)
  })

  it("from the address the owner signed in from, another address's guesses never block", async () => {
    const attacker = address()
    await guessUntilLimited(owner.email, attacker)
    for (let i = 0; i < 5; i++) {
      await expectLimited(await login(owner.email, 'wrong-password', attacker))
      tick(61_000)
      await login(owner.email, 'wrong-password', attacker)
    }
    expect((await login(owner.email, 'password123', home)).status).toBe(200)
  })

  it('from a new address the owner waits a minute at most', async () => {
    const attacker = address()
    await guessUntilLimited(owner.email, attacker)
    // Keep guessing from many addresses, each a little, as a botnet would.
    for (let i = 0; i < 20; i++) await login(owner.email, 'wrong-password', address())
    const travelling = address()
    const res = await login(owner.email, 'password123', travelling)
    if (res.status !== 200) {
      const wait = await expectLimited(res)
      expect(wait).toBeLessThanOrEqual(60)
      tick(wait * 1000)
      expect((await login(owner.email, 'password123', travelling)).status).toBe(200)
    }
  })

  it("the owner's own mistakes cost a minute at most, then the right password works", async () => {
    const answered = await guessUntilLimited(owner.email, home)
    expect(answered).toBe(5)
    let longest = 0
    for (let i = 0; i < 12; i++) {
      const wait = await expectLimited(await login(owner.email, 'password123', home))
      longest = Math.max(longest, wait)
      tick(wait * 1000)
      expect((await login(owner.email, `still-wrong-${i}`, home)).status).toBe(401)
    }
    expect(longest).toBeLessThanOrEqual(60)
    const wait = await expectLimited(await login(owner.email, 'password123', home))
    tick(wait * 1000)
    expect((await login(owner.email, 'password123', home)).status).toBe(200)
  })

  it('the delays grow: 1 s, 2 s, 4 s, … up to the cap', async () => {
    const from = address()
    await guessUntilLimited(owner.email, from)
    const waits: number[] = []
    for (let i = 0; i < 8; i++) {
      const wait = await expectLimited(await login(owner.email, 'wrong', from))
      waits.push(wait)
      tick(wait * 1000)
      expect((await login(owner.email, `wrong-${i}`, from)).status).toBe(401)
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60, 60])
  })
})

describe('sign-in: one address against many accounts', () => {
  it(
    'one password tried on 30 accounts from one address is limited',
    { timeout: 30_000 },
    async () => {
      const users: TestUser[] = []
      for (let i = 0; i < 30; i++) users.push(await s.signUp())
      const from = address()
      let limited = 0
      for (const user of users) {
        const res = await login(user.email, 'Winter2026!', from)
        if (res.status === 429) limited += 1
        else expect(res.status).toBe(401)
      }
      expect(limited).toBeGreaterThan(0)
      // Their owners, each from an address of their own, are not affected.
      expect((await login(users[0]!.email, 'password123', address())).status).toBe(200)
    },
  )

  it('an unknown email counts like a known one', async () => {
    const from = address()
    let limited = false
    for (let i = 0; i < 30 && !limited; i++) {
      const res = await login(`nobody${i}@example.ru`, 'password123', from)
      limited = res.status === 429
    }
    expect(limited).toBe(true)
  })
})

describe('X-Forwarded-For behind a trusted proxy', () => {
  it('the rightmost entry is the client: a made-up leftmost one changes nothing', async () => {
    const owner = await s.signUp()
    const real = address()
    let limited = false
    for (let i = 0; i < 30 && !limited; i++) {
      const res = await login(owner.email, 'wrong-password', real, `10.0.${i}.1, ${real}`)
      limited = res.status === 429
    }
    expect(limited).toBe(true)
  })

  it('without a trusted proxy the header is ignored', async () => {
    const direct = await testServer({ now: () => clock })
    try {
      const res = await direct.call('POST', '/api/register', {
        body: { name: 'Прямой', email: 'direct@example.ru', password: 'password123' },
      })
      expect(res.status).toBe(200)
      let limited = false
      for (let i = 0; i < 30 && !limited; i++) {
        const r = await direct.call('POST', '/api/login', {
          body: { email: 'direct@example.ru', password: 'wrong-password' },
          headers: { 'X-Forwarded-For': `198.51.100.${i}` },
        })
        limited = r.status === 429
      }
      expect(limited).toBe(true)
    } finally {
      await direct.close()
    }
  })
})

describe('registration and password reset', () => {
  it('registrations from one address are limited; another address is not', async () => {
    const from = address()
    let limited = false
    for (let i = 0; i < 15 && !limited; i++) {
      const res = await s.call('POST', '/api/register', {
        body: { name: 'Бот', email: `bot${nextAddress}-${i}@example.ru`, password: 'password123' },
        headers: { 'X-Forwarded-For': from },
      })
      if (res.status === 429) limited = true
      else expect(res.status).toBe(200)
    }
    expect(limited).toBe(true)
    const other = await s.call('POST', '/api/register', {
      body: { name: 'Человек', email: `human${nextAddress}@example.ru`, password: 'password123' },
      headers: { 'X-Forwarded-For': address() },
    })
    expect(other.status).toBe(200)
  })

  it('reset links asked for one account are limited, whatever the address', async () => {
    const user = await s.signUp()
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) {
      const res = await s.call('POST', '/api/forgot_password', {
        body: { email: user.email },
        headers: { 'X-Forwarded-For': address() },
      })
      statuses.push(res.status)
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429])
    // Someone else asking keeps the owner from a link for a minute at most.
    for (let i = 0; i < 10; i++) {
      const res = await s.call('POST', '/api/forgot_password', {
        body: { email: user.email },
        headers: { 'X-Forwarded-For': address() },
      })
      if (res.status === 429) {
        const wait = Number(res.headers.get('Retry-After'))
        expect(wait).toBeLessThanOrEqual(60)
        tick(wait * 1000)
      }
    }
  })

  it('reset links asked for many accounts from one address are limited', async () => {
    const from = address()
    let limited = false
    for (let i = 0; i < 20 && !limited; i++) {
      const res = await s.call('POST', '/api/forgot_password', {
        body: { email: `someone${i}@example.ru` },
        headers: { 'X-Forwarded-For': from },
      })
      limited = res.status === 429
    }
    expect(limited).toBe(true)
  })

  it('reset tokens guessed from one address are limited', async () => {
    const from = address()
    let limited = false
    for (let i = 0; i < 20 && !limited; i++) {
      const res = await s.call('POST', '/api/reset_password', {
        body: { token: `guess-${i}`, password: 'password123' },
        headers: { 'X-Forwarded-For': from },
      })
      if (res.status === 429) limited = true
      else expect(res.status).toBe(422)
    }
    expect(limited).toBe(true)
  })
})
