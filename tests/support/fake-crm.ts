import { randomBytes } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/**
 * Fake amoCRM and Bitrix24 (and web hook receivers) on one local port, following the vendors'
 * documentation as docs/crm.md quotes it: the server under test reaches them through
 * OUTBOUND_TEST_ORIGIN (`{origin}/{host}{path}`).
 *
 * - amoCRM: OAuth (`/oauth2/access_token`, codes once, refresh tokens rotating: a spent one is a
 *   400), access tokens that expire (401), long-lived tokens, `POST /api/v4/leads/complex`,
 *   `GET /api/v4/leads?query=` (204 when nothing is found), `GET /api/v4/account`, and its rate:
 *   more than `perSecond` calls in any second is a 429.
 * - Bitrix24: inbound webhooks `/rest/{user}/{code}/{method}.json` (`crm.lead.add`,
 *   `crm.lead.list` with `filter`, `profile`), a wrong code is a 401 INVALID_CREDENTIALS, and the
 *   leaky bucket (each call adds 1, it drains `drainPerSecond`, at `limit` calls are refused with
 *   503 QUERY_LIMIT_EXCEEDED).
 * - Any other host: a web hook receiver that keeps what it gets.
 *
 * Faults are chosen per call by `fault` (after the rate check, as the vendor would): a status, a
 * rate refusal, a hang or a cut connection, before or after the lead is stored.
 */

export type Fault =
  | 'ok'
  | 'rate'
  | 'hang'
  | 'reset'
  | 'store-then-hang'
  | 'store-then-reset'
  | 'store-then-500'
  | { status: number; body?: string; headers?: Record<string, string> }

export interface FakeCall {
  service: 'amo' | 'bitrix' | 'hook'
  host: string
  /** `oauth`, `lead.add`, `lead.list`, `account`, `profile`, `hook`, … */
  action: string
}

export interface AmoLead {
  id: number
  /** When the fake stored it (Date.now()). */
  at: number
  name: string
  price?: number
  tags: string[]
  contacts: { name: string; custom_fields_values: unknown[] }[]
  metadata: Record<string, unknown> | undefined
}

export interface AmoAccount {
  subdomain: string
  name: string
  clientId: string
  clientSecret: string
  redirectUri: string
  longLivedTokens: Set<string>
  codes: Set<string>
  access: Map<string, number>
  refresh: Set<string>
  /** Refresh tokens already spent (a reuse is refused). */
  spent: Set<string>
  leads: AmoLead[]
  calls: number[]
}

export interface BitrixLead {
  ID: string
  at: number
  fields: Record<string, unknown>
  params: unknown
}

export interface BitrixPortal {
  host: string
  user: string
  code: string
  leads: BitrixLead[]
  level: number
  levelAt: number
}

export interface HookCall {
  host: string
  path: string
  headers: Record<string, string | string[] | undefined>
  body: string
}

export interface FakeCrmOptions {
  /** amoCRM's calls a second per account (default 7). */
  amoPerSecond?: number
  /** Bitrix24's bucket: drain a second (default 2) and the level where calls are refused (50). */
  bitrixDrainPerSecond?: number
  bitrixLimit?: number
  /** An access token's life in seconds (default 86,400). */
  accessTtlSeconds?: number
}

const json = (res: ServerResponse, status: number, body: unknown, type = 'application/json') => {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(text) })
  res.end(text)
}

const token = () => randomBytes(24).toString('hex')

export class FakeCrm {
  readonly events = new EventEmitter()
  readonly amo = new Map<string, AmoAccount>()
  readonly bitrix = new Map<string, BitrixPortal>()
  readonly hooks: HookCall[] = []
  /** Every call, with the answer it got (or the fault) and when it came (Date.now()). */
  readonly log: (FakeCall & { outcome: string; at: number })[] = []
  /** Rate refusals answered (429, QUERY_LIMIT_EXCEEDED). */
  rateRefusals = 0
  fault: (call: FakeCall) => Fault = () => 'ok'
  private nextAmoId = 1000
  private nextBitrixId = 1
  private readonly sockets = new Set<Socket>()
  private readonly held = new Set<ServerResponse>()
  private server!: Server
  origin = ''

