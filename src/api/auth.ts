import * as v from 'valibot'
import { AuthResponse, CheckAuthResponse, type User } from '../domain/user.ts'
import { request } from './client.ts'

/**
 * Auth endpoints (docs/API.md "Auth"). Inputs are validated by the callers with the domain
 * schemas.
 */

export function login(input: { email: string; password: string }, signal?: AbortSignal) {
  return request('/api/login', { method: 'POST', body: input, schema: AuthResponse, signal })
}

export function register(input: { name: string; email: string; password: string }) {
  return request('/api/register', {
    method: 'POST',
    body: input,
    schema: AuthResponse,
    idempotencyKey: crypto.randomUUID(),
  })
}

export async function checkAuth(signal?: AbortSignal): Promise<User> {
  const { user } = await request('/api/check_auth', {
    schema: CheckAuthResponse,
    signal,
    timeoutMs: 10_000,
  })
  return user
}

// The answers of these two carry nothing the client needs; any JSON object is accepted.
const Acknowledged = v.looseObject({})

export function forgotPassword(input: { email: string }) {
  return request('/api/forgot_password', { method: 'POST', body: input, schema: Acknowledged })
}

export function resetPassword(input: { token: string; password: string }) {
  return request('/api/reset_password', {
    method: 'POST',
    body: input,
    schema: Acknowledged,
    idempotencyKey: crypto.randomUUID(),
  })
}

export async function updateProfile(input: { name: string }): Promise<User> {
  const { user } = await request('/api/profile/update', {
    method: 'POST',
    body: input,
    schema: CheckAuthResponse,
    idempotencyKey: crypto.randomUUID(),
  })
  return user
}
