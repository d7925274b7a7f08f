import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import { BlockList, isIP, type LookupFunction } from 'node:net'

/**
 * Every call the server makes to another server (amoCRM, Bitrix24, the gift's web hook) goes
 * through `Outbound.send`: a deadline for the whole exchange, an answer of at most 1 MB, and no
 * loopback or private address outside tests (a web hook's address is typed by a user). With a test
 * origin (OUTBOUND_TEST_ORIGIN, docs/crm.md) every call goes to `{origin}/{host}{path}` instead
 * and the address guard is off: the one place that knows about the project's fakes.
 */

export interface OutboundRequest {
  method: 'GET' | 'POST'
  url: string
  headers?: Record<string, string>
  body?: string
  /** The whole exchange, from the lookup to the last byte of the answer. */
  timeoutMs: number
}

export interface OutboundResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
}

/**
 * A call that got no answer. `sent`: whether the request may have reached the other side (a
 * connection was made), so that it may have acted on it; false when it certainly did not (no
 * address, refused connection, a forbidden address).
 */
export class OutboundError extends Error {
  constructor(
    readonly reason: 'timeout' | 'network' | 'forbidden_address' | 'too_large' | 'bad_url',
    readonly sent: boolean,
    message: string,
  ) {
    super(message)
  }
}

const MAX_ANSWER_BYTES = 1024 * 1024

/** Loopback, private, link-local, shared, multicast and reserved ranges (RFC 6890 and kin). */
const FORBIDDEN = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  FORBIDDEN.addSubnet(net, prefix, 'ipv4')
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
] as const)
  FORBIDDEN.addSubnet(net, prefix, 'ipv6')

/** Whether a connection to `address` is refused outside tests. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 4) return FORBIDDEN.check(address, 'ipv4')
  if (family !== 6) return true
  const lower = address.toLowerCase()
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1, ::ffff:a00:1, 64:ff9b::a00:1) is that address.
  const mapped =
    /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/.exec(lower)
  if (mapped) {
    if (mapped[1]) return FORBIDDEN.check(mapped[1], 'ipv4')
    const high = parseInt(mapped[2]!, 16)
    const low = parseInt(mapped[3]!, 16)
    const v4 = [high >> 8, high & 255, low >> 8, low & 255].join('.')
    return FORBIDDEN.check(v4, 'ipv4')
  }
  return FORBIDDEN.check(lower, 'ipv6')
}

/** DNS lookup that refuses names resolving to a forbidden address (checked at connect time). */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0)
    const allowed = addresses.filter((a) => !isForbiddenAddress(a.address))
    if (allowed.length === 0 || allowed.length !== addresses.length) {
      const refused = Object.assign(new Error(`${hostname}: forbidden address`), {
        code: 'EFORBIDDEN',
      })
      return callback(refused, '', 0)
    }
    if (options.all)
      return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed)
    callback(null, allowed[0]!.address, allowed[0]!.family)
  })
}

/** Error codes that mean nothing reached the other side. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EFORBIDDEN',
  'EHOSTUNREACH',
  'ENETUNREACH',
])

export interface OutboundSettings {
  /** `http://127.0.0.1:PORT`: every call goes there as `/{host}{path}` (tests only). */
  testOrigin?: string
}

export class Outbound {
  private readonly testOrigin: URL | null
  /**
   * Connections kept open between calls: a delivery's calls go to the same few hosts, and a new
   * TLS connection per call cost each of them a handshake. The address guard is the lookup of
   * each new connection.
   */
  private readonly agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: 32, timeout: 30_000 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 32, timeout: 30_000 }),
  }

  constructor(settings: OutboundSettings = {}) {
    this.testOrigin = settings.testOrigin ? new URL(settings.testOrigin) : null
  }

  /** Where a call to `url` really goes. */
  target(url: string): URL {
    const original = new URL(url)
    if (!this.testOrigin) return original
    const rewritten = new URL(this.testOrigin.href)
    rewritten.pathname = `/${original.host}${original.pathname}`
    rewritten.search = original.search
    return rewritten
  }

  /** Closes the kept connections. */
  close(): void {
    this.agents.http.destroy()
    this.agents.https.destroy()
  }

  send(request: OutboundRequest): Promise<OutboundResponse> {
    let url: URL
    try {
      url = this.target(request.url)
    } catch {
      return Promise.reject(new OutboundError('bad_url', false, 'bad url'))
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      return Promise.reject(new OutboundError('bad_url', false, 'bad url'))
    }
    const guarded = !this.testOrigin
    const host = url.hostname.replace(/^\[|\]$/g, '')
    if (guarded && isIP(host) && isForbiddenAddress(host)) {
      return Promise.reject(new OutboundError('forbidden_address', false, 'forbidden address'))
    }
    const body = request.body === undefined ? undefined : Buffer.from(request.body)
    const headers: Record<string, string> = {
      'User-Agent': 'promo-builder',
      Accept: 'application/json',
      ...request.headers,
    }
    if (body) headers['Content-Length'] = String(body.length)
    return new Promise<OutboundResponse>((resolve, reject) => {
      let connected = false
      let settled = false
      const finish = (error: OutboundError | null, value?: OutboundResponse) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        if (error) {
          req.destroy()
          reject(error)
        } else resolve(value!)
      }
      const req = (url.protocol === 'https:' ? https : http).request(
        url,
        {
          method: request.method,
          headers,
          agent: url.protocol === 'https:' ? this.agents.https : this.agents.http,
          ...(guarded ? { lookup: guardedLookup } : {}),
        },
        (res) => {
          const chunks: Buffer[] = []
          let size = 0
          res.on('data', (chunk: Buffer) => {
            size += chunk.length
            if (size > MAX_ANSWER_BYTES) {
              finish(new OutboundError('too_large', true, 'answer too large'))
              return
            }
            chunks.push(chunk)
          })
          res.on('end', () =>
            finish(null, {
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          )
          res.on('error', () => finish(new OutboundError('network', true, 'answer cut off')))
        },
      )
      const timer = setTimeout(
        () => finish(new OutboundError('timeout', connected, 'timeout')),
        request.timeoutMs,
      )
      req.on('socket', (socket) => {
        if (!socket.connecting) connected = true
        else socket.once('connect', () => (connected = true))
      })
      req.on('error', (error: NodeJS.ErrnoException) => {
        const code = error.code ?? ''
        if (code === 'EFORBIDDEN') {
          finish(new OutboundError('forbidden_address', false, 'forbidden address'))
          return
        }
        const sent = connected && !NOT_SENT.has(code)
        finish(new OutboundError('network', sent, code || error.message))
      })
      req.end(body)
    })
  }
}
