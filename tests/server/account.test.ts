import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Services } from '../../server/services/services.ts'
import { json, testServer, type TestServer } from './helpers.ts'

/** Messages of the account calls, reset links and sign-out (docs/API.md, "Auth"). */
let s: TestServer
let services: Services
const links: { link: string; email: string }[] = []

beforeAll(async () => {
  s = await testServer({ onResetLink: (link, email) => links.push({ link, email }) })
  services = (await s.app.ready()).services
})
afterAll(() => s.close())

type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } }

describe('messages', () => {
  it('a taken email on register says so on the email field', async () => {
    const user = await s.signUp()
    const res = await s.call('POST', '/api/register', {
      body: { name: 'Другой', email: user.email.toUpperCase(), password: 'password123' },
    })
    expect(res.status).toBe(409)
    const body = await json<ErrorBody>(res)
    expect(body.error.code).toBe('conflict')
    expect(body.error.message).toBe('Пользователь с таким адресом уже зарегистрирован')
    expect(body.error.fields).toEqual({
      email: 'Пользователь с таким адресом уже зарегистрирован',
    })
  })

  it('an invalid reset token says so on the token field', async () => {
    const res = await s.call('POST', '/api/reset_password', {
      body: { token: 'no-such-token', password: 'password123' },
    })
    expect(res.status).toBe(422)
    expect((await json<ErrorBody>(res)).error.fields).toEqual({
      token: 'Ссылка для сброса пароля недействительна или устарела',
    })
  })
})

describe('forgot_password answers before any work on the address', () => {
  /**
   * Holds the lookup of the address until released: the answer must come while it is held, for a
   * known and an unknown address alike (before, the answer waited for the lookup and, for a known
   * address, the link: a stopwatch told the two apart). Without the fix this test times out.
   */
  async function answerWhileLookupHeld(email: string) {
    const query = services.db.query.bind(services.db)
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    let held = 0
    services.db.query = (async (text: string, params?: readonly unknown[]) => {
      if (/FROM users WHERE email/.test(text)) {
        held += 1
        await released
      }
      return query(text, params)
    }) as typeof services.db.query
    try {
      const res = await s.call('POST', '/api/forgot_password', { body: { email } })
      expect(res.status).toBe(200)
      expect(await json(res)).toEqual({ ok: true })
      release()
      await services.background.idle()
    } finally {
      release()
      services.db.query = query
    }
    expect(held).toBe(1)
  }

  it('an unknown address', { timeout: 10_000 }, async () => {
    const before = links.length
    await answerWhileLookupHeld('nobody-here@example.ru')
    expect(links).toHaveLength(before)
  })

  it('a known address, whose link is made after the answer', { timeout: 10_000 }, async () => {
    const user = await s.signUp()
    const before = links.length
    await answerWhileLookupHeld(user.email)
    expect(links).toHaveLength(before + 1)
    expect(links.at(-1)!.email).toBe(user.email)
  })
})
