import * as v from 'valibot'
import { request } from './client.ts'

/**
 * POST /api/logout: the server forgets `token`, sent as the bearer whatever the session holds. A
 * module of its own: only the revocation after a sign-out loads it, never the first load.
 */
export async function logout(token: string): Promise<void> {
  await request('/api/logout', {
    method: 'POST',
    schema: v.looseObject({}),
    token,
    timeoutMs: 10_000,
  })
}
