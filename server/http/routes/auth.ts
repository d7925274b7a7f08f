import type { Hono } from 'hono'
import { ERROR_CODES } from '../../../src/domain/api-error.ts'
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
import { errorResponse, readJson } from '../errors.ts'
import type { Logger } from '../log.ts'
import { requireAuth } from '../middleware.ts'
import { productRoutes } from './define.ts'

export interface AuthRouteOptions {
  log: Logger
  /** Called with each password reset link (the server has no mail; the link is logged). */
  onResetLink?: (link: string, email: string) => void
  trustProxy: boolean
}

export function authRoutes(api: Hono<AppEnv>, options: AuthRouteOptions): void {
  api.post('/register', async (c) => {
    const input = parseInput(RegisterInput, await readJson(c))
    return c.json(await c.get('services').auth.register(input))
  })

  api.post('/login', async (c) => {
    const input = parseInput(LoginInput, await readJson(c))
    const { auth, loginLimiter } = c.get('services')
    const forwarded = options.trustProxy
      ? c.req.header('X-Forwarded-For')?.split(',')[0]?.trim()
      : undefined
    const ip = forwarded || c.env?.incoming?.socket?.remoteAddress || 'local'
    const limitKey = `${normaliseEmail(input.email)}|${ip}`
    const wait = loginLimiter.hit(limitKey)
    if (wait > 0) {
      return errorResponse(new AppError(429, ERROR_CODES.rateLimited, 'rate_limited'), {
        'Retry-After': String(wait),
      })
    }
    const session = await auth.login(input)
    loginLimiter.reset(limitKey)
    return c.json(session)
  })

  api.post('/forgot_password', async (c) => {
    const input = parseInput(ForgotPasswordInput, await readJson(c))
    const { auth, background } = c.get('services')
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
    return c.json({ ok: true })
  })

  api.post('/reset_password', async (c) => {
    const input = parseInput(ResetPasswordInput, await readJson(c))
    await c.get('services').auth.resetPassword(input.token, input.password)
    return c.json({ ok: true })
  })

  // Sign-out: the presented token stops working. Idempotent: without a token, or with one already
  // ended or unknown, it answers the same (docs/API.md).
  api.post('/logout', async (c) => {
    const match = /^Bearer\s+(\S+)$/i.exec(c.req.header('Authorization') ?? '')
    const token = match?.[1]
    if (token && token.length <= 200) await c.get('services').auth.logout(token)
    return c.json({ ok: true })
  })

  api.get('/check_auth', requireAuth, (c) => Promise.resolve(c.json({ user: c.get('user') })))

  productRoutes(api).mutation('/profile/update', async (c) => {
    const input = parseInput(UpdateProfileInput, await readJson(c))
    const user = await c.get('services').auth.updateProfile(c.get('user').id, input.name)
    return c.json({ user })
  })
}
