import { randomBytes } from 'node:crypto'
import type { Queryable } from '../db/database.ts'
import { CRM_TEXTS } from '../common/messages.ts'
import {
  claimRefresh,
  loadAmo,
  markFailed,
  releaseRefresh,
  storeRefreshed,
  type AmoTarget,
  type Tokens,
} from '../storage/amo-auth.ts'
import { OutboundError, type OutboundResponse } from './outbound.ts'
import {
  failure,
  parseJson,
  statusFailure,
  transportFailure,
  type AppealForDelivery,
  type Attempt,
  type Call,
  type Failure,
  type Lookup,
} from './types.ts'

/**
 * amoCRM (API v4; docs/crm.md): a request becomes one lead with its contact through
 * `POST /api/v4/leads/complex`, with the long-lived token of a private integration or the OAuth
 * tokens of `amo_auth`, refreshed before they expire and once on a 401 (the refresh token rotates;
 * one refresh at a time across instances). A refused refresh marks the integration: its deliveries
 * wait for a new connection. The request's key is in the lead's name, where
 * `GET /api/v4/leads?query=` finds it.
 */

/** An account's host: `<subdomain>.amocrm.ru`, or what the OAuth callback's `referer` said. */
export const AMO_HOST = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.(?:amocrm\.ru|amocrm\.com|kommo\.com)$/

export function amoHost(target: Pick<AmoTarget, 'api_host' | 'subdomain'>): string {
  return target.api_host || `${target.subdomain}.amocrm.ru`
}

export interface AmoSettings {
  timeoutMs: number
  /** Refresh when the access token has less than this left (default 10 minutes). */
  refreshAheadMs: number
  now: () => number
}

type Token = { token: string } | Failure

/** The lead's title: «Запись: {project} [pb-12-k3j9x0]»; the key in brackets is what a look-up finds. */
export function leadName(appeal: AppealForDelivery): string {
  const title = CRM_TEXTS.leadTitle[appeal.kind]
  return `${title}: ${appeal.project_name} [${appeal.crm_key}]`.slice(0, 255)
}

/** The form's name in the metadata: the form, and for a subscribe form its specialist and date. */
function formName(appeal: AppealForDelivery): string {
  const parts: string[] = [CRM_TEXTS.formName[appeal.kind]]
  if (appeal.specialist_name) parts.push(appeal.specialist_name)
  if (appeal.date) parts.push(appeal.date)
  return parts.join(' · ')
}

export function amoLeadBody(appeal: AppealForDelivery): unknown[] {
  const fields: unknown[] = [
    { field_code: 'PHONE', values: [{ value: appeal.phone, enum_code: 'WORK' }] },
  ]
  if (appeal.email) {
    fields.push({ field_code: 'EMAIL', values: [{ value: appeal.email, enum_code: 'WORK' }] })
  }
  const tags: { name: string }[] = [{ name: CRM_TEXTS.tag }]
  if (appeal.project_name) tags.push({ name: appeal.project_name.slice(0, 100) })
  const lead: Record<string, unknown> = {
    name: leadName(appeal),
    _embedded: {
      tags,
      contacts: [{ name: appeal.name, custom_fields_values: fields }],
      metadata: {
        category: 'forms',
        form_id: `promo-${appeal.block_id}`,
        form_name: formName(appeal),
        form_page: appeal.page_url,
        form_sent_at: Math.floor(Date.parse(appeal.created_at) / 1000),
        ip: appeal.ip,
        referer: appeal.referrer,
      },
    },
  }
  if (appeal.price !== null) lead.price = Math.round(appeal.price)
  return [lead]
}

/** amoCRM's words on a refused lead (`validation-errors`, or `detail`/`title` of problem+json). */
function amoDetail(response: OutboundResponse): string | undefined {
  const body = parseJson(response.text) as
    | {
        detail?: string
        title?: string
        'validation-errors'?: { errors?: { path?: string; detail?: string }[] }[]
      }
    | undefined
  if (!body || typeof body !== 'object') return undefined
  const errors = (body['validation-errors'] ?? []).flatMap((e) => e.errors ?? [])
  if (errors.length > 0) {
    return errors
      .map((e) => [e.path, e.detail].filter(Boolean).join(': '))
      .join('; ')
      .slice(0, 300)
  }
  return (body.detail ?? body.title)?.slice(0, 300)
}

