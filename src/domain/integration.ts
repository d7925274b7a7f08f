import * as v from 'valibot'
import { FieldCode, httpsUrl, Id, LIMITS, requiredText } from './validation.ts'

export const INTEGRATION_KINDS = ['amo', 'bitrix'] as const
export const IntegrationKind = v.picklist(INTEGRATION_KINDS)
export type IntegrationKind = v.InferOutput<typeof IntegrationKind>

/** The account part of `<subdomain>.amocrm.ru`. */
const amoSubdomain = v.pipe(
  v.string(FieldCode.required),
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
}

export const BitrixFields = {
  name: requiredText(),
  portal_url: bitrixUrl,
  webhook_url: bitrixUrl,
}

export const AmoIntegration = v.object({
  id: Id,
  workspace_id: Id,
  name: v.string(),
  subdomain: v.string(),
  client_id: v.string(),
  client_secret: v.string(),
  redirect_uri: v.string(),
  enabled: v.boolean(),
})
export type AmoIntegration = v.InferOutput<typeof AmoIntegration>

export const BitrixIntegration = v.object({
  id: Id,
  workspace_id: Id,
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

/** Masks a secret for display: keeps the last four characters. */
export function maskSecret(secret: string): string {
  if (secret.length <= 4) return MASK
  return MASK + secret.slice(-4)
}

/** Masks the token part of a Bitrix24 webhook URL (`/rest/<user>/<token>/`). */
export function maskWebhookUrl(url: string): string {
  return url.replace(
    /(\/rest\/\d+\/)([^/]+)/,
    (_m, head: string, token: string) => head + maskSecret(token),
  )
}

export function isMasked(value: string): boolean {
  return value.includes(MASK)
}
