import * as v from 'valibot'
import { ApiErrorBody, ERROR_CODES } from '../domain/api-error.ts'

/**
 * The only caller of `fetch` in the app and the workers. Bearer token, JSON bodies, query arrays as
 * repeated keys, an Idempotency-Key on mutations, every response validated by a domain schema.
 */

export type Query = Record<
  string,
  string | number | boolean | null | undefined | readonly (string | number)[]
>

export interface ApiConfig {
  /** Base URL of the API host; '' means same origin. */
  baseUrl: string
  /** Reads the current access token (localStorage on the page, the mirror in workers). */
  getToken: () => string | null | Promise<string | null>
  /** How long a request may go unanswered before it counts as lost (default 30 s). */
  timeoutMs?: number
  /**
   * Told after every request whether the API answered (any HTTP answer of its own, errors too) or
   * not (no connection, a timeout, a page that is not the API's): the sync status says «Нет сети»
   * from that, not from `navigator.onLine` alone (docs/app-shell.md, "Sync status").
   */
  onAnswer?: (answered: boolean) => void
}

let config: ApiConfig = { baseUrl: '', getToken: () => null }

export function configureApi(next: Partial<ApiConfig>): void {
  config = { ...config, ...next }
}

/** The current configuration (src/api/upload.ts sends with XMLHttpRequest for progress). */
export function apiConfig(): Readonly<ApiConfig> {
  return config
}

/** The server answered with an error status. `message` is the server's Russian text. */
export class ApiError extends Error {
  override readonly name = 'ApiError'
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string> = {},
    /** A `409 conflict` after a stale `If-Match` carries the row as the server has it now. */
    readonly current?: ServerRow,
  ) {
    super(message)
  }
}

/** A row as the server returns it (a conflict's current state). */
export type ServerRow = { id: number; version?: number | undefined } & Record<string, unknown>

/** The request never got an HTTP answer (offline, DNS, reset, timeout). */
export class NetworkError extends Error {
  override readonly name = 'NetworkError'
}

/** The server answered 2xx with a body that does not match the contract. */
export class ContractError extends Error {
  override readonly name = 'ContractError'
}

export function buildQuery(query: Query | undefined): string {
  if (!query) return ''
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item))
    else params.append(key, String(value))
  }
  const s = params.toString()
  return s ? `?${s}` : ''
}

export interface RequestOptions<S extends v.GenericSchema> {
  method?: 'GET' | 'POST'
  query?: Query
  body?: unknown
  /** Marks the request as a mutation: sent with this Idempotency-Key. */
  idempotencyKey?: string
  schema: S
  signal?: AbortSignal
  timeoutMs?: number
  /** Sent instead of the configured token (revoking a token no longer in the session). */
  token?: string
  /** The version the change started from: sent as `If-Match`, refused with 409 when stale. */
  ifMatch?: IfMatch | undefined
}

/**
 * The precondition of a write: the version it started from, and, for the person's choice after a
 * conflict («Оставить моё»), the fields they kept over a colleague's values, sent as `Keep-Mine`
 * so that the colleague is told (docs/API.md, "Conditional writes").
 */
export type IfMatch = number | { version: number; keepMine: readonly string[] }

export async function request<S extends v.GenericSchema>(
  path: string,
  options: RequestOptions<S>,
): Promise<v.InferOutput<S>> {
  try {
    const result = await send(path, options)
    config.onAnswer?.(true)
    return result
  } catch (error) {
    // Called off by the caller (a screen that went away): that says nothing about the network.
    if (!options.signal?.aborted) config.onAnswer?.(!(error instanceof NetworkError))
    throw error
  }
}

async function send<S extends v.GenericSchema>(
  path: string,
  options: RequestOptions<S>,
): Promise<v.InferOutput<S>> {
  const headers: Record<string, string> = { Accept: 'application/json' }
  const token = options.token ?? (await config.getToken())
  if (token) headers.Authorization = `Bearer ${token}`
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey
  const precondition = options.ifMatch
  if (typeof precondition === 'number') headers['If-Match'] = String(precondition)
  else if (precondition) {
    headers['If-Match'] = String(precondition.version)
    if (precondition.keepMine.length > 0) headers['Keep-Mine'] = precondition.keepMine.join(', ')
  }
  let body: BodyInit | undefined
  if (options.body instanceof FormData) body = options.body
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json'
    body = JSON.stringify(options.body)
  }
  const timeout = AbortSignal.timeout(options.timeoutMs ?? config.timeoutMs ?? 30_000)
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
  let response: Response
  try {
    response = await fetch(config.baseUrl + path + buildQuery(options.query), {
      method: options.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      signal,
      cache: 'no-store',
    })
  } catch (cause) {
    throw new NetworkError(cause instanceof Error ? cause.message : String(cause), { cause })
  }
  return readResponse(response, options.schema)
}

export async function readResponse<S extends v.GenericSchema>(
  response: Response,
  schema: S,
): Promise<v.InferOutput<S>> {
  // An answer that is not the API's — a captive portal's page, a body cut off on the way, the wrong
  // content type — is no answer at all: the request is tried again later, never given up.
  const type = response.headers.get('Content-Type') ?? ''
  if (!/\bjson\b/i.test(type) && response.status < 500) {
    await response.body?.cancel().catch(() => undefined)
    throw new NetworkError(`Not an API answer (${response.status}, ${type || 'no content type'})`)
  }
  let text: string
  try {
    text = await response.text()
  } catch (cause) {
    throw new NetworkError('The answer was cut off', { cause })
  }
  let json: unknown = null
  if (text) {
    try {
      json = JSON.parse(text)
    } catch (cause) {
      if (response.ok) throw new NetworkError('The answer was cut off', { cause })
      json = null
    }
  }
  if (!response.ok) {
    const parsed = v.safeParse(ApiErrorBody, json)
    if (parsed.success) {
      const { code, message, fields, current } = parsed.output.error
      throw new ApiError(response.status, code, message, fields, current)
    }
    throw new ApiError(response.status, `http_${response.status}`, '')
  }
  const parsed = v.safeParse(schema, json)
  if (!parsed.success) {
    throw new ContractError(`Unexpected response: ${v.summarize(parsed.issues)}`)
  }
  return parsed.output
}

/**
 * True for failures worth retrying later: no answer, 5xx, 429, 408, and a 409 saying the same
 * Idempotency-Key is still being answered (an earlier try of this very request is still running on
 * the server: its answer will be there for the retry).
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof NetworkError) return true
  if (error instanceof ApiError)
    return (
      error.status >= 500 ||
      error.status === 429 ||
      error.status === 408 ||
      (error.status === 409 && error.code === ERROR_CODES.idempotencyPending)
    )
  return false
}

/**
 * Opens a `text/event-stream` (live changes): the raw response, whose body the caller reads as it
 * arrives. The token goes in the header as on every call; `lastEventId` resumes after that event.
 */
export async function openEventStream(
  path: string,
  options: { query?: Query; lastEventId?: string | null; signal: AbortSignal },
): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'text/event-stream' }
  const token = await config.getToken()
  if (token) headers.Authorization = `Bearer ${token}`
  if (options.lastEventId) headers['Last-Event-ID'] = options.lastEventId
  return fetch(config.baseUrl + path + buildQuery(options.query), {
    headers,
    signal: options.signal,
    cache: 'no-store',
  })
}
