import { CRM_TEXTS } from '../common/messages.ts'
import { OutboundError, type OutboundResponse } from './outbound.ts'
import {
  failure,
  parseJson,
  retryAfterMs,
  statusFailure,
  transportFailure,
  type AppealForDelivery,
  type Attempt,
  type Call,
  type Failure,
  type Lookup,
} from './types.ts'

/**
 * Bitrix24 through an inbound webhook (docs/crm.md): `crm.lead.add` with the request's key as
 * `ORIGIN_ID` (and ORIGINATOR_ID `promo-builder`), found again with `crm.lead.list` before a
 * resend after an ambiguous failure. Errors are `{error, error_description}`; the rate refusal is
 * `503 QUERY_LIMIT_EXCEEDED`.
 */

export interface BitrixTarget {
  id: number
  workspace_id: number
  enabled: boolean
  webhook_url: string
}

export const ORIGINATOR_ID = 'promo-builder'

/** The webhook's base address, ending in `/`, that methods are appended to. */
export function webhookBase(url: string): string {
  const parsed = new URL(url)
  parsed.search = ''
  parsed.hash = ''
  if (!parsed.pathname.endsWith('/')) parsed.pathname += '/'
  return parsed.href
}

export function bitrixRateKey(target: BitrixTarget): string {
  try {
    return `bitrix:${new URL(target.webhook_url).host}`
  } catch {
    return `bitrix:${target.id}`
  }
}

/** COMMENTS: the form and its block, the specialist, the date, the visitor's comment, the page. */
export function bitrixComments(appeal: AppealForDelivery): string {
  const lines = [
    `${CRM_TEXTS.form}: ${CRM_TEXTS.formName[appeal.kind]} (${CRM_TEXTS.block} ${appeal.block_id})`,
  ]
  if (appeal.kind === 'gift' && appeal.block_text)
    lines.push(`${CRM_TEXTS.gift}: ${appeal.block_text}`)
  if (appeal.kind === 'price' && appeal.block_text)
    lines.push(`${CRM_TEXTS.price}: ${appeal.block_text}`)
  if (appeal.specialist_name) {
    const who = [appeal.specialist_name, appeal.specialist_position].filter(Boolean).join(', ')
    lines.push(`${CRM_TEXTS.specialist}: ${who}`)
  }
  if (appeal.date) lines.push(`${CRM_TEXTS.date}: ${appeal.date}`)
  if (appeal.comment) lines.push(`${CRM_TEXTS.comment}: ${appeal.comment}`)
  if (appeal.page_url) lines.push(`${CRM_TEXTS.page}: ${appeal.page_url}`)
  return lines.join('\n')
}

export function bitrixLeadBody(appeal: AppealForDelivery): unknown {
  const fields: Record<string, unknown> = {
    TITLE: `${CRM_TEXTS.leadTitle[appeal.kind]}: ${appeal.project_name}`.slice(0, 255),
    NAME: appeal.name,
    PHONE: [{ VALUE: appeal.phone, VALUE_TYPE: 'WORK' }],
    COMMENTS: bitrixComments(appeal),
    CURRENCY_ID: 'RUB',
    SOURCE_ID: 'WEB',
    SOURCE_DESCRIPTION: appeal.page_url,
    ORIGINATOR_ID,
    ORIGIN_ID: appeal.crm_key,
  }
  if (appeal.email) fields.EMAIL = [{ VALUE: appeal.email, VALUE_TYPE: 'WORK' }]
  if (appeal.price !== null) fields.OPPORTUNITY = appeal.price
  for (const key of ['utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term']) {
    const value = appeal.utm[key]
    if (value) fields[key.toUpperCase()] = value
  }
  return { fields, params: { REGISTER_SONET_EVENT: 'Y' } }
}

