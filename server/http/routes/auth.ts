import type { Hono } from 'hono'
import {
  ForgotPasswordInput,
  LoginInput,
  RegisterInput,
  ResetPasswordInput,
  UpdateProfileInput,
} from '../../../src/domain/user.ts'
import { AppError } from '../../services/errors.ts'
import { normaliseEmail } from '../../services/auth.ts'
import { parseInput } from '../../services/validate.ts'
import type { AppEnv } from '../env.ts'
import { clientAddress } from '../client-address.ts'
import { readJson } from '../errors.ts'
import type { Logger } from '../../common/log.ts'
import { requireAuth } from '../middleware.ts'
import { productRoutes } from './define.ts'
import { json } from '../answer.ts'

export interface AuthRouteOptions {
  log: Logger
  /** Called with each password reset link (the server has no mail; the link is logged). */
  onResetLink?: (link: string, email: string) => void
  /** How many proxies of our own stand in front (TRUST_PROXY); 0 trusts no X-Forwarded-For. */
  trustedProxies: number
}

export function authRoutes(api: Hono<AppEnv>, options: AuthRouteOptions): void {
  api.post('/register', async (c) => {
    const input = parseInput(RegisterInput, await readJson(c))
    const { auth, throttle } = c.get('services')
    const address = clientAddress(c, options.trustedProxies)
    throttle.registerAttempt(address)
    const session = await auth.register(input)
    // The address a person registered from is theirs, as one they signed in from.
    throttle.loginSucceeded(normaliseEmail(input.email), address)
    return json(session)
  })

  api.post('/login', async (c) => {
    const input = parseInput(LoginInput, await readJson(c))
    const { auth, throttle } = c.get('services')
    const account = normaliseEmail(input.email)
    const address = clientAddress(c, options.trustedProxies)
    // Limits first: a refused attempt costs no password hashing (docs/API.md, "Limits").
    throttle.checkLogin(account, address)
    let session
    try {
      session = await auth.login(input)
    } catch (error) {
      if (error instanceof AppError && error.status === 401) throttle.loginFailed(account, address)
      throw error
    }
    throttle.loginSucceeded(account, address)
    return json(session)
  })

  api.post('/forgot_password', async (c) => {
    const input = parseInput(ForgotPasswordInput, await readJson(c))
    const { auth, background, throttle } = c.get('services')
    throttle.forgotAttempt(normaliseEmail(input.email), clientAddress(c, options.trustedProxies))
    // The link is made after the answer: a known and an unknown address get the same answer in
    // the same time, so the call does not reveal which emails are registered (docs/API.md).
    background.run(
      async () => {
        const token = await auth.forgotPassword(input.email)
        if (!token) return
        const link = `/pages/reset-password?token=${encodeURIComponent(token)}`
        // No mail in the reference server: the link goes to the log (the token is single-use).
        options.log({ level: 'info', event: 'password_reset_link', link })
        options.onResetLink?.(link, normaliseEmail(input.email))
      },
      (error) =>
        options.log({
          level: 'error',
          event: 'password_reset_failed',
          message: error instanceof Error ? error.message : String(error),
        }),
    )
    return json({ ok: true })
  })

  api.post('/reset_password', async (c) => {
    const input = parseInput(ResetPasswordInput, await readJson(c))
    const { auth, throttle } = c.get('services')
    const address = clientAddress(c, options.trustedProxies)
    throttle.checkReset(address)
    try {
      await auth.resetPassword(input.token, input.password)
    } catch (error) {
      if (error instanceof AppError && error.status === 422) throttle.resetFailed(address)
      throw error
    }
    return json({ ok: true })
  })

  // Sign-out: the presented token stops working. Idempotent: without a token, or with one already
  // ended or unknown, it answers the same (docs/API.md).
  api.post('/logout', async (c) => {
    const match = /^Bearer\s+(\S+)$/i.exec(c.req.header('Authorization') ?? '')
    const token = match?.[1]
    if (token && token.length <= 200) await c.get('services').auth.logout(token)
    return json({ ok: true })
  })

  api.get('/check_auth', requireAuth, (c) => Promise.resolve(json({ user: c.get('user') })))

  productRoutes(api).mutation('/profile/update', async (c) => {
    const input = parseInput(UpdateProfileInput, await readJson(c))
    const user = await c.get('services').auth.updateProfile(c.get('user').id, input.name)
    return json({ user })
  })
}
