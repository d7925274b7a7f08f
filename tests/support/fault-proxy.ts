import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http'
import { randomUUID } from 'node:crypto'
import type { AddressInfo, Socket } from 'node:net'
import { gunzipSync } from 'node:zlib'
import { seededRandom } from './random.ts'

export { seededRandom }

/**
 * A fault-injecting HTTP proxy in front of the reference server, for convergence tests and browser
 * journeys on a "flaky network". Every request gets one fault from the policy:
 *
 * - `pass`: forwarded untouched;
 * - `drop-request`: the connection is cut before the server sees the request;
 * - `drop-response`: the server applies the request, then the connection is cut before the answer;
 * - `delay`: forwarded after a pause;
 * - `status-500`, `status-502`, `status-429`: answered by the proxy with that status, not forwarded;
 * - `duplicate`: delivered to the server twice (same headers), the second answer is returned.
 * - `hang`: the server applies the request, the answer is held past the client's timeout, then the
 *   connection is cut (a slow link: the client gives up while the server has done the work). With
 *   `onHang`, the proxy does not wait for the client's clock: it tells the caller which request
 *   hangs (its `x-fault-call` header) so that the caller's timeout fires now, and cuts the
 *   connection as soon as the client has given up;
 * - `html-200`: a captive portal answers 200 with its own page; the server never sees the request;
 * - `truncated`: the server applies the request, its answer is cut off halfway;
 * - `wrong-type`: the server's answer arrives as text/plain.
 * - `stale-duplicate`: forwarded and answered as usual, and the same request (same headers, same
 *   Idempotency-Key) is delivered once more LATE: right after a newer write of the same record
 *   (same path, same `id` in the body) went through, or at `redeliverHeld()`. The server must
 *   answer it from its stored response and leave the newer value alone; an answer that differs
 *   from the first one is written to `anomalies`;
 * - `reject-404`, `reject-409`, `reject-422`: answered by the proxy with that refusal (a JSON error
 *   body as the server writes them), not forwarded: the client must park exactly that entry.
 *
 * `setObserver` is told of every request the server answered, before the answer goes back: a test
 * restarts the server or lets the session expire there, in the middle of a chain of requests. An
 * observer that returns 'cut' takes the answer down with it (the server went away while answering).
 *
 * `setOffline(true)` cuts every connection until it is switched back, like a dead mobile network.
 */
export const FAULTS = [
  'pass',
  'drop-request',
  'drop-response',
  'delay',
  'status-500',
  'status-502',
  'status-429',
  'duplicate',
  'hang',
  'html-200',
  'truncated',
  'wrong-type',
  'stale-duplicate',
  'reject-404',
  'reject-409',
  'reject-422',
] as const
export type Fault = (typeof FAULTS)[number]

export interface ProxiedRequest {
  method: string
  path: string
  /** The Idempotency-Key header, when the request has one. */
  key: string | null
  /** No earlier request through this proxy carried the same Idempotency-Key. */
  firstTry: boolean
}

/** A request the server answered (what `setObserver`'s callback is told). */
export interface AnsweredRequest extends ProxiedRequest {
  status: number
}

export type FaultPolicy = (request: ProxiedRequest) => Fault

export type Observer = (request: AnsweredRequest) => Promise<void | 'cut'> | void | 'cut'

export interface FaultProxy {
  url: string
  setOffline(offline: boolean): void
  setPolicy(policy: FaultPolicy): void
  /**
   * Called after the server answered a request and before the answer goes back (null: none); when
   * it returns 'cut', the connection is cut instead of answering.
   */
  setObserver(observer: Observer | null): void
  /** Delivers every request still held by `stale-duplicate` once more, now. */
  redeliverHeld(): Promise<void>
  /** The requests the proxy refused itself with a `reject-*` fault, in order. */
  readonly rejected: { key: string | null; path: string; status: number }[]
  /** How many requests got each fault, how many reached the server, how many stale ones came back. */
  readonly stats: Record<Fault | 'offline' | 'forwarded' | 'stale-redelivered', number>
  /** What went wrong that the proxy could see: a late duplicate answered unlike the first time. */
  readonly anomalies: string[]
  /**
   * 'new key' delivers late duplicates under a fresh Idempotency-Key: a server that no longer
   * recognises them (tests/integration/soak-mutants.test.ts plants it). Default 'same key'.
   */
  lateDuplicates: 'same key' | 'new key'
  close(): Promise<void>
}

const AUTH_PATH = /^\/api\/(login|register|check_auth)/

