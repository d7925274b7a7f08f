import type { Context, MiddlewareHandler } from 'hono'

/**
 * How much of a refused body the server still reads (and throws away) so the connection stays
 * usable for the client's next request. Beyond that the 413 says `Connection: close` and the client
 * opens a new socket (docs/API.md, "Errors").
 */
export const DRAIN_MAX_BYTES = 8 * 1024 * 1024

/** Reads and discards the rest of a stream, at most `budget` bytes; true when it ended. */
export async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, budget: number) {
  let left = budget
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return true
    left -= value.byteLength
    if (left < 0) {
      await reader.cancel().catch(() => undefined)
      return false
    }
  }
}

/**
 * GET and HEAD carry no body on this server (the Node adapter never gives them one, and `fetch`
 * refuses to build one with a body). Asking such a request for its `body` still makes the adapter
 * build a whole web `Request` and stream, the largest cost of a cached list answer, so the body
 * middlewares below leave them alone without asking (server/README.md,
 * "Throughput, and which engine").
 */
export function bodiless(raw: Request): boolean {
  return raw.method === 'GET' || raw.method === 'HEAD'
}

/**
 * Reads what is left of a request's body once it has been answered without reading it (a 401 before
 * an upload, a 404, a call that takes no body), so the kept-alive connection is clean for the next
 * request; more than DRAIN_MAX_BYTES is not read, and that answer says `Connection: close` instead.
 * Without it the socket died under the client's next request (docs/API.md, "Errors").
 */
export function drainUnreadBody(): MiddlewareHandler {
  return async (c, next) => {
    const raw = c.req.raw
    await next()
    // Read (the adapter's own reading counts) or absent; `bodyUsed` first: asking a request read
    // without a stream for its `body` makes one.
    if (bodiless(raw) || raw.bodyUsed || !raw.body) return
    const length = raw.headers.get('content-length')
    const declared = length === null ? Number.POSITIVE_INFINITY : Number.parseInt(length, 10)
    const drained =
      declared <= DRAIN_MAX_BYTES &&
      (await drain(raw.body.getReader(), DRAIN_MAX_BYTES).catch(() => false))
    if (!drained) {
      const headers = new Headers(c.res.headers)
      headers.set('Connection', 'close')
      c.res = new Response(c.res.body, { status: c.res.status, headers })
    }
  }
}

/**
 * A body size limit that also works for bodies without a Content-Length (chunked, streamed by a
 * proxy or a client). Hono's own `bodyLimit` rebuilds such a request with the global `Request`
 * from the adapter's request object, which fails when the server keeps Node's globals
 * (`overrideGlobalObjects: false`, server/start.ts): every chunked POST answered 500. This reads the
 * stream up to the limit and hands the handlers a plain request with the bytes read.
 *
 * A body over the limit is read to its end (up to DRAIN_MAX_BYTES more) before the 413 goes out,
 * so a kept-alive connection serves the next request; a larger one is answered with
 * `Connection: close`.
 */
export function bodyLimit(options: {
  maxSize: number
  onError: (c: Context) => Response | Promise<Response>
  /**
   * The route reads the body itself as it streams, holding it to its limits (an upload,
   * server/http/upload-body.ts): only a declared length over `maxSize` is refused here.
   */
  streamed?: boolean
}): MiddlewareHandler {
  const refuse = async (c: Context, drained: boolean) => {
    const response = await options.onError(c)
    if (!drained) response.headers.set('Connection', 'close')
    return response
  }
  const join = (chunks: Uint8Array[], size: number) => {
    const body = new Uint8Array(size)
    let offset = 0
    for (const chunk of chunks) {
      body.set(chunk, offset)
      offset += chunk.byteLength
    }
    return body
  }
  return async (c, next) => {
    const raw = c.req.raw
    if (bodiless(raw)) return next()
    const length = raw.headers.get('content-length')
    const declared =
      length !== null && !raw.headers.has('transfer-encoding') ? Number.parseInt(length, 10) : null
    // A plain body of a known, allowed length goes to the handler as it is, before anything asks
    // for it as a stream: the adapter then reads it from the socket straight into one buffer.
    if (declared !== null ? !(declared > options.maxSize) : options.streamed) return next()
    if (!raw.body) return next()
    if (declared !== null) {
      const drained =
        declared <= options.maxSize + DRAIN_MAX_BYTES &&
        (await drain(raw.body.getReader(), declared).catch(() => false))
      return refuse(c, drained)
    }
    const chunks: Uint8Array[] = []
    let size = 0
    const reader = raw.body.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (value) {
        size += value.byteLength
        chunks.push(value)
      }
      if (size > options.maxSize) {
        return refuse(c, await drain(reader, DRAIN_MAX_BYTES).catch(() => false))
      }
      if (done) break
    }
    const body = join(chunks, size)
    const headers = new Headers()
    raw.headers.forEach((value, name) => {
      if (name !== 'transfer-encoding') headers.set(name, value)
    })
    headers.set('content-length', String(size))
    c.req.raw = new Request(c.req.url, { method: raw.method, headers, body })
    return next()
  }
}
