import * as v from 'valibot'

/** The error body of every failed API call (docs/API.md "Errors"). `message` is Russian text. */
export const ApiErrorBody = v.object({
  error: v.object({
    code: v.string(),
    message: v.string(),
    fields: v.optional(v.record(v.string(), v.string())),
    /** With `conflict` after a stale `If-Match`: the row as it is on the server now. */
    current: v.optional(v.looseObject({ id: v.number(), version: v.optional(v.number()) })),
  }),
})
export type ApiErrorBody = v.InferOutput<typeof ApiErrorBody>

export const ERROR_CODES = {
  validation: 'validation_error',
  badJson: 'bad_json',
  /** A request Node cannot parse as HTTP (a broken request line or chunk framing). */
  badRequest: 'bad_request',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  notFound: 'not_found',
  conflict: 'conflict',
  /** The same Idempotency-Key is still being answered: try again (the stored answer will come). */
  idempotencyPending: 'idempotency_pending',
  /** The Idempotency-Key was first used for another request (method, path, query or body). */
  idempotencyMismatch: 'idempotency_mismatch',
  /** Another project's page already has this address (project/set_slug). */
  slugTaken: 'slug_taken',
  tooLarge: 'too_large',
  /** A request whose headers or body did not arrive in time (Node's own timeouts). */
  timeout: 'timeout',
  unsupportedMedia: 'unsupported_media_type',
  rateLimited: 'rate_limited',
  server: 'server_error',
} as const

export const Deleted = v.object({ id: v.number(), deleted: v.literal(true) })
export type Deleted = v.InferOutput<typeof Deleted>
