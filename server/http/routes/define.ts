import type { Context, Hono } from 'hono'
import type { AppEnv } from '../env.ts'
import { idempotency, requireAuth } from '../middleware.ts'
import { uploadBody } from '../upload-body.ts'
import { readKey } from '../../storage/idempotency.ts'

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
    /**
     * A multipart upload: received as it streams, after sign-in and before Idempotency-Key, which
     * compares the fingerprint hashed on the way (server/http/upload-body.ts). `video`: the call
     * takes videos as well as images.
     */
    upload(path: string, video: boolean, handler: Handler) {
      const received = uploadBody(async (c) => {
        const key = c.req.header('Idempotency-Key')
        const services = c.get('services')
        const userId = c.get('user').id
        const repeat = key ? (await readKey(services.db, userId, key)) !== null : false
        return services.uploads.rulesFor(userId, { video, repeat })
      })
      api.post(path, requireAuth, received, idempotency, handler)
    },
  }
}
