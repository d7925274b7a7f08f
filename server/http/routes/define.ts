import type { Context, Hono } from 'hono'
import type { AppEnv } from '../env.ts'
import { idempotency, requireAuth } from '../middleware.ts'

type Handler = (c: Context<AppEnv>) => Promise<Response>

/** Registers product routes: signed in, and mutations honour Idempotency-Key. */
export function productRoutes(api: Hono<AppEnv>) {
  return {
    query(path: string, handler: Handler) {
      api.get(path, requireAuth, handler)
    },
    mutation(path: string, handler: Handler, method: 'GET' | 'POST' = 'POST') {
      if (method === 'GET') api.get(path, requireAuth, idempotency, handler)
      else api.post(path, requireAuth, idempotency, handler)
    },
  }
}
