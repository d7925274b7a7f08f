import * as v from 'valibot'

/**
 * Validation messages are codes, not text: the schemas are shared by the client, the sync worker and
 * the server, and each edge turns a code into Russian its own way (the client through Lingui, the
 * server through its own table). `requirement` of the valibot issue carries the limit, if any.
 */
export const FieldCode = {
  required: 'required',
  tooLong: 'too_long',
  tooShort: 'too_short',
  notNumber: 'not_number',
  notInteger: 'not_integer',
  outOfRange: 'out_of_range',
  invalidEmail: 'invalid_email',
  invalidUrl: 'invalid_url',
  httpsOnly: 'https_only',
  invalidChoice: 'invalid_choice',
  invalidDate: 'invalid_date',
  invalidColor: 'invalid_color',
  invalidSubdomain: 'invalid_subdomain',
  invalidPhone: 'invalid_phone',
  invalidPrice: 'invalid_price',
  invalidValue: 'invalid_value',
  invalidCharacters: 'invalid_characters',
  invalidSlug: 'invalid_slug',
  reservedSlug: 'reserved_slug',
} as const
export type FieldCode = (typeof FieldCode)[keyof typeof FieldCode]

export const LIMITS = {
  name: 200,
  shortText: 500,
  longText: 5000,
  url: 2048,
  password: { min: 8, max: 200 },
  coordinate: 100_000,
} as const

/** The largest id the database's integer columns hold (2³¹ − 1). */
export const MAX_ID = 2_147_483_647

/**
 * A numeric database id (a positive integer the id columns can hold: a larger one names nothing and
 * is refused as out of range, never sent to the database). Local, not yet synced ids are negative in
 * the mirror.
 */
export const Id = v.pipe(
  v.number(FieldCode.notNumber),
  v.integer(FieldCode.notInteger),
  v.minValue(1, FieldCode.outOfRange),
  v.maxValue(MAX_ID, FieldCode.outOfRange),
)

/**
 * A row's version (docs/API.md, "Versions"): 1 when made, one more on every write that changes
 * the row. Optional in the response schemas: rows stored before the server sent it stay valid.
 */
export const RowVersion = v.optional(
  v.pipe(
    v.number(FieldCode.notNumber),
    v.integer(FieldCode.notInteger),
    v.minValue(1, FieldCode.outOfRange),
  ),
)

/** Accepts an id given as a query string ("12") or a number. */
export const IdParam = v.pipe(
  v.union(
    [
      v.number(),
      v.pipe(v.string(), v.regex(/^\d{1,15}$/, FieldCode.notInteger), v.transform(Number)),
    ],
    FieldCode.notInteger,
  ),
  Id,
)

/**
 * Text a database column stores as it was typed: no NUL character (PostgreSQL text cannot hold
 * one) and no half of a surrogate pair (it would come back as U+FFFD). Anything else is kept.
 */
export function isStorableText(text: string): boolean {
  // eslint-disable-next-line no-control-regex -- finding the NUL character is the point
  return !/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text)
}

/**
 * The one rule every text field of every input starts with: a string (`message` when it is not
 * one) that a database column can store (isStorableText), `invalid_characters` otherwise — first,
 * before any rule of the field's own, so a NUL or half a surrogate pair always reads the same
 * (docs/API.md, "Errors"). Build a text field on this, never on a bare `v.string()`.
 */
export const storableString = (message: FieldCode = FieldCode.invalidValue) =>
  v.pipe(v.string(message), v.check(isStorableText, FieldCode.invalidCharacters))

export const requiredText = (max: number = LIMITS.name) =>
  v.pipe(
    storableString(FieldCode.required),
    v.trim(),
    v.nonEmpty(FieldCode.required),
    v.maxLength(max, FieldCode.tooLong),
  )

export const optionalText = (max: number = LIMITS.shortText) =>
  v.pipe(storableString(FieldCode.invalidValue), v.maxLength(max, FieldCode.tooLong))

export const finiteNumber = (min: number = -LIMITS.coordinate, max: number = LIMITS.coordinate) =>
  v.pipe(
    v.number(FieldCode.notNumber),
    v.finite(FieldCode.notNumber),
    v.minValue(min, FieldCode.outOfRange),
    v.maxValue(max, FieldCode.outOfRange),
  )

export const email = v.pipe(
  storableString(FieldCode.required),
  v.trim(),
  v.nonEmpty(FieldCode.required),
  v.maxLength(LIMITS.name, FieldCode.tooLong),
  v.email(FieldCode.invalidEmail),
)

const isUrl = (value: string, protocols: readonly string[]) => {
  try {
    const url = new URL(value)
    return protocols.includes(url.protocol) && url.hostname.length > 0
  } catch {
    return false
  }
}

/** http(s) URL; empty string allowed (the field is optional). */
export const optionalWebUrl = v.pipe(
  storableString(FieldCode.invalidUrl),
  v.trim(),
  v.maxLength(LIMITS.url, FieldCode.tooLong),
  v.check((s) => s === '' || isUrl(s, ['http:', 'https:']), FieldCode.invalidUrl),
)

/** https URL, required. */
export const httpsUrl = v.pipe(
  storableString(FieldCode.required),
  v.trim(),
  v.nonEmpty(FieldCode.required),
  v.maxLength(LIMITS.url, FieldCode.tooLong),
  v.check((s) => isUrl(s, ['http:', 'https:']), FieldCode.invalidUrl),
  v.check((s) => s.startsWith('https://'), FieldCode.httpsOnly),
)

/** CSS colour as #rgb, #rrggbb or #rrggbbaa, or "transparent". */
export const color = v.pipe(
  storableString(FieldCode.invalidColor),
  v.regex(
    /^(#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})|transparent)$/,
    FieldCode.invalidColor,
  ),
)

/**
 * An issue's message code. A field left out of an object comes from valibot as the object's own
 * issue ("Invalid key: Expected …", English, no code): for a person it is a required field.
 */
export function issueCode(issue: v.BaseIssue<unknown>): string {
  if (issue.type === 'object' && issue.input === undefined) return FieldCode.required
  return issue.message
}

/** One field's message code per field name, for forms and the API error body. */
export function fieldCodes(issues: readonly v.BaseIssue<unknown>[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const issue of issues) {
    const key = v.getDotPath(issue) ?? '_'
    if (!(key in out)) out[key] = issueCode(issue)
  }
  return out
}