/**
 * Picks a fault per request with the given rates (the rest pass). Only `/api/` calls are hit, and
 * sign-in stays reliable unless `includeAuth` is set, so a scenario tests replay, not login.
 * `mutationsOnly` spares every GET (a browser journey faults the writes, not the page's reads).
 */
export function randomPolicy(
  random: () => number,
  rates: Partial<Record<Exclude<Fault, 'pass'>, number>>,
  options: { includeAuth?: boolean; mutationsOnly?: boolean } = {},
): FaultPolicy {
  const entries = Object.entries(rates) as [Fault, number][]
  return ({ path, method }) => {
    if (!path.startsWith('/api/')) return 'pass'
    if (!options.includeAuth && AUTH_PATH.test(path)) return 'pass'
    if (options.mutationsOnly && (method === 'GET' || method === 'HEAD')) return 'pass'
    let roll = random()
    for (const [fault, rate] of entries) {
      if (roll < rate) return fault
      roll -= rate
    }
    return 'pass'
  }
}

/**
 * The first try of the next request `matches` accepts gets `fault`; the rest go to `fallback`.
 * (A retry carries the key of a try the server may have applied, so only a first try is chosen.)
 */
export function faultOnce(
  fault: Fault,
  matches: (request: ProxiedRequest) => boolean,
  fallback: FaultPolicy,
): FaultPolicy & { fired: () => boolean } {
  let fired = false
  const policy = (request: ProxiedRequest): Fault => {
    if (!fired && request.firstTry && matches(request)) {
      fired = true
      return fault
    }
    return fallback(request)
  }
  return Object.assign(policy, { fired: () => fired })
}

const STATUS: Partial<Record<Fault, number>> = {
  'status-500': 500,
  'status-502': 502,
  'status-429': 429,
}

/** The proxy's own refusals, written as the server writes its errors (docs/API.md). */
const REFUSAL: Partial<Record<Fault, { status: number; code: string; message: string }>> = {
  'reject-404': { status: 404, code: 'not_found', message: 'Запись не найдена' },
  'reject-409': { status: 409, code: 'conflict', message: 'Запись изменена в другом месте' },
  'reject-422': { status: 422, code: 'validation_failed', message: 'Проверьте данные' },
}

