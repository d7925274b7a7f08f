import { promisify } from 'node:util'
import { deflate, gzip } from 'node:zlib'
import type { MiddlewareHandler } from 'hono'
import { compress } from 'hono/compress'
import { parseAccept } from 'hono/utils/accept'
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/utils/compress'
import type { Context } from 'hono'
import { asAnswer, jsonText, type Answer } from './answer.ts'
import type { AppEnv } from './env.ts'

const THRESHOLD = 1024
const ENCODERS = { gzip: promisify(gzip), deflate: promisify(deflate) }
type Encoding = keyof typeof ENCODERS

/**
 * Each body's encodings, by the body's identity: a body sent again as the very same bytes (a kept
 * list's, to a client that takes deflate) is encoded once, not once per request. Bodies are never
 * changed once answered; one that is not sent again is collected with its entry.
 */
const encodings = new WeakMap<Uint8Array, Partial<Record<Encoding, Promise<Buffer>>>>()

function encode(bytes: Uint8Array, encoding: Encoding): Promise<Buffer> {
  let known = encodings.get(bytes)
  if (!known) encodings.set(bytes, (known = {}))
  const kept = known[encoding]
  if (kept) return kept
  const pending = ENCODERS[encoding](bytes)
  known[encoding] = pending
  // A failed encoding is not kept: the next answer tries again.
  pending.catch(() => {
    if (known[encoding] === pending) delete known[encoding]
  })
  return pending
}

/** The encoding the client prefers of gzip and deflate (q-values), if it takes either. */
function selectEncoding(header: string | undefined): Encoding | undefined {
  if (header === undefined) return undefined
  const accepts = parseAccept(header)
  const wildcard = accepts.find((a) => a.type === '*')?.q
  let best: { encoding: Encoding; q: number } | undefined
  for (const encoding of ['gzip', 'deflate'] as const) {
    const q = accepts.find((a) => a.type.toLowerCase() === encoding)?.q ?? wildcard ?? 0
    if (q === 1) return encoding
    if (q > 0 && (!best || q > best.q)) best = { encoding, q }
  }
  return best?.encoding
}

/**
 * A JSON response that is not an `Answer` (made by a library, or by new code that used `c.json`)
 * read whole and made one, so every JSON answer meets the same policy below: were it left to the
 * streamed path, it would be encoded whatever its size, and the same answer sent again (an
 * Idempotency-Key's replay) would go out as other bytes.
 */
async function wholeJson(c: Context<AppEnv>): Promise<Answer | undefined> {
  const res = c.res
  const type = res.headers.get('Content-Type')
  if (!res.body || !type || !/^application\/json\b/i.test(type)) return undefined
  if (res.headers.has('Content-Encoding')) return undefined
  const headers: Record<string, string> = {}
  res.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'set-cookie') headers[name] = value
  })
  const answer = jsonText(new Uint8Array(await res.arrayBuffer()), res.status, headers)
  for (const cookie of res.headers.getSetCookie()) answer.headers.append('Set-Cookie', cookie)
  // Hono's setter builds the new response again over the old one's headers unless it is cleared.
  c.res = undefined
  c.res = answer
  return asAnswer(answer)
}

/**
 * Bodies go compressed (gzip or deflate) to a client that accepts it, with
 * `Vary: Accept-Encoding`. Streamed responses (files, event streams) the way Hono's `compress`
 * does; an API answer known in full (server/http/answer.ts) only from 1 KiB, the size below which
 * compressing does not pay: a kept list's gzip made of its pieces' deflates, which its later
 * versions share (server/common/list-gzip.ts), any other answer whole, on libuv's threads.
 */
export function compression(): MiddlewareHandler<AppEnv> {
  const streamed = compress({ threshold: THRESHOLD })
  return async (c, next) => {
    await next()
    const answer = asAnswer(c.res) ?? (await wholeJson(c))
    const kept = answer?.keptBody
    const bytes = kept ? undefined : answer?.sentBytes
    // Hono's middleware works on the response already made: its `next` has nothing left to run.
    if (!answer || (!kept && !bytes)) return streamed(c, () => Promise.resolve())
    const size = kept?.byteLength ?? bytes!.byteLength
    if (c.req.method === 'HEAD' || size < THRESHOLD || !compressible(answer)) return
    const vary = answer.getHeader('Vary')
    if (vary !== '*' && !(vary && /(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary))) {
      answer.setHeader('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding')
    }
    const encoding = selectEncoding(c.req.header('Accept-Encoding'))
    if (!encoding) return
    const encoded =
      kept && encoding === 'gzip'
        ? await kept.gzip()
        : await encode(kept ? kept.bytes() : bytes!, encoding)
    answer.encoded(encoded, encoding)
  }
}

function compressible(answer: Answer): boolean {
  const type = answer.getHeader('Content-Type')
  const cacheControl = answer.getHeader('Cache-Control')
  return (
    answer.status !== 206 &&
    answer.getHeader('Content-Encoding') === null &&
    type !== null &&
    COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type) &&
    !(cacheControl && /(?:^|,)\s*?no-transform\s*?(?:,|$)/i.test(cacheControl))
  )
}
