import { createHmac } from 'node:crypto'
import { OutboundError } from './outbound.ts'
import {
  failure,
  retryAfterMs,
  transportFailure,
  type AppealForDelivery,
  type Attempt,
  type Call,
} from './types.ts'

/**
 * The gift block's `button_hook_url` (docs/crm.md, "Web hook"): the request as JSON, signed with
 * the workspace's hook secret: `X-Promo-Signature: sha256=<hex HMAC-SHA256 of the body>`. A web
 * hook has no look-up, so a resend after an unanswered call may repeat it: the receiver tells
 * repeats by `X-Promo-Request-Id` (the request's id, also `id` in the body).
 */

export function hookBody(appeal: AppealForDelivery): string {
  return JSON.stringify({
    id: appeal.id,
    key: appeal.crm_key,
    kind: appeal.kind,
    project_id: appeal.project_id,
    project_name: appeal.project_name,
    block_id: appeal.block_id,
    name: appeal.name,
    phone: appeal.phone,
    email: appeal.email,
    comment: appeal.comment,
    specialist_id: appeal.specialist_id,
    date: appeal.date,
    price: appeal.price,
    gift: appeal.kind === 'gift' ? appeal.block_text : '',
    utm: appeal.utm,
    referrer: appeal.referrer,
    page_url: appeal.page_url,
    created_at: appeal.created_at,
  })
}

export function hookSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`
}

export function hookRateKey(url: string): string | null {
  try {
    return `hook:${new URL(url).host}`
  } catch {
    return null
  }
}

export class HookChannel {
  constructor(private readonly settings: { timeoutMs: number }) {}

  async send(url: string, secret: string, appeal: AppealForDelivery, call: Call): Promise<Attempt> {
    const body = hookBody(appeal)
    try {
      const response = await call(
        {
          method: 'POST',
          url,
          headers: {
            'Content-Type': 'application/json',
            'X-Promo-Signature': hookSignature(secret, body),
            'X-Promo-Request-Id': String(appeal.id),
          },
          body,
          timeoutMs: this.settings.timeoutMs,
        },
        hookRateKey(url),
      )
      if (response.status >= 200 && response.status < 300) return { ok: true, crmId: null }
      if (response.status >= 500 || response.status === 408) {
        return failure('server_error', {
          retry: true,
          sent: true,
          detail: `HTTP ${response.status}`,
        })
      }
      if (response.status === 429) {
        return failure('rate_limited', {
          retry: true,
          retryAfterMs: retryAfterMs(response.headers['retry-after']),
        })
      }
      return failure('hook_rejected', { detail: `HTTP ${response.status}` })
    } catch (error) {
      if (error instanceof OutboundError) return transportFailure(error)
      if (error instanceof TypeError) return failure('bad_url')
      throw error
    }
  }
}