/** Bitrix24's error of an answer (`{error, error_description}`), mapped to our codes. */
function bitrixFailure(response: OutboundResponse): Failure {
  const body = parseJson(response.text) as
    { error?: unknown; error_description?: unknown } | undefined
  const error = typeof body?.error === 'string' ? body.error : ''
  const description =
    typeof body?.error_description === 'string' ? body.error_description.slice(0, 300) : ''
  if (error === 'QUERY_LIMIT_EXCEEDED') {
    return failure('rate_limited', {
      retry: true,
      rate: true,
      retryAfterMs: retryAfterMs(response.headers['retry-after']),
    })
  }
  if (response.status === 429 || error === 'OPERATION_TIME_LIMIT') {
    // A method blocked for a while (480 s of work in 10 minutes): come back later.
    return failure('rate_limited', {
      retry: true,
      retryAfterMs: retryAfterMs(response.headers['retry-after']) ?? 60_000,
    })
  }
  if (response.status >= 500) return statusFailure('bitrix', response)
  if (['INVALID_CREDENTIALS', 'NO_AUTH_FOUND', 'expired_token', 'invalid_token'].includes(error)) {
    return failure('bitrix_credentials', { detail: description || undefined })
  }
  if (['ACCESS_DENIED', 'insufficient_scope', 'INSUFFICIENT_SCOPE'].includes(error)) {
    return failure('bitrix_access_denied', { detail: description || undefined })
  }
  if (error === 'PAYMENT_REQUIRED') return failure('bitrix_payment_required')
  if (error === 'ERROR_METHOD_NOT_FOUND' || response.status === 404) {
    return failure('bitrix_not_found', { detail: description || undefined })
  }
  if (response.status === 401)
    return failure('bitrix_credentials', { detail: description || undefined })
  if (response.status === 403)
    return failure('bitrix_access_denied', { detail: description || undefined })
  return failure('bitrix_rejected', { detail: description || error || `HTTP ${response.status}` })
}

export class BitrixChannel {
  constructor(private readonly settings: { timeoutMs: number }) {}

  private async method(
    target: BitrixTarget,
    name: string,
    payload: unknown,
    call: Call,
  ): Promise<OutboundResponse> {
    return call(
      {
        method: 'POST',
        url: `${webhookBase(target.webhook_url)}${name}.json`,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(payload),
        timeoutMs: this.settings.timeoutMs,
      },
      bitrixRateKey(target),
    )
  }

  private async guarded<T>(work: () => Promise<T | Failure>): Promise<T | Failure> {
    try {
      return await work()
    } catch (error) {
      if (error instanceof OutboundError) return transportFailure(error)
      if (error instanceof TypeError) return failure('bad_url')
      throw error
    }
  }

  async send(target: BitrixTarget, appeal: AppealForDelivery, call: Call): Promise<Attempt> {
    return this.guarded<Attempt>(async () => {
      const response = await this.method(target, 'crm.lead.add', bitrixLeadBody(appeal), call)
      const body = parseJson(response.text) as { result?: unknown; error?: unknown } | undefined
      if (response.status === 200 && body && body.error === undefined) {
        const id = body.result
        if (typeof id === 'number' || typeof id === 'string') return { ok: true, crmId: String(id) }
        return failure('bad_answer', { retry: true, sent: true })
      }
      return bitrixFailure(response)
    })
  }

  async lookup(target: BitrixTarget, appeal: AppealForDelivery, call: Call): Promise<Lookup> {
    return this.guarded<Lookup>(async () => {
      const response = await this.method(
        target,
        'crm.lead.list',
        {
          filter: { ORIGINATOR_ID, ORIGIN_ID: appeal.crm_key },
          select: ['ID', 'ORIGIN_ID'],
        },
        call,
      )
      const body = parseJson(response.text) as { result?: unknown; error?: unknown } | undefined
      if (response.status !== 200 || !body || body.error !== undefined) {
        return { ...bitrixFailure(response), retry: true }
      }
      if (!Array.isArray(body.result)) return failure('bad_answer', { retry: true, sent: true })
      const lead = (body.result as { ID?: unknown; ORIGIN_ID?: unknown }[]).find(
        (l) => l.ORIGIN_ID === undefined || l.ORIGIN_ID === appeal.crm_key,
      )
      return { found: lead?.ID !== undefined ? String(lead.ID) : null }
    })
  }

  /** «Проверить»: `profile`, the webhook's user. */
  async check(target: BitrixTarget, call: Call): Promise<{ ok: true; name: string } | Failure> {
    return this.guarded(async () => {
      const response = await this.method(target, 'profile', {}, call)
      const body = parseJson(response.text) as
        { result?: { NAME?: unknown; LAST_NAME?: unknown }; error?: unknown } | undefined
      if (response.status !== 200 || !body || body.error !== undefined || !body.result) {
        return bitrixFailure(response)
      }
      const name = [body.result.NAME, body.result.LAST_NAME]
        .filter((p): p is string => typeof p === 'string' && p !== '')
        .join(' ')
      return { ok: true as const, name }
    })
  }
}
