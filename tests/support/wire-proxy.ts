import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/**
 * A throttling, counting HTTP proxy in front of the reference server: the browser opens the proxy's
 * origin, so the page, its dedicated workers and the service worker all fetch through it
 * (docs/performance.md). Per request it adds `latencyMs` before the request is forwarded (the
 * round trip of a mobile link), and every response body shares one link of `bitsPerSecond`: the
 * chunks of all responses queue on it in the order they arrive from the server, so ten responses
 * at once each get a tenth of the link. What crosses is recorded as it is delivered: the body's
 * bytes as sent (gzip-encoded when the server compressed them, raw otherwise), the response's
 * type and the time of each piece.
 *
 * `mode`: `online` forwards; `offline` cuts every connection (a dead network); `liefi` accepts
 * connections and forwards everything but `/api/*`, which is never answered.
 */
export type WireType = 'js' | 'css' | 'other'
export type WireMode = 'online' | 'offline' | 'liefi'

export interface WireResponse {
  method: string
  path: string
  status: number
  type: WireType
  /** Content-Encoding of the body as it crossed (`identity` when none). */
  encoding: string
  /** Body bytes delivered so far. */
  bytes: number
  /** Date.now() when the request reached the proxy and when its last byte was delivered. */
  requestedAt: number
  doneAt: number | null
  /** An event stream (`text/event-stream`): open for as long as the page is, never the link's load. */
  stream: boolean
}

interface Delivery {
  response: WireResponse
  at: number
  bytes: number
}

export interface WireProxyOptions {
  /** Origin of the server behind the proxy, e.g. http://127.0.0.1:8080. */
  target: string
  latencyMs?: number
  bitsPerSecond?: number
}

/** A link piece: the link sends at most this many bytes before another response's turn. */
const PIECE_BYTES = 1460 * 4

export function wireType(path: string, contentType: string | undefined): WireType {
  const type = (contentType ?? '').toLowerCase()
  const bare = path.split('?')[0] ?? ''
  if (type.includes('javascript') || /\.m?js$/.test(bare)) return 'js'
  if (type.includes('text/css') || bare.endsWith('.css')) return 'css'
  return 'other'
}

export class WireProxy {
  readonly options: Required<WireProxyOptions>
  mode: WireMode = 'online'
  /** Off: no latency, no bandwidth limit (for setting up a scenario quickly). */
  throttled = true
  responses: WireResponse[] = []
  private deliveries: Delivery[] = []
  private server: Server | null = null
  private sockets = new Set<Socket>()
  /** When the shared link is free again (Date.now() ms). */
  private linkFreeAt = 0
  private held = new Set<() => void>()
  private flows: Flow[] = []
  private pumping = false
  private wake: (() => void) | null = null
  /** Requests forwarded whose answer has not started yet. */
  private waiting = 0
  /** Date.now() of the link's last activity: a request arriving or answered, a piece delivered. */
  private lastActivityAt = 0

  constructor(options: WireProxyOptions) {
    this.options = { latencyMs: 150, bitsPerSecond: 1.6e6, ...options }
  }

  get url(): string {
    const address = this.server?.address() as AddressInfo | null
    if (!address) throw new Error('the proxy is not listening')
    return `http://127.0.0.1:${address.port}`
  }

