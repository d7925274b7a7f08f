import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { json, testServer, type TestServer } from './helpers.ts'

let s: TestServer
const resetLinks: string[] = []

beforeAll(async () => {
  s = await testServer({
    loginLimit: { attempts: 10, windowMs: 60_000 },
    onResetLink: (link) => resetLinks.push(link),
  })
})
afterAll(() => s.close())

describe('register and login', () => {
  it('registers an editor with a workspace of their own and signs them in', async () => {
    const res = await s.call('POST', '/api/register', {
      body: { name: 'Анна', email: 'Anna@Example.ru', password: 'secret-pass' },
    })
    expect(res.status).toBe(200)
    const body = await json<{ access_token: string; expires_at: string; user: object }>(res)
    expect(body.user).toMatchObject({ name: 'Анна', email: 'anna@example.ru', role: 'editor' })
    expect(body.access_token.length).toBeGreaterThanOrEqual(40)
    expect(new Date(body.expires_at).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000)

    const check = await s.call('GET', '/api/check_auth', { token: body.access_token })
    expect(check.status).toBe(200)
    expect(await json(check)).toEqual({ user: body.user })

    const ws = await s.call('GET', '/api/workspace/list', { token: body.access_token })
    expect(await json(ws)).toEqual([
      { id: expect.any(Number), name: 'Моё пространство', version: 1, role: 'admin' },
    ])
  })

  it('logs in with the same credentials (email case-insensitive)', async () => {
    const res = await s.call('POST', '/api/login', {
      body: { email: 'ANNA@example.ru', password: 'secret-pass' },
    })
    expect(res.status).toBe(200)
    expect((await json<{ user: { name: string } }>(res)).user.name).toBe('Анна')
  })

  it('refuses a duplicate email with 409 and a Russian field message', async () => {
    const res = await s.call('POST', '/api/register', {
      body: { name: 'Другая', email: 'anna@example.ru', password: 'another-pass' },
    })
    expect(res.status).toBe(409)
    const body = await json<{ error: { code: string; fields: Record<string, string> } }>(res)
    expect(body.error.code).toBe('conflict')
    expect(body.error.fields.email).toMatch(/[а-я]/)
  })

  it('answers a wrong password with 401 and a Russian message', async () => {
    const res = await s.call('POST', '/api/login', {
      body: { email: 'anna@example.ru', password: 'wrong-pass' },
    })
    expect(res.status).toBe(401)
    const body = await json<{ error: { code: string; message: string } }>(res)
    expect(body.error.code).toBe('unauthorized')
    expect(body.error.message).toMatch(/Неверный/)
  })

  it('validates register input with Russian field messages', async () => {
    const res = await s.call('POST', '/api/register', {
      body: { name: '', email: 'not-an-email', password: 'short' },
    })
    expect(res.status).toBe(422)
    const body = await json<{ error: { fields: Record<string, string> } }>(res)
    expect(body.error.fields).toEqual({
      name: 'Обязательное поле',
      email: 'Неверный адрес электронной почты',
      password: 'Не короче 8 символов',
    })
  })
})

describe('tokens', () => {
  it('401 JSON in Russian without a token, with a wrong one, or a malformed header', async () => {
    for (const headers of [
      {},
      { Authorization: 'Bearer nope' },
      { Authorization: 'Basic x' },
    ] as Record<string, string>[]) {
      const res = await s.call('GET', '/api/check_auth', { headers })
      expect(res.status).toBe(401)
      const body = await json<{ error: { code: string; message: string } }>(res)
      expect(body.error.code).toBe('unauthorized')
      expect(body.error.message).toMatch(/Войдите/)
    }
  })

  it('an expired token is refused', async () => {
    const short = await testServer({ tokenTtlDays: 0 })
    try {
      const res = await short.call('POST', '/api/register', {
        body: { name: 'Б', email: 'b@example.ru', password: 'password123' },
      })
      const { access_token } = await json<{ access_token: string }>(res)
      const check = await short.call('GET', '/api/check_auth', { token: access_token })
      expect(check.status).toBe(401)
    } finally {
      await short.close()
    }
  })

  it('updates the display name', async () => {
    const user = await s.signUp('Старое имя')
    const res = await s.call('POST', '/api/profile/update', {
      token: user.token,
      body: { name: '  Новое имя ' },
    })
    expect(res.status).toBe(200)
    expect((await json<{ user: { name: string } }>(res)).user.name).toBe('Новое имя')
    const check = await json<{ user: { name: string } }>(
      await s.call('GET', '/api/check_auth', { token: user.token }),
    )
    expect(check.user.name).toBe('Новое имя')
  })
})

describe('password reset', () => {
  it('always answers 200; a known email gets a single-use reset link', async () => {
    const unknown = await s.call('POST', '/api/forgot_password', {
      body: { email: 'nobody@example.ru' },
    })
    expect(unknown.status).toBe(200)
    // The link is made after the answer (docs/API.md).
    const { services } = await s.app.ready()
    await services.background.idle()
    expect(resetLinks).toHaveLength(0)

    const user = await s.signUp()
    const res = await s.call('POST', '/api/forgot_password', { body: { email: user.email } })
    expect(res.status).toBe(200)
    await services.background.idle()
    expect(resetLinks).toHaveLength(1)
    const link = resetLinks[0]!
    expect(link).toMatch(/^\/pages\/reset-password\?token=/)
    const token = decodeURIComponent(link.split('token=')[1]!)

    const reset = await s.call('POST', '/api/reset_password', {
      body: { token, password: 'brand-new-pass' },
    })
    expect(reset.status).toBe(200)
    // Old sessions end with the old password.
    expect((await s.call('GET', '/api/check_auth', { token: user.token })).status).toBe(401)
    const login = await s.call('POST', '/api/login', {
      body: { email: user.email, password: 'brand-new-pass' },
    })
    expect(login.status).toBe(200)
    const again = await s.call('POST', '/api/reset_password', {
      body: { token, password: 'another-pass-1' },
    })
    expect(again.status).toBe(422)
  })
})

describe('login rate limit', () => {
  it('answers 429 in Russian after 10 attempts per email and address', async () => {
    const user = await s.signUp()
    for (let i = 0; i < 10; i++) {
      const res = await s.call('POST', '/api/login', {
        body: { email: user.email, password: 'wrong-password' },
      })
      expect(res.status).toBe(401)
    }
    const limited = await s.call('POST', '/api/login', {
      body: { email: user.email, password: 'password123' },
    })
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
    const body = await json<{ error: { code: string; message: string } }>(limited)
    expect(body.error.code).toBe('rate_limited')
    expect(body.error.message).toMatch(/Слишком много попыток/)
    // Another email from the same address is not affected.
    const other = await s.signUp()
    const ok = await s.call('POST', '/api/login', {
      body: { email: other.email, password: 'password123' },
    })
    expect(ok.status).toBe(200)
  })
})
