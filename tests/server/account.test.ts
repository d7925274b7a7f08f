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

/** Asks for a reset link and returns it once it is made (it is made after the answer). */
async function resetLink(email: string): Promise<string> {
  const before = links.length
  const res = await s.call('POST', '/api/forgot_password', { body: { email } })
  expect(res.status).toBe(200)
  await services.background.idle()
  expect(links).toHaveLength(before + 1)
  return decodeURIComponent(links.at(-1)!.link.split('token=')[1]!)
}

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

describe('reset links', () => {
  const reset = (token: string, password: string) =>
    s.call('POST', '/api/reset_password', { body: { token, password } })
  const login = (email: string, password: string) =>
    s.call('POST', '/api/login', { body: { email, password } })

  it('a newer link ends the older ones not used yet', async () => {
    const user = await s.signUp()
    const first = await resetLink(user.email)
    const second = await resetLink(user.email)
    expect((await reset(first, 'first-new-pass')).status).toBe(422)
    expect((await login(user.email, 'first-new-pass')).status).toBe(401)
    expect((await reset(second, 'second-new-pass')).status).toBe(200)
    expect((await login(user.email, 'second-new-pass')).status).toBe(200)
  })

  it('using a link ends every other link of the account', async () => {
    const user = await s.signUp()
    const first = await resetLink(user.email)
    // Another link made by hand (the server's own path ends older ones already): both are valid.
    const token = 'hand-made-reset-token'
    const { createHash } = await import('node:crypto')
    await services.db.query(
      `INSERT INTO password_resets (token_hash, user_id, expires_at)
       SELECT $1, id, now() + interval '1 hour' FROM users WHERE email = $2`,
      [createHash('sha256').update(token).digest('hex'), user.email],
    )
    expect((await reset(first, 'first-new-pass')).status).toBe(200)
    expect((await reset(token, 'other-new-pass')).status).toBe(422)
    expect((await login(user.email, 'first-new-pass')).status).toBe(200)
    // The used link does not work twice either.
    expect((await reset(first, 'third-new-pass')).status).toBe(422)
  })

  it("another account's link is not touched", async () => {
    const a = await s.signUp()
    const b = await s.signUp()
    const linkA = await resetLink(a.email)
    await resetLink(b.email)
    expect((await reset(linkA, 'a-new-pass-1')).status).toBe(200)
  })
})

describe('logout', () => {
  it('ends the presented token only, and is idempotent', async () => {
    const user = await s.signUp()
    const other = await json<{ access_token: string }>(
      await s.call('POST', '/api/login', { body: { email: user.email, password: 'password123' } }),
    )
    const res = await s.call('POST', '/api/logout', { token: user.token })
    expect(res.status).toBe(200)
    expect(await json(res)).toEqual({ ok: true })
    expect((await s.call('GET', '/api/check_auth', { token: user.token })).status).toBe(401)
    expect((await s.call('GET', '/api/workspace/list', { token: user.token })).status).toBe(401)
    // The same account signed in elsewhere stays signed in.
    expect((await s.call('GET', '/api/check_auth', { token: other.access_token })).status).toBe(200)
    // Again, with an unknown token, or with none: the same answer.
    for (const token of [user.token, 'never-issued', undefined]) {
      const again = await s.call('POST', '/api/logout', { token })
      expect(again.status).toBe(200)
      expect(await json(again)).toEqual({ ok: true })
    }
  })
})