  constructor(private readonly options: FakeCrmOptions = {}) {
    this.events.setMaxListeners(1000)
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        json(res, 500, { error: String(error) })
      })
    })
    this.server.on('connection', (socket) => {
      this.sockets.add(socket)
      socket.on('close', () => this.sockets.delete(socket))
    })
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
    return this
  }

  async close(): Promise<void> {
    for (const res of this.held) res.destroy()
    for (const socket of this.sockets) socket.destroy()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  addAmo(
    subdomain: string,
    settings: { clientId?: string; clientSecret?: string; redirectUri?: string } = {},
  ): AmoAccount {
    const account: AmoAccount = {
      subdomain,
      name: `Клиника ${subdomain}`,
      clientId: settings.clientId ?? `client-${subdomain}`,
      clientSecret: settings.clientSecret ?? `secret-${subdomain}-0123456789`,
      redirectUri: settings.redirectUri ?? 'https://promo.example.ru/api/amo/oauth/callback',
      longLivedTokens: new Set(),
      codes: new Set(),
      access: new Map(),
      refresh: new Set(),
      spent: new Set(),
      leads: [],
      calls: [],
    }
    this.amo.set(`${subdomain}.amocrm.ru`, account)
    return account
  }

  /** A private integration's long-lived token. */
  amoLongLivedToken(account: AmoAccount): string {
    const value = `llt-${token()}`
    account.longLivedTokens.add(value)
    return value
  }

  /** What amoCRM's consent page gives the redirect: a code good once. */
  amoCode(account: AmoAccount): string {
    const code = `code-${token()}`
    account.codes.add(code)
    return code
  }

  /** Every access token of the account expires now (the next call is a 401). */
  expireAmoAccess(account: AmoAccount): void {
    for (const key of account.access.keys()) account.access.set(key, 0)
  }

  addBitrix(host: string): BitrixPortal & { webhook: string } {
    const portal: BitrixPortal = {
      host,
      user: '1',
      code: token().slice(0, 16),
      leads: [],
      level: 0,
      levelAt: Date.now(),
    }
    this.bitrix.set(host, portal)
    return { ...portal, webhook: `https://${host}/rest/${portal.user}/${portal.code}/` }
  }

  /** Resolves once `check` holds, checked after each call the fake answers and on `changed()`. */
  waitFor(check: () => boolean, timeoutMs = 20_000, what = 'condition'): Promise<void> {
    return waitUntil(check, [this.events], timeoutMs, what)
  }

  changed(): void {
    this.events.emit('change')
  }

  private async body(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    return Buffer.concat(chunks).toString('utf8')
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake')
    const [, host = '', ...rest] = url.pathname.split('/')
    const path = `/${rest.join('/')}`
    const text = await this.body(req)
    try {
      if (this.amo.has(host)) await this.amoCall(this.amo.get(host)!, req, res, path, url, text)
      else if (this.bitrix.has(host)) await this.bitrixCall(this.bitrix.get(host)!, res, path, text)
      else await this.hookCall(host, req, res, path, text)
    } finally {
      this.changed()
    }
  }

  /** Applies a fault that needs no store; true when it answered (or will never answer). */
  private preFault(fault: Fault, res: ServerResponse): boolean {
    if (fault === 'hang') {
      this.held.add(res)
      return true
    }
    if (fault === 'reset') {
      res.socket?.destroy()
      return true
    }
    if (typeof fault === 'object') {
      res.writeHead(fault.status, { 'Content-Type': 'application/json', ...fault.headers })
      res.end(fault.body ?? JSON.stringify({ error: 'fault', status: fault.status }))
      return true
    }
    return false
  }

  /** After the lead is stored: the answer the fault wants instead of `answer`. */
  private postFault(fault: Fault, res: ServerResponse, answer: () => void): void {
    if (fault === 'store-then-hang') this.held.add(res)
    else if (fault === 'store-then-reset') res.socket?.destroy()
    else if (fault === 'store-then-500') json(res, 500, { error: 'fault' })
    else answer()
  }

  private record(call: FakeCall, outcome: Fault | string) {
    this.log.push({
      ...call,
      outcome: typeof outcome === 'object' ? String(outcome.status) : outcome,
      at: Date.now(),
    })
  }

  // ---- amoCRM ----

  private amoRateRefused(account: AmoAccount): boolean {
    const now = Date.now()
    const perSecond = this.options.amoPerSecond ?? 7
    while (account.calls.length > 0 && account.calls[0]! <= now - 1000) account.calls.shift()
    if (account.calls.length >= perSecond) return true
    account.calls.push(now)
    return false
  }

  private amoAuthorized(account: AmoAccount, req: IncomingMessage): boolean {
    const header = req.headers.authorization ?? ''
    const value = header.startsWith('Bearer ') ? header.slice(7) : ''
    if (account.longLivedTokens.has(value)) return true
    const expires = account.access.get(value)
    return expires !== undefined && expires > Date.now()
  }

  private amoTokens(account: AmoAccount) {
    const access = `access-${token()}`
    const refresh = `refresh-${token()}`
    const ttl = this.options.accessTtlSeconds ?? 86_400
    account.access.set(access, Date.now() + ttl * 1000)
    account.refresh.add(refresh)
    return { token_type: 'Bearer', expires_in: ttl, access_token: access, refresh_token: refresh }
  }

  private async amoCall(
    account: AmoAccount,
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    url: URL,
    text: string,
  ): Promise<void> {
    const action =
      path === '/oauth2/access_token'
        ? 'oauth'
        : path === '/api/v4/leads/complex'
          ? 'lead.add'
          : path === '/api/v4/leads'
            ? 'lead.list'
            : path === '/api/v4/account'
              ? 'account'
              : path
    const call: FakeCall = { service: 'amo', host: `${account.subdomain}.amocrm.ru`, action }
    if (this.amoRateRefused(account)) {
      this.rateRefusals++
      this.record(call, 'rate-refused')
      return json(res, 429, { title: 'Too Many Requests', status: 429 }, 'application/problem+json')
    }
    const fault = this.fault(call)
    this.record(call, fault)
    if (fault === 'rate') {
      this.rateRefusals++
      return json(res, 429, { title: 'Too Many Requests', status: 429 }, 'application/problem+json')
    }
    if (this.preFault(fault, res)) return

    if (action === 'oauth') {
      const body = JSON.parse(text || '{}') as Record<string, string>
      const refused = () =>
        json(
          res,
          400,
          { hint: 'Token has been revoked', title: 'Некорректный запрос', status: 400 },
          'application/problem+json',
        )
      if (body.client_id !== account.clientId || body.client_secret !== account.clientSecret) {
        return refused()
      }
      if (body.grant_type === 'authorization_code') {
        if (!body.code || !account.codes.delete(body.code)) return refused()
        if (body.redirect_uri !== account.redirectUri) return refused()
        return json(res, 200, this.amoTokens(account))
      }
      if (body.grant_type === 'refresh_token') {
        const old = body.refresh_token ?? ''
        if (!account.refresh.delete(old)) return refused()
        account.spent.add(old)
        return this.postFault(fault, res, () => json(res, 200, this.amoTokens(account)))
      }
      return refused()
    }
    if (!this.amoAuthorized(account, req)) {
      this.log[this.log.length - 1]!.outcome = '401'
      return json(
        res,
        401,
        {
          title: 'Unauthorized',
          type: 'https://httpstatus.es/401',
          status: 401,
          detail: 'Unauthorized',
        },
        'application/problem+json',
      )
    }
    if (action === 'account') {
      return json(res, 200, { id: 1, name: account.name, subdomain: account.subdomain })
    }
    if (action === 'lead.list') {
      const query = url.searchParams.get('query') ?? ''
      const found = account.leads.filter(
        (lead) =>
          query !== '' &&
          (lead.name.includes(query) || JSON.stringify(lead.contacts).includes(query)),
      )
      if (found.length === 0) {
        res.writeHead(204)
        return void res.end()
      }
      return json(res, 200, {
        _page: 1,
        _embedded: { leads: found.map((l) => ({ id: l.id, name: l.name, price: l.price ?? 0 })) },
      })
    }
    if (action === 'lead.add') {
      const body = JSON.parse(text) as Record<string, unknown>[]
      const errors = this.amoValidate(body)
      if (errors.length > 0) {
        return json(
          res,
          400,
          {
            title: 'Bad Request',
            type: 'https://httpstatus.es/400',
            status: 400,
            detail: 'Request validation failed',
            'validation-errors': [{ request_id: '0', errors }],
          },
          'application/problem+json',
        )
      }
      const made = body.map((lead, i) => {
        const embedded = (lead._embedded ?? {}) as Record<string, unknown>
        const stored: AmoLead = {
          id: this.nextAmoId++,
          at: Date.now(),
          name: String(lead.name),
          price: lead.price as number | undefined,
          tags: ((embedded.tags ?? []) as { name: string }[]).map((t) => t.name),
          contacts: (embedded.contacts ?? []) as AmoLead['contacts'],
          metadata: embedded.metadata as Record<string, unknown> | undefined,
        }
        account.leads.push(stored)
        return {
          id: stored.id,
          contact_id: stored.id + 500_000,
          company_id: null,
          request_id: [String(i)],
          merged: false,
        }
      })
      return this.postFault(fault, res, () => json(res, 200, made))
    }
    json(res, 404, { title: 'Not Found', status: 404 }, 'application/problem+json')
  }

  /** The documented shape of a complex lead: what the fake refuses with 400. */
  private amoValidate(body: unknown): { code: string; path: string; detail: string }[] {
    const errors: { code: string; path: string; detail: string }[] = []
    if (!Array.isArray(body) || body.length === 0 || body.length > 50) {
      return [{ code: 'InvalidType', path: '', detail: 'This value should be an array of 1 to 50' }]
    }
    body.forEach((lead: Record<string, unknown>, i) => {
      if (typeof lead.name !== 'string')
        errors.push({ code: 'InvalidType', path: `${i}.name`, detail: 'name' })
      if (lead.price !== undefined && !Number.isInteger(lead.price)) {
        errors.push({
          code: 'InvalidType',
          path: `${i}.price`,
          detail: 'This value should be of type int.',
        })
      }
      const embedded = lead._embedded as
        | {
            contacts?: {
              custom_fields_values?: { field_code?: string; values?: { enum_code?: string }[] }[]
            }[]
          }
        | undefined
      for (const contact of embedded?.contacts ?? []) {
        for (const field of contact.custom_fields_values ?? []) {
          if (field.field_code !== 'PHONE' && field.field_code !== 'EMAIL') {
            errors.push({
              code: 'NotSupportedChoice',
              path: `${i}.contacts.field_code`,
              detail: 'field_code',
            })
          }
          for (const value of field.values ?? []) {
            if (value.enum_code !== 'WORK') {
              errors.push({
                code: 'NotSupportedChoice',
                path: `${i}.contacts.enum_code`,
                detail: 'enum_code',
              })
            }
          }
        }
      }
    })
    return errors
  }

  // ---- Bitrix24 ----

  private bitrixRefused(portal: BitrixPortal): boolean {
    const now = Date.now()
    const drain = this.options.bitrixDrainPerSecond ?? 2
    const limit = this.options.bitrixLimit ?? 50
    portal.level = Math.max(0, portal.level - ((now - portal.levelAt) / 1000) * drain)
    portal.levelAt = now
    if (portal.level + 1 > limit) return true
    portal.level += 1
    return false
  }

  private async bitrixCall(
    portal: BitrixPortal,
    res: ServerResponse,
    path: string,
    text: string,
  ): Promise<void> {
    const match = /^\/rest\/([^/]+)\/([^/]+)\/([a-z.]+?)(?:\.json)?$/i.exec(path)
    const method = match?.[3] ?? ''
    const action = method.replace(/^crm\./, '')
    const call: FakeCall = { service: 'bitrix', host: portal.host, action }
    if (this.bitrixRefused(portal)) {
      this.rateRefusals++
      this.record(call, 'rate-refused')
      return json(res, 503, {
        error: 'QUERY_LIMIT_EXCEEDED',
        error_description: 'Too many requests',
      })
    }
    const fault = this.fault(call)
    this.record(call, fault)
    if (fault === 'rate') {
      this.rateRefusals++
      return json(res, 503, {
        error: 'QUERY_LIMIT_EXCEEDED',
        error_description: 'Too many requests',
      })
    }
    if (this.preFault(fault, res)) return
    if (!match || match[1] !== portal.user || match[2] !== portal.code) {
      return json(res, 401, {
        error: 'INVALID_CREDENTIALS',
        error_description: 'Invalid request credentials',
      })
    }
    const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>
    const time = { start: Date.now() / 1000, finish: Date.now() / 1000, duration: 0.01 }
    if (method === 'profile') {
      return json(res, 200, {
        result: { ID: '1', ADMIN: true, NAME: 'Анна', LAST_NAME: 'Иванова' },
        time,
      })
    }
    if (method === 'crm.lead.add') {
      const fields = (body.fields ?? {}) as Record<string, unknown>
      if (typeof fields.TITLE !== 'string' || fields.TITLE === '') {
        return json(res, 400, {
          error: '',
          error_description: 'Не заполнено обязательное поле "Название лида"',
        })
      }
      const lead: BitrixLead = {
        ID: String(this.nextBitrixId++),
        at: Date.now(),
        fields,
        params: body.params,
      }
      portal.leads.push(lead)
      return this.postFault(fault, res, () => json(res, 200, { result: Number(lead.ID), time }))
    }
    if (method === 'crm.lead.list') {
      const filter = (body.filter ?? {}) as Record<string, unknown>
      const found = portal.leads.filter((lead) =>
        Object.entries(filter).every(([key, value]) => lead.fields[key] === value),
      )
      return json(res, 200, {
        result: found.map((l) => ({ ID: l.ID, ORIGIN_ID: l.fields.ORIGIN_ID })),
        total: found.length,
        time,
      })
    }
    json(res, 404, { error: 'ERROR_METHOD_NOT_FOUND', error_description: 'Method not found!' })
  }

  // ---- web hooks ----

  private async hookCall(
    host: string,
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    text: string,
  ): Promise<void> {
    const call: FakeCall = { service: 'hook', host, action: 'hook' }
    const fault = this.fault(call)
    this.record(call, fault)
    if (fault === 'rate') return json(res, 429, {})
    if (this.preFault(fault, res)) return
    this.hooks.push({ host, path, headers: req.headers, body: text })
    this.postFault(fault, res, () => json(res, 200, { ok: true }))
  }
}

/**
 * Resolves once `check()` holds (it may be async), checked now and again whenever one of
 * `emitters` says 'change': tests wait on what happens, not on time.
 */
export function waitUntil(
  check: () => boolean | Promise<boolean>,
  emitters: EventEmitter[],
  timeoutMs: number,
  what = 'condition',
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let checking = false
    let again = false
    let finished = false
    const run = async () => {
      if (finished) return
      if (checking) {
        again = true
        return
      }
      checking = true
      try {
        do {
          again = false
          if (await check()) {
            done()
            resolve()
            return
          }
        } while (again && !finished)
      } catch (error) {
        done()
        reject(error instanceof Error ? error : new Error(String(error)))
      } finally {
        checking = false
      }
    }
    const onChange = () => void run()
    const timer = setTimeout(() => {
      done()
      reject(new Error(`timed out waiting for ${what}`))
    }, timeoutMs)
    const done = () => {
      finished = true
      clearTimeout(timer)
      for (const emitter of emitters) emitter.off('change', onChange)
    }
    for (const emitter of emitters) emitter.on('change', onChange)
    void run()
  })
}