function isTokens(value: unknown): value is Tokens {
  const t = value as Partial<Tokens> | undefined
  return (
    typeof t?.access_token === 'string' &&
    typeof t.refresh_token === 'string' &&
    typeof t.expires_in === 'number'
  )
}

export class AmoChannel {
  /** Refreshes under way in this process, by integration: the others wait for the same one. */
  private readonly refreshing = new Map<number, Promise<Token>>()

  constructor(
    private readonly db: Queryable,
    private readonly settings: AmoSettings,
  ) {}

  rateKey(target: AmoTarget): string {
    return `amo:${amoHost(target)}`
  }

  /** The token to call with: the long-lived one, or the OAuth access token (refreshed if due). */
  private async authorize(target: AmoTarget, call: Call): Promise<Token> {
    if (target.long_lived_token) return { token: target.long_lived_token }
    if (!target.refresh_token) return failure('amo_not_connected', { block: true })
    if (target.failed_version === target.version) return failure('amo_reconnect', { block: true })
    const left = (target.expires_at ?? 0) - this.settings.now()
    if (target.access_token && left > this.settings.refreshAheadMs) {
      return { token: target.access_token }
    }
    return this.refresh(target, call)
  }

  /** One refresh per integration at a time in this process (and, through a lease, anywhere). */
  private refresh(target: AmoTarget, call: Call): Promise<Token> {
    const running = this.refreshing.get(target.id)
    if (running) return running
    const started = this.refreshOnce(target, call).finally(() => this.refreshing.delete(target.id))
    this.refreshing.set(target.id, started)
    return started
  }

