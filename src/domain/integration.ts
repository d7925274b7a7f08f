import * as v from 'valibot'
import {
  FieldCode,
  httpsUrl,
  Id,
  LIMITS,
  optionalText,
  requiredText,
  RowVersion,
  storableString,
} from './validation.ts'

export const INTEGRATION_KINDS = ['amo', 'bitrix'] as const
export const IntegrationKind = v.picklist(INTEGRATION_KINDS)
export type IntegrationKind = v.InferOutput<typeof IntegrationKind>

/** The account part of `<subdomain>.amocrm.ru`. */
const amoSubdomain = v.pipe(
  storableString(FieldCode.required),
  v.trim(),
  v.toLowerCase(),
  v.nonEmpty(FieldCode.required),
  v.maxLength(63, FieldCode.tooLong),
  v.regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, FieldCode.invalidSubdomain),
)

const BITRIX_HOST =
  /^[a-z0-9-]+(\.[a-z0-9-]+)*\.bitrix24\.(ru|by|kz|ua|com|de|eu|es|fr|it|pl|br|in|cn|tc|co|jp|vn|id|com\.br|com\.tr|mx)$/i

const bitrixUrl = v.pipe(
  httpsUrl,
  v.check((s) => {
    try {
      return BITRIX_HOST.test(new URL(s).hostname)
    } catch {
      return false
    }
  }, FieldCode.invalidUrl),
)

export const AmoFields = {
  name: requiredText(),
  subdomain: amoSubdomain,
  client_id: requiredText(LIMITS.name),
  client_secret: requiredText(LIMITS.shortText),
  redirect_uri: httpsUrl,
  /**
   * A private integration's long-lived token (docs/crm.md): write-only, answered masked like
   * `client_secret`, '' when none. With it, requests go without OAuth.
   */
  long_lived_token: v.optional(v.pipe(optionalText(LIMITS.longText), v.trim())),
}

export const BitrixFields = {
  name: requiredText(),
  portal_url: bitrixUrl,
  webhook_url: bitrixUrl,
}

export const AmoIntegration = v.object({
  id: Id,
  workspace_id: Id,
  version: RowVersion,
  name: v.string(),
  subdomain: v.string(),
  client_id: v.string(),
  client_secret: v.string(),
  redirect_uri: v.string(),
  /** Masked (maskOptionalSecret); '' when none. Optional: rows stored before it stay valid. */
  long_lived_token: v.optional(v.string()),
  enabled: v.boolean(),
})
export type AmoIntegration = v.InferOutput<typeof AmoIntegration>

export const BitrixIntegration = v.object({
  id: Id,
  workspace_id: Id,
  version: RowVersion,
  name: v.string(),
  portal_url: v.string(),
  webhook_url: v.string(),
  enabled: v.boolean(),
})
export type BitrixIntegration = v.InferOutput<typeof BitrixIntegration>

export const AmoInput = v.object({ workspace_id: Id, ...AmoFields })
export const BitrixInput = v.object({ workspace_id: Id, ...BitrixFields })
/** Update: id plus any subset of fields; a field left out (a secret, say) keeps its value. */
export const AmoUpdate = v.object({ id: Id, ...v.partial(v.object(AmoFields)).entries })
export const BitrixUpdate = v.object({ id: Id, ...v.partial(v.object(BitrixFields)).entries })

export const MASK = '••••'

/** Shorter secrets show nothing of themselves when masked: four characters of few say too much. */
const SHOW_TAIL_FROM = 12

/** Masks a secret for display: the last four characters of a long one, nothing of a short one. */
export function maskSecret(secret: string): string {
  if (secret.length < SHOW_TAIL_FROM) return MASK
  return MASK + secret.slice(-4)
}

/**
 * Masks a Bitrix24 webhook URL for display: the portal and the user segment stay, the token and
 * everything after it in the path is masked (`/rest/<user>/<token>/`, any case, any user segment:
 * `1`, `admin`), and so is every query value (`?auth=<token>`). A value that is not a URL shows
 * nothing.
 */
export function maskWebhookUrl(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return MASK
  }
  const segments = parsed.pathname.split('/')
  const rest = segments.findIndex((segment) => segment.toLowerCase() === 'rest')
  // Without a /rest/ segment nothing in the path is known to be public: all of it is masked.
  const firstSecret = rest >= 0 ? rest + 2 : 1
  const path = segments
    .map((segment, i) => (i >= firstSecret && segment !== '' ? maskSecret(segment) : segment))
    .join('/')
  const keys: string[] = []
  parsed.searchParams.forEach((_value, key) => keys.push(key))
  const query = keys.map((key) => `${key}=${MASK}`).join('&')
  return `${parsed.origin}${path}${query ? `?${query}` : ''}`
}

/** A secret that may be empty: '' stays '' (none set), anything else as maskSecret. */
export function maskOptionalSecret(secret: string): string {
  return secret === '' ? '' : maskSecret(secret)
}

export function isMasked(value: string): boolean {
  return value.includes(MASK)
}
