import type { Hono } from 'hono'
import { WorkspaceQuery } from '../../../src/domain/requests.ts'
import { hashToken } from '../../services/auth.ts'
import { parseInput } from '../../services/validate.ts'
import type { AppEnv } from '../env.ts'
import { productRoutes } from './define.ts'

/** GET /api/events?workspace_id=N: the workspace's changes as server-sent events (docs/API.md). */
export function eventRoutes(api: Hono<AppEnv>): void {
  productRoutes(api).query('/events', async (c) => {
    const { workspace_id } = parseInput(WorkspaceQuery, c.req.query())
    // requireAuth has checked it; the stream ends when this token's session does.
    const token = /^Bearer\s+(\S+)$/i.exec(c.req.header('Authorization') ?? '')![1]!
    const body = await c
      .get('services')
      .events.open(c.get('user').id, hashToken(token), workspace_id, c.req.header('Last-Event-ID'))
    return new Response(body, {
      headers: {
        'Content-Type': 'text/event-stream; charset=utf-8',
        // no-transform: never compressed (a compressor would hold the events back).
        'Cache-Control': 'no-cache, no-transform',
        'X-Accel-Buffering': 'no',
      },
    })
  })
}
