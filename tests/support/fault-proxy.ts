import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

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
 *   connection is cut (a slow link: the client gives up while the server has done the work);
 * - `html-200`: a captive portal answers 200 with its own page; the server never sees the request;
 * - `truncated`: the server applies the request, its answer is cut off halfway;
 * - `wrong-type`: the server's answer arrives as text/plain.
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
] as const
export type Fault = (typeof FAULTS)[number]

export interface ProxiedRequest {
  method: string
  path: string
}

export type FaultPolicy = (request: ProxiedRequest) => Fault

export interface FaultProxy {
  url: string
  setOffline(offline: boolean): void
  setPolicy(policy: FaultPolicy): void
  /** How many requests got each fault, and how many reached the server. */
  readonly stats: Record<Fault | 'offline' | 'forwarded', number>
  close(): Promise<void>
}

/** A small seeded generator (mulberry32), so a failing scenario replays from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * Picks a fault per request with the given rates (the rest pass). Only `/api/` calls are hit, and
 * sign-in stays reliable unless `includeAuth` is set, so a scenario tests replay, not login.
 */
export function randomPolicy(
  random: () => number,
  rates: Partial<Record<Exclude<Fault, 'pass'>, number>>,
  options: { includeAuth?: boolean } = {},
): FaultPolicy {
  const entries = Object.entries(rates) as [Fault, number][]
  return ({ path }) => {
    if (!path.startsWith('/api/')) return 'pass'
    if (!options.includeAuth && /^\/api\/(login|register|check_auth)/.test(path)) return 'pass'
    let roll = random()
    for (const [fault, rate] of entries) {
      if (roll < rate) return fault
      roll -= rate
    }
    return 'pass'
  }
}

const STATUS: Partial<Record<Fault, number>> = {
  'status-500': 500,
  'status-502': 502,
  'status-429': 429,
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

interface Upstream {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

function forward(target: URL, req: IncomingMessage, body: Buffer): Promise<Upstream> {
  return new Promise((resolve, reject) => {
    const headers = { ...req.headers, host: target.host }
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
  options: { delayMs?: number; hangMs?: number } = {},
): Promise<FaultProxy> {
  const target = new URL(targetUrl)
  let policy = initialPolicy
  let offline = false
  const sockets = new Set<Socket>()
  const stats = Object.fromEntries(
    [...FAULTS, 'offline', 'forwarded'].map((k) => [k, 0]),
  ) as FaultProxy['stats']

  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req)
      if (offline) {
        stats.offline += 1
        req.socket.destroy()
        return
      }
      const fault = policy({ method: req.method ?? 'GET', path: req.url ?? '/' })
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
      if (fault === 'hang') await new Promise((r) => setTimeout(r, options.hangMs ?? 400))
      if (fault === 'drop-response' || fault === 'hang' || offline) {
        req.socket.destroy()
        return
      }
      const headers = { ...answer.headers }
      delete headers['transfer-encoding']
      delete headers.connection
      headers['content-length'] = String(answer.body.length)
      if (fault === 'wrong-type') headers['content-type'] = 'text/plain; charset=utf-8'
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

  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    setOffline(next) {
      offline = next
      if (next) for (const socket of sockets) socket.destroy()
    },
    setPolicy(next) {
      policy = next
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
