import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { bodyLimit, drainUnreadBody } from '../../server/http/body-limit.ts'

/**
 * An app with both body middlewares that counts how often the request is asked for its body:
 * asking is what makes the Node adapter build a whole web Request (server/http/body-limit.ts).
 */
function countingApp() {
  const asked = { body: 0 }
  const app = new Hono()
  app.use('*', async (c, next) => {
    const real = c.req.raw
    c.req.raw = new Proxy(real, {
      get(target, name) {
        if (name === 'body') asked.body++
        const value: unknown = Reflect.get(target, name, target)
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value
      },
    })
    await next()
  })
  app.use('*', drainUnreadBody())
  app.use('*', bodyLimit({ maxSize: 100, onError: (c) => c.json({ error: 'too_large' }, 413) }))
  app.get('/read', (c) => c.json({ ok: true }))
  app.on('HEAD', '/read', (c) => c.body(null, 200))
  app.post('/read', async (c) => c.json(await c.req.json()))
  return { app, asked }
}

describe('body middlewares on requests without a body', () => {
  it('a GET and a HEAD are answered without asking for a body', async () => {
    const { app, asked } = countingApp()
    expect((await app.request('/read')).status).toBe(200)
    expect((await app.request('/read', { method: 'HEAD' })).status).toBe(200)
    expect(asked.body).toBe(0)
  })

  it('a POST body is still held to the limit and read by the handler', async () => {
    const { app, asked } = countingApp()
    const ok = await app.request('/read', { method: 'POST', body: '{"a":1}' })
    expect(await ok.json()).toEqual({ a: 1 })
    const big = await app.request('/read', { method: 'POST', body: 'x'.repeat(500) })
    expect(big.status).toBe(413)
    expect(asked.body).toBeGreaterThan(0)
  })
})