  /** Listens on `port` (0: a free one; the same port keeps the browser's origin across restarts). */
  async start(port = 0): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res))
    server.keepAliveTimeout = 5_000
    server.on('connection', (socket) => {
      if (this.mode === 'offline') {
        socket.destroy()
        return
      }
      this.sockets.add(socket)
      socket.on('close', () => this.sockets.delete(socket))
    })
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
    this.server = server
  }

  async close(): Promise<void> {
    this.cutAll()
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve())
    this.server = null
  }

  /** Switches the network's state; going offline or to lie-fi cuts the open connections. */
  setMode(mode: WireMode): void {
    this.mode = mode
    if (mode !== 'online') this.cutAll()
  }

  /** Forgets what was recorded (before a new visit). */
  reset(): void {
    this.responses = []
    this.deliveries = []
  }

  /**
   * Since when (Date.now() ms) nothing has crossed the link and nothing is on its way (no request
   * waiting for its answer, no answer still coming); null while something is. Event streams, open
   * as long as the page, do not count (docs/performance.md,
   * "The first screen, counted to its end").
   */
  idleSince(): number | null {
    if (this.waiting > 0) return null
    if (this.responses.some((r) => r.doneAt == null && !r.stream)) return null
    return this.lastActivityAt
  }

  /** Body bytes of each type delivered up to `until` (Date.now() ms), and how many responses. */
  bytesUntil(until = Infinity): Record<WireType, number> & { requests: number } {
    const sums = { js: 0, css: 0, other: 0, requests: 0 }
    for (const d of this.deliveries) if (d.at <= until) sums[d.response.type] += d.bytes
    sums.requests = this.responses.filter((r) => r.requestedAt <= until).length
    return sums
  }

  /** The responses that started before `until`, with the bytes of each delivered by then. */
  responsesUntil(until = Infinity): WireResponse[] {
    const byResponse = new Map<WireResponse, number>()
    for (const d of this.deliveries) {
      if (d.at <= until) byResponse.set(d.response, (byResponse.get(d.response) ?? 0) + d.bytes)
    }
    return this.responses
      .filter((r) => r.requestedAt <= until)
      .map((r) => ({ ...r, bytes: byResponse.get(r) ?? 0 }))
  }

  private cutAll(): void {
    for (const socket of this.sockets) socket.destroy()
    this.sockets.clear()
    for (const release of this.held) release()
    this.held.clear()
    for (const flow of this.flows) {
      flow.queue.length = 0
      flow.ended = true
    }
  }

  private async handle(req: IncomingMessage, res: import('node:http').ServerResponse) {
    const path = req.url ?? '/'
    if (this.mode === 'offline') {
      req.socket.destroy()
      return
    }
    if (this.mode === 'liefi' && path.startsWith('/api/')) {
      // Never answered: the connection stays open until the mode changes or the client gives up.
      await new Promise<void>((resolve) => {
        this.held.add(resolve)
        req.socket.once('close', resolve)
      })
      return
    }
    const requestedAt = Date.now()
    this.lastActivityAt = requestedAt
    this.waiting += 1
    let answered = false
    const noteAnswered = () => {
      if (answered) return
      answered = true
      this.waiting -= 1
      this.lastActivityAt = Date.now()
    }
    res.once('close', noteAnswered)
    const body: Buffer[] = []
    for await (const chunk of req) body.push(chunk as Buffer)
    if (this.throttled) await delay(this.options.latencyMs)
    const target = new URL(path, this.options.target)
    const headers = { ...req.headers, host: target.host }
    const upstream = httpRequest(target, { method: req.method, headers })
    upstream.on('error', () => {
      noteAnswered()
      res.destroy()
    })
    upstream.on('response', (answer) => {
      const stream = String(answer.headers['content-type'] ?? '').includes('text/event-stream')
      const record: WireResponse = {
        method: req.method ?? 'GET',
        path,
        status: answer.statusCode ?? 0,
        type: wireType(path, answer.headers['content-type']),
        encoding: String(answer.headers['content-encoding'] ?? 'identity'),
        bytes: 0,
        requestedAt,
        doneAt: null,
        stream,
      }
      this.responses.push(record)
      noteAnswered()
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      const flow: Flow = {
        queue: [],
        ended: false,
        write: (piece) => {
          if (res.destroyed) return
          res.write(piece)
          record.bytes += piece.length
          const at = Date.now()
          this.deliveries.push({ response: record, at, bytes: piece.length })
          if (!stream) this.lastActivityAt = at
        },
        finish: () => {
          record.doneAt = Date.now()
          if (!stream) this.lastActivityAt = record.doneAt
          res.end()
        },
      }
      this.flows.push(flow)
      answer.on('data', (chunk: Buffer) => {
        for (let at = 0; at < chunk.length; at += PIECE_BYTES) {
          flow.queue.push(chunk.subarray(at, at + PIECE_BYTES))
        }
        this.pump()
      })
      answer.on('end', () => {
        flow.ended = true
        this.pump()
      })
      answer.on('error', () => res.destroy())
    })
    upstream.end(Buffer.concat(body))
  }

  /**
   * Sends the queued pieces over the one link, a piece of each response in turn (round robin), each
   * taking its time on the link: concurrent responses share the bandwidth.
   */
  private pump(): void {
    this.wake?.()
    if (this.pumping) return
    this.pumping = true
    void (async () => {
      let turn = 0
      for (;;) {
        for (const flow of [...this.flows]) {
          if (flow.ended && flow.queue.length === 0) {
            flow.finish()
            this.flows.splice(this.flows.indexOf(flow), 1)
          }
        }
        const ready = this.flows.filter((flow) => flow.queue.length > 0)
        if (ready.length === 0) {
          if (this.flows.length === 0) break
          await new Promise<void>((resolve) => (this.wake = resolve))
          this.wake = null
          continue
        }
        const flow = ready[turn++ % ready.length]!
        const piece = flow.queue.shift()!
        if (this.throttled) {
          const now = Date.now()
          this.linkFreeAt =
            Math.max(now, this.linkFreeAt) + (piece.length * 8 * 1000) / this.options.bitsPerSecond
          await delay(this.linkFreeAt - now)
        }
        flow.write(piece)
      }
      this.pumping = false
    })()
  }
}

interface Flow {
  queue: Buffer[]
  ended: boolean
  write: (piece: Buffer) => void
  finish: () => void
}

function delay(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve()
}
