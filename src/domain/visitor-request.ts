import * as v from 'valibot'
import { email as emailSchema, FieldCode, isStorableText, LIMITS } from './validation.ts'

/**
 * A visitor's request from a published page's gift, price or subscribe form (docs/requests.md):
 * what the form sends and the rules it is held to, shared by the server and the page.
 */

/**
 * A Russian phone number in any common writing (`8 (912) 345-67-89`, `+7 912 3456789`,
 * `9123456789`, `7-912-345-67-89`) as `+7XXXXXXXXXX`; null when it is not one.
 */
export function normalizeRuPhone(input: string): string | null {
  const trimmed = input.trim()
  if (!/^[+\d\s().-]+$/.test(trimmed)) return null
  if ((trimmed.match(/\+/g) ?? []).length > 1 || trimmed.indexOf('+') > 0) return null
  const digits = trimmed.replace(/\D/g, '')
  if (digits.length === 10 && digits.startsWith('9')) return `+7${digits}`
  if (digits.length === 11 && (digits.startsWith('7') || digits.startsWith('8'))) {
    // «+8…» is no Russian number.
    if (trimmed.startsWith('+') && digits.startsWith('8')) return null
    return `+7${digits.slice(1)}`
  }
  return null
}

const text = (max: number) =>
  v.pipe(
    v.optional(v.string(FieldCode.invalidValue), ''),
    v.check(isStorableText, FieldCode.invalidCharacters),
    v.trim(),
    v.maxLength(max, FieldCode.tooLong),
  )

/** What a form sends, as the server reads it (urlencoded or JSON). */
export const VisitorRequestInput = v.object({
  block_id: v.pipe(
    v.union([v.number(), v.pipe(v.string(), v.regex(/^\d{1,10}$/), v.transform(Number))]),
    v.integer(FieldCode.invalidValue),
    v.minValue(1, FieldCode.invalidValue),
  ),
  name: v.pipe(text(LIMITS.name), v.nonEmpty(FieldCode.required)),
  phone: v.pipe(
    text(50),
    v.nonEmpty(FieldCode.required),
    v.check((s) => normalizeRuPhone(s) !== null, FieldCode.invalidPhone),
    v.transform((s) => normalizeRuPhone(s)!),
  ),
  email: v.pipe(
    text(LIMITS.name),
    v.check((s) => s === '' || v.safeParse(emailSchema, s).success, FieldCode.invalidEmail),
  ),
  comment: text(2000),
  /** The consent to personal data processing (152-ФЗ): a ticked box. */
  consent: v.pipe(
    v.optional(v.union([v.string(), v.boolean()]), ''),
    v.check((s) => s === true || s === 'on' || s === '1' || s === 'true', 'consent_required'),
  ),
  form_token: text(200),
  submission_id: v.pipe(text(100), v.regex(/^[A-Za-z0-9_-]{8,100}$/, FieldCode.invalidValue)),
  /** The honeypot: people leave it empty, bots fill it. */
  website: text(LIMITS.url),
  utm_source: text(LIMITS.name),
  utm_medium: text(LIMITS.name),
  utm_campaign: text(LIMITS.name),
  utm_content: text(LIMITS.name),
  utm_term: text(LIMITS.name),
  referrer: text(LIMITS.url),
})
export type VisitorRequestInput = v.InferOutput<typeof VisitorRequestInput>

export const UTM_KEYS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
  'utm_term',
] as const

/** Seconds a person needs at least between seeing a form and sending it. */
export const MIN_FILL_SECONDS = 3
/** A form's token is taken for a day (a page left open longer asks to send again). */
export const FORM_TOKEN_TTL_SECONDS = 24 * 3600
