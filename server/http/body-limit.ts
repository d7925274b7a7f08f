import type { Context, MiddlewareHandler } from 'hono'

/**
 * A body size limit that also works for bodies without a Content-Length (chunked, streamed by a
 * proxy or a client). Hono's own `bodyLimit` rebuilds such a request with the global `Request`
 * from the adapter's request object, which fails when the server keeps Node's globals
 * (`overrideGlobalObjects: false`, server/start.ts): every chunked POST answered 500. This reads the
 * stream up to the limit and hands the handlers a plain request with the bytes read.
 */
export function bodyLimit(options: {
  maxSize: number
  onError: (c: Context) => Response | Promise<Response>
}): MiddlewareHandler {
  return async (c, next) => {
    const raw = c.req.raw
    if (!raw.body) return next()
    const length = raw.headers.get('content-length')
    if (length !== null && !raw.headers.has('transfer-encoding')) {
      return Number.parseInt(length, 10) > options.maxSize ? options.onError(c) : next()
    }
    const chunks: Uint8Array[] = []
    let size = 0
    const reader = raw.body.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > options.maxSize) {
        await reader.cancel().catch(() => undefined)
        return options.onError(c)
      }
      chunks.push(value)
    }
    const body = new Uint8Array(size)
    let offset = 0
    for (const chunk of chunks) {
      body.set(chunk, offset)
      offset += chunk.byteLength
    }
    const headers = new Headers()
    raw.headers.forEach((value, name) => {
      if (name !== 'transfer-encoding') headers.set(name, value)
    })
    headers.set('content-length', String(size))
    c.req.raw = new Request(c.req.url, { method: raw.method, headers, body })
    return next()
  }
}
