import type { Submission } from '../published/submission.ts'
import type { OutboundError, OutboundRequest, OutboundResponse } from './outbound.ts'

/** A request as the CRMs are sent it: the stored request with what its form named. */
export interface AppealForDelivery extends Omit<
  Submission,
  'submission_id' | 'spam' | 'hook_url' | 'utm'
> {
  id: number
  utm: Record<string, string>
  /** `pb-<id>-<salt>`: what a look-up finds the lead by (docs/crm.md, "No duplicate lead"). */
  crm_key: string
  /** ISO 8601. */
  created_at: string
  specialist_name: string
  specialist_position: string
  /** The block's own text (the gift, the price) as it is now. */
  block_text: string
}

/** How an attempt ended. */
export type Attempt =
  | { ok: true; crmId: string | null }
  | {
      ok: false
      /** Worth trying again later; otherwise the delivery fails at once. */
      retry: boolean
      /** The CRM may have acted on the request (no answer, a 5xx): look it up before sending again. */
      sent: boolean
      /** Key of the Russian text (server/common/messages.ts, DELIVERY_ERRORS). */
      code: string
      /** The CRM's own words, shown after the text. */
      detail?: string
      /** The CRM said when to come back (Retry-After). */
      retryAfterMs?: number
      /** Refused for the vendor's rate: the account pauses for every instance. */
      rate?: boolean
      /** amoCRM refused the token: the integration waits for a new connection (amo.ts). */
      block?: boolean
      /** Not an attempt (nothing was sent: another instance is refreshing the token). */
      free?: boolean
    }

export type Failure = Extract<Attempt, { ok: false }>

/** A look-up of a request by its key: the lead found, none, or why it could not be told. */
export type Lookup = { found: string | null } | Failure

/** One outbound call, paced by the account's rate and within the delivery's lease (delivery.ts). */
export type Call = (request: OutboundRequest, rateKey: string | null) => Promise<OutboundResponse>

export const failure = (
  code: string,
  options: Partial<Omit<Failure, 'ok' | 'code'>> = {},
): Failure => ({ ok: false, retry: false, sent: false, code, ...options })

/** Seconds or an HTTP date in Retry-After, as milliseconds (capped at a day). */
export function retryAfterMs(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header
  if (!value) return undefined
  const seconds = /^\s*\d+\s*$/.test(value)
    ? Number(value)
    : (Date.parse(value) - Date.now()) / 1000
  if (!Number.isFinite(seconds) || seconds < 0) return undefined
  return Math.min(seconds * 1000, 86_400_000)
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** An answer's status as a failure: 5xx and 408 may have been acted on; other 4xx are final. */
export function statusFailure(
  prefix: string,
  response: OutboundResponse,
  detail?: string,
): Failure {
  const status = response.status
  if (status >= 500 || status === 408) {
    return failure('server_error', { retry: true, sent: true, detail: `HTTP ${status}` })
  }
  if (status === 429) {
    return failure('rate_limited', {
      retry: true,
      rate: true,
      retryAfterMs: retryAfterMs(response.headers['retry-after']),
    })
  }
  return failure(`${prefix}_http_${status}`, { detail: detail ?? `HTTP ${status}` })
}

/** A call that got no answer, as a failure of the attempt. */
export function transportFailure(error: OutboundError): Failure {
  switch (error.reason) {
    case 'forbidden_address':
    case 'bad_url':
      return failure(error.reason)
    case 'timeout':
      return failure('timeout', { retry: true, sent: error.sent })
    case 'too_large':
      return failure('too_large', { retry: true, sent: true })
    default:
      return failure('network', { retry: true, sent: error.sent })
  }
}
