import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response'

const WebResponse = globalThis.Response

/**
 * A body kept in memory and sent again and again (a kept list, server/services/list-cache.ts):
 * its bytes and its gzip, each made on first need and kept with it.
 */
export interface KeptBody {
  readonly byteLength: number
  bytes(): Uint8Array<ArrayBuffer>
  gzip(): Promise<Uint8Array>
}

const isKept = (body: string | Uint8Array | KeptBody): body is KeptBody =>
  typeof body === 'object' && !(body instanceof Uint8Array)

/** What of Node's response (HTTP/1 or 2) an answer is written with. */
export interface Outgoing {
  writeHead(status: number, headers: Record<string, string | number>): unknown
  end(body: Uint8Array): unknown
}

/**
 * An API answer whose body is known in full: JSON text or bytes. A web `Response` puts its body
 * into a stream as it is made (for the 100 KB of a kept list, as much work as the rest of the
 * answer), and the Node adapter reads that stream back to write it; an `Answer` keeps the status,
 * the headers and the body as they are, and the server writes them to Node's response at once
 * (`sendAnswer`, server/start.ts). It is a `Response` to everything else: the middlewares read and
 * set its headers, and whatever asks for more (its body as a stream, `app.request` in tests) gets a
 * real `Response` made from it then, which it stands for from that moment (server/README.md,
 * "Throughput, and which engine").
 */
class Answer {
  readonly #status: number
  #body: string | Uint8Array | KeptBody
  /** Header names in lower case; replaced by `#headers` once anything asks for the Headers. */
  #fields: Record<string, string> | undefined
  #headers: Headers | undefined
  #real: Response | undefined

  constructor(
    body: string | Uint8Array | KeptBody,
    status: number,
    fields: Record<string, string>,
  ) {
    this.#body = body
    this.#status = status
    this.#fields = fields
  }

  /** The web Response it stands for, made on first need; its headers are the answer's from then. */
  #response(): Response {
    const body = this.#body
    this.#real ??= new WebResponse((isKept(body) ? body.bytes() : body) as BodyInit, {
      status: this.#status,
      headers: this.headers,
    })
    return this.#real
  }

  get status(): number {
    return this.#status
  }

  get ok(): boolean {
    return this.#status >= 200 && this.#status < 300
  }

  get statusText(): string {
    return this.#real?.statusText ?? ''
  }

  get headers(): Headers {
    if (this.#real) return this.#real.headers
    if (!this.#headers) {
      this.#headers = new Headers(this.#fields)
      this.#fields = undefined
    }
    return this.#headers
  }

  /** Sets a header without making a Headers object when none has been asked for. */
  setHeader(name: string, value: string): void {
    if (this.#fields) this.#fields[name.toLowerCase()] = value
    else this.headers.set(name, value)
  }

  getHeader(name: string): string | null {
    return this.#fields ? (this.#fields[name.toLowerCase()] ?? null) : this.headers.get(name)
  }

  get type(): ResponseType {
    return 'default'
  }

  get url(): string {
    return ''
  }

  get redirected(): boolean {
    return false
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.#response().body
  }

  get bodyUsed(): boolean {
    return this.#real?.bodyUsed ?? false
  }

  /** The body's bytes, as they will be sent. */
  bytes(): Promise<Uint8Array> {
    return this.#real
      ? this.#real.arrayBuffer().then((b) => new Uint8Array(b))
      : Promise.resolve(this.#bodyBytes())
  }

  #bodyBytes(): Uint8Array {
    const body = this.#body
    return typeof body === 'string' ? Buffer.from(body) : isKept(body) ? body.bytes() : body
  }

  text(): Promise<string> {
    if (this.#real) return this.#real.text()
    const body = this.#body
    return Promise.resolve(
      typeof body === 'string' ? body : Buffer.from(this.#bodyBytes()).toString('utf8'),
    )
  }

  json(): Promise<unknown> {
    return this.text().then((text) => JSON.parse(text) as unknown)
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    if (this.#real) return this.#real.arrayBuffer()
    const bytes = this.#bodyBytes()
    return Promise.resolve(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    )
  }

  blob(): Promise<Blob> {
    return this.#response().blob()
  }

  formData(): Promise<FormData> {
    return this.#response().formData()
  }

  clone(): Response {
    if (this.#real) return this.#real.clone()
    const fields: Record<string, string> = {}
    if (this.#fields) Object.assign(fields, this.#fields)
    else this.#headers?.forEach((value, name) => (fields[name] = value))
    return new Answer(this.#body, this.#status, fields) as unknown as Response
  }

  /** Its body, as bytes, unless a real Response was made of it. */
  get sentBytes(): Uint8Array | undefined {
    return this.#real ? undefined : this.#bodyBytes()
  }

  /** Its body when it is kept in memory (and not yet replaced by an encoding of it). */
  get keptBody(): KeptBody | undefined {
    return !this.#real && isKept(this.#body) ? this.#body : undefined
  }

  /** The body replaced by its encoding (server/http/compression.ts). */
  encoded(bytes: Uint8Array, encoding: string): void {
    this.#body = bytes
    this.setHeader('Content-Encoding', encoding)
  }

  /**
   * Writes the answer to Node's response: true, unless a real Response was made of it meanwhile
   * (then that one is sent the adapter's way).
   */
  writeTo(outgoing: Outgoing): boolean {
    if (this.#real) return false
    const body = this.#bodyBytes()
    const headers: Record<string, string | number> = {}
    if (this.#fields) Object.assign(headers, this.#fields)
    else this.#headers?.forEach((value, name) => (headers[name] = value))
    headers['content-length'] = body.byteLength
    outgoing.writeHead(this.#status, headers)
    outgoing.end(body)
    return true
  }

  get [Symbol.toStringTag](): string {
    return 'Response'
  }
}
// A Response to `instanceof` (Hono, tests); every member of Response.prototype is its own above.
Object.setPrototypeOf(Answer.prototype, WebResponse.prototype)

/**
 * A JSON answer (`Content-Type: application/json` unless `headers` give one, as a static `.json`
 * file's does) of its JSON text or bytes, with any further headers. Every JSON answer of the API
 * is one, so one compression policy applies to all of them (server/http/compression.ts) and an
 * Idempotency-Key's replay, made again from the stored status and text, goes out as the very bytes
 * of the first answer.
 */
export function jsonText(
  text: string | Uint8Array | KeptBody,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  const fields: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) fields[name.toLowerCase()] = value
  fields['content-type'] ??= 'application/json'
  return new Answer(text, status, fields) as unknown as Response
}

/** A JSON answer of a value. */
export function json(value: unknown, status = 200): Response {
  return jsonText(JSON.stringify(value), status)
}

export function asAnswer(res: Response): Answer | undefined {
  return (res as unknown) instanceof Answer ? (res as unknown as Answer) : undefined
}

export type { Answer }

/** Sets a header of a response, without making an answer's Headers object. */
export function setHeader(res: Response, name: string, value: string): void {
  const answer = asAnswer(res)
  if (answer) answer.setHeader(name, value)
  else res.headers.set(name, value)
}

export function getHeader(res: Response, name: string): string | null {
  const answer = asAnswer(res)
  return answer ? answer.getHeader(name) : res.headers.get(name)
}

/**
 * What the server's fetch callback hands the Node adapter: an answer written to `outgoing` here
 * (then the adapter's marker that it was sent), anything else as it is.
 */
export function sendAnswer(res: Response, outgoing: Outgoing | undefined): Response {
  return outgoing && asAnswer(res)?.writeTo(outgoing) ? RESPONSE_ALREADY_SENT : res
}