/** The record a write is about: its path and the `id` in its JSON body (null when it has none). */
function recordOf(path: string, body: Buffer): string | null {
  try {
    const id = (JSON.parse(body.toString('utf8')) as { id?: unknown }).id
    return typeof id === 'number' ? `${path.split('?')[0]}#${id}` : null
  } catch {
    return null
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

/** An answer's body as text (for messages), unzipped when the server compressed it. */
function text(answer: Upstream): string {
  const zipped = answer.headers['content-encoding'] === 'gzip'
  try {
    return (zipped ? gunzipSync(answer.body) : answer.body).toString('utf8').slice(0, 160)
  } catch {
    return '(unreadable)'
  }
}

interface Upstream {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

function forward(
  target: URL,
  req: IncomingMessage,
  body: Buffer,
  override?: Record<string, string>,
): Promise<Upstream> {
  return new Promise((resolve, reject) => {
    const headers = { ...req.headers, ...override, host: target.host }
    const upstream = httpRequest(
      {
        hostname: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers,
      },
      (res) => {
        readBody(res).then(
          (data) => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: data }),
          reject,
        )
      },
    )
    upstream.on('error', reject)
    upstream.end(body)
  })
}

export async function startFaultProxy(
  targetUrl: string,
  initialPolicy: FaultPolicy = () => 'pass',
  options: {
    delayMs?: number
    /** How long `hang` holds an answer (default 400 ms, past the client's timeout). */
    hangMs?: number
    /**
     * Told the `x-fault-call` header of a request that `hang` holds: the caller makes the client's
     * timeout fire at once (tests/support/sync-world.ts). The hold then ends when the client
     * closes the connection, or after `hangMs` at the latest.
     */
    onHang?: (call: string) => void
  } = {},
): Promise<FaultProxy> {
  const target = new URL(targetUrl)
  let policy = initialPolicy
  let observer: Observer | null = null
  let offline = false
  const sockets = new Set<Socket>()
  const stats = Object.fromEntries(
    [...FAULTS, 'offline', 'forwarded', 'stale-redelivered'].map((k) => [k, 0]),
  ) as FaultProxy['stats']
  const seenKeys = new Set<string>()
  const rejected: FaultProxy['rejected'] = []
  const anomalies: string[] = []
  /** Requests of `stale-duplicate` waiting for their late second delivery, with their answer. */
  const held: { req: IncomingMessage; body: Buffer; record: string | null; first: Upstream }[] = []

  async function redeliver(item: (typeof held)[number]) {
    held.splice(held.indexOf(item), 1)
    let again: Upstream
    try {
      const headers =
        proxy.lateDuplicates === 'new key' ? { 'idempotency-key': randomUUID() } : undefined
      again = await forward(target, item.req, item.body, headers)
    } catch {
      return
    }
    stats['stale-redelivered'] += 1
    stats.forwarded += 1
    // A session that ended meanwhile is refused before anything is looked up: nothing was applied.
    if (again.status === 401) return
    if (again.status !== item.first.status || !again.body.equals(item.first.body))
      anomalies.push(
        `late duplicate of ${item.req.method} ${item.req.url} answered ${again.status} ` +
          `${text(again)}, the first time ${item.first.status} ${text(item.first)}`,
      )
  }

  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req)
      if (offline) {
        stats.offline += 1
        req.socket.destroy()
        return
      }
      // The caller's own label of the request (for `onHang`), never sent on to the server.
      const call = req.headers['x-fault-call']
      delete req.headers['x-fault-call']
      const header = req.headers['idempotency-key']
      const key = typeof header === 'string' ? header : null
      const firstTry = key !== null && !seenKeys.has(key)
      if (key) seenKeys.add(key)
      const asked = { method: req.method ?? 'GET', path: req.url ?? '/', key, firstTry }
      const fault = policy(asked)
      stats[fault] += 1
      if (fault === 'drop-request') {
        req.socket.destroy()
        return
      }
      if (fault === 'html-200') {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
        res.end('<!doctype html><title>Wi-Fi</title><p>Войдите в сеть, чтобы продолжить</p>')
        return
      }
      const refusal = REFUSAL[fault]
      if (refusal) {
        rejected.push({ key, path: asked.path, status: refusal.status })
        res.writeHead(refusal.status, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify({ error: { code: refusal.code, message: refusal.message } }))
        return
      }
      const status = STATUS[fault]
      if (status) {
        res.writeHead(status, { 'Content-Type': 'application/json' })
        res.end(
          JSON.stringify({
            error: { code: `proxy_${status}`, message: 'Сервер временно недоступен' },
          }),
        )
        return
      }
      if (fault === 'delay') await new Promise((r) => setTimeout(r, options.delayMs ?? 200))
      let answer = await forward(target, req, body)
      stats.forwarded += 1
      if (fault === 'duplicate') {
        answer = await forward(target, req, body)
        stats.forwarded += 1
      }
      const record = req.method === 'POST' ? recordOf(asked.path, body) : null
      // Only a write has a key the server answers again from (a read's answer may change).
      if (fault === 'stale-duplicate' && key) held.push({ req, body, record, first: answer })
      else if (record && answer.status < 300) {
        // A newer write of a record went through: its older requests held back come now.
        for (const item of held.filter((h) => h.record === record)) await redeliver(item)
      }
      const seen = observer ? await observer({ ...asked, status: answer.status }) : undefined
      if (fault === 'hang') {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, options.hangMs ?? 400)
          if (!options.onHang || typeof call !== 'string') return
          req.socket.once('close', () => {
            clearTimeout(timer)
            resolve()
          })
          options.onHang(call)
        })
      }
      if (fault === 'drop-response' || fault === 'hang' || offline || seen === 'cut') {
        req.socket.destroy()
        return
      }
      const headers = { ...answer.headers }
      delete headers['transfer-encoding']
      delete headers.connection
      headers['content-length'] = String(answer.body.length)
      if (fault === 'wrong-type') headers['content-type'] = 'text/plain; charset=utf-8'
      // The connection of a cut body must not carry the next request (it is destroyed shortly).
      if (fault === 'truncated') headers.connection = 'close'
      res.writeHead(answer.status, headers)
      if (fault === 'truncated') {
        res.write(answer.body.subarray(0, Math.floor(answer.body.length / 2)))
        setTimeout(() => req.socket.destroy(), 5)
        return
      }
      res.end(answer.body)
    })().catch(() => req.socket.destroy())
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  const proxy: FaultProxy = {
    url: `http://127.0.0.1:${port}`,
    lateDuplicates: 'same key',
    stats,
    setOffline(next) {
      offline = next
      if (next) for (const socket of sockets) socket.destroy()
    },
    setPolicy(next) {
      policy = next
    },
    setObserver(next) {
      observer = next
    },
    async redeliverHeld() {
      for (const item of [...held]) await redeliver(item)
    },
    rejected,
    anomalies,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
  return proxy
}