  private async refreshOnce(target: AmoTarget, call: Call): Promise<Token> {
    const seen = target.refresh_token
    if (!seen) return failure('amo_not_connected', { block: true })
    const lease = randomBytes(12).toString('hex')
    const leaseMs = this.settings.timeoutMs * 2
    if (!(await claimRefresh(this.db, target.id, seen, lease, leaseMs))) {
      // Another instance refreshed, or is refreshing: take its tokens, or come back shortly.
      const fresh = await loadAmo(this.db, target.id)
      if (fresh?.access_token && fresh.refresh_token !== seen) {
        Object.assign(target, fresh)
        return { token: fresh.access_token }
      }
      return failure('amo_refreshing', { retry: true, retryAfterMs: 1_000, free: true })
    }
    let response: OutboundResponse
    try {
      response = await call(
        {
          method: 'POST',
          url: `https://${amoHost(target)}/oauth2/access_token`,
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            client_id: target.client_id,
            client_secret: target.client_secret,
            grant_type: 'refresh_token',
            refresh_token: seen,
            redirect_uri: target.redirect_uri,
          }),
          timeoutMs: this.settings.timeoutMs,
        },
        this.rateKey(target),
      )
    } catch (error) {
      await releaseRefresh(this.db, target.id, lease)
      // No lead was sent: only the token's refresh went unanswered.
      if (error instanceof OutboundError) return { ...transportFailure(error), sent: false }
      throw error
    }
    const body = parseJson(response.text)
    if (response.status === 200 && isTokens(body)) {
      if (!(await storeRefreshed(this.db, target.id, lease, body))) {
        // The lease ran out while amoCRM answered: whoever holds it now decides.
        return failure('amo_refreshing', { retry: true, retryAfterMs: 1_000, free: true })
      }
      target.access_token = body.access_token
      target.refresh_token = body.refresh_token
      target.expires_at = this.settings.now() + body.expires_in * 1000
      target.failed_version = null
      return { token: body.access_token }
    }
    await releaseRefresh(this.db, target.id, lease)
    if (response.status === 400 || response.status === 401 || response.status === 403) {
      // The refresh token is spent or revoked: a person must connect the integration again.
      await markFailed(this.db, target.id, target.version)
      return failure('amo_reconnect', { block: true })
    }
    return { ...statusFailure('amo', response), sent: false }
  }

  /**
   * A call with the integration's token; on a 401 an OAuth integration refreshes once and calls
   * again (a 401 means amoCRM did nothing with the call).
   */
  private async authorized(
    target: AmoTarget,
    call: Call,
    request: (token: string) => Parameters<Call>[0],
  ): Promise<OutboundResponse | Failure> {
    const first = await this.authorize(target, call)
    if ('ok' in first) return first
    let response = await call(request(first.token), this.rateKey(target))
    if (response.status !== 401) return response
    if (!target.long_lived_token) {
      const again = await this.refresh(target, call)
      if ('ok' in again) return again
      response = await call(request(again.token), this.rateKey(target))
      if (response.status !== 401) return response
    }
    await markFailed(this.db, target.id, target.version)
    return failure('amo_unauthorized', { block: true })
  }

  private async guarded<T>(work: () => Promise<T | Failure>): Promise<T | Failure> {
    try {
      return await work()
    } catch (error) {
      if (error instanceof OutboundError) return transportFailure(error)
      throw error
    }
  }

  async send(target: AmoTarget, appeal: AppealForDelivery, call: Call): Promise<Attempt> {
    return this.guarded<Attempt>(async () => {
      const response = await this.authorized(target, call, (token) => ({
        method: 'POST',
        url: `https://${amoHost(target)}/api/v4/leads/complex`,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(amoLeadBody(appeal)),
        timeoutMs: this.settings.timeoutMs,
      }))
      if ('ok' in response) return response
      if (response.status === 200) {
        const body = parseJson(response.text) as { id?: unknown }[] | undefined
        const id = Array.isArray(body) ? body[0]?.id : undefined
        if (typeof id === 'number' || typeof id === 'string') return { ok: true, crmId: String(id) }
        // Stored, most likely, but no id to keep: the look-up will tell.
        return failure('bad_answer', { retry: true, sent: true })
      }
      if (response.status === 400) return failure('amo_rejected', { detail: amoDetail(response) })
      return statusFailure('amo', response, amoDetail(response))
    })
  }

  /** The lead whose name carries the request's key, if amoCRM has one. */
  async lookup(target: AmoTarget, appeal: AppealForDelivery, call: Call): Promise<Lookup> {
    return this.guarded<Lookup>(async () => {
      const query = encodeURIComponent(appeal.crm_key)
      const response = await this.authorized(target, call, (token) => ({
        method: 'GET',
        url: `https://${amoHost(target)}/api/v4/leads?query=${query}&limit=50`,
        headers: { Authorization: `Bearer ${token}` },
        timeoutMs: this.settings.timeoutMs,
      }))
      if ('ok' in response) return response
      if (response.status === 204) return { found: null }
      if (response.status !== 200) return { ...statusFailure('amo', response), retry: true }
      const body = parseJson(response.text) as
        { _embedded?: { leads?: { id?: unknown; name?: unknown }[] } } | undefined
      const leads = body?._embedded?.leads
      if (!Array.isArray(leads)) return failure('bad_answer', { retry: true, sent: true })
      const mark = `[${appeal.crm_key}]`
      const lead = leads.find((l) => typeof l.name === 'string' && l.name.includes(mark))
      return { found: lead && lead.id !== undefined ? String(lead.id) : null }
    })
  }

  /** «Проверить»: `GET /api/v4/account`; the account's name, or why not. */
  async check(target: AmoTarget, call: Call): Promise<{ ok: true; name: string } | Failure> {
    return this.guarded(async () => {
      const response = await this.authorized(target, call, (token) => ({
        method: 'GET',
        url: `https://${amoHost(target)}/api/v4/account`,
        headers: { Authorization: `Bearer ${token}` },
        timeoutMs: this.settings.timeoutMs,
      }))
      if ('ok' in response) return response
      if (response.status !== 200) return statusFailure('amo', response, amoDetail(response))
      const body = parseJson(response.text) as { name?: unknown } | undefined
      return { ok: true as const, name: typeof body?.name === 'string' ? body.name : '' }
    })
  }

  /** The OAuth callback: the code for tokens at the account's `/oauth2/access_token`. */
  async exchange(
    target: AmoTarget,
    host: string,
    code: string,
    redirectUri: string,
    call: Call,
  ): Promise<Tokens | Failure> {
    return this.guarded(async () => {
      const response = await call(
        {
          method: 'POST',
          url: `https://${host}/oauth2/access_token`,
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            client_id: target.client_id,
            client_secret: target.client_secret,
            grant_type: 'authorization_code',
            code,
            redirect_uri: redirectUri,
          }),
          timeoutMs: this.settings.timeoutMs,
        },
        `amo:${host}`,
      )
      const body = parseJson(response.text)
      if (response.status === 200 && isTokens(body)) return body
      return statusFailure('amo', response, amoDetail(response))
    })
  }
}
