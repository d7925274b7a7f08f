import { Agent, request as httpRequest } from 'node:http'
import fc from 'fast-check'
import type * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Services } from '../../server/services/services.ts'
import { isStorableText } from '../../src/domain/validation.ts'
import { startServer, type RunningServer } from '../../server/start.ts'
import { MemoryUploadStorage } from '../../server/uploads/storage.ts'
import {
  apiEndpoints,
  blockSamples,
  recordSamples,
  type Endpoint,
  type EndpointRows,
} from './endpoints.ts'
import { pngImage } from './helpers.ts'

/**
 * Generated requests to every endpoint of the API over a real socket: bodies, queries and headers
 * of the wrong types, extremes, control characters, huge and deeply nested values, fields left
 * out and extra ones, chunked and empty bodies. Whatever comes, the server
 * - never answers 5xx,
 * - never leaves the client a dead socket (the next request on the same connection is answered),
 * - answers every 4xx with the error body of docs/API.md (`{"error":{"code","message"}}`),
 * - stores nothing when it refuses (the database and the uploads are as they were).
 *
 * Then every text field of every endpoint's valid sample in turn gets a NUL or half a surrogate
 * pair: always `422 validation_error` naming that field («Текст содержит недопустимые символы» for
 * text), never 5xx, nothing stored (docs/API.md, "Errors"). The endpoints and their samples are
 * endpoints.ts.
 *
 * A fixed seed and a few hundred runs here; `npm run fuzz` runs more (FUZZ_RUNS, FUZZ_SEED).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 600)
const SEED = Number(process.env.FUZZ_SEED ?? 20261124)

/** Upload storage that counts what it was asked to store. */
class CountingUploads extends MemoryUploadStorage {
  saved = 0
  override async save(name: string, bytes: Uint8Array): Promise<void> {
    this.saved += 1
    await super.save(name, bytes)
  }
}

let server: RunningServer
/** The server's log of faults: shown with a 5xx. */
const serverErrors: Record<string, unknown>[] = []
let services: Services
let agent: Agent
const uploads = new CountingUploads()
/** What the owner has, so that generated requests reach real rows too. */
const rows: EndpointRows = { ids: {}, ownerEmail: 'fuzz-owner@example.ru' }
let ownerToken = ''
let otherToken = ''

type Reply = {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body: Uint8Array | null,
  chunked: boolean,
): Promise<Reply> {
  const url = new URL(path, server.url)
  return new Promise((resolve, reject) => {
    const all = { ...headers }
    if (body && !chunked) all['Content-Length'] = String(body.byteLength)
    const req = httpRequest(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        headers: all,
        agent,
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        )
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    if (body && chunked) {
      const half = Math.floor(body.byteLength / 2)
      req.write(body.subarray(0, half))
      req.write(body.subarray(half))
    } else if (body) {
      req.write(body)
    }
    req.end()
  })
}

async function api(method: string, path: string, body?: unknown, token = ownerToken) {
  const bytes = body === undefined ? null : new TextEncoder().encode(JSON.stringify(body))
  const headers: Record<string, string> = { 'Content-Type': 'application/json' }
  if (token) headers.Authorization = `Bearer ${token}`
  const reply = await send(method, path, headers, bytes, false)
  if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${reply.body}`)
  return JSON.parse(reply.body) as Record<string, unknown>
}

async function upload(path: string, fields: Record<string, string>) {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(pngImage(8, 6))], { type: 'image/png' }), 'a.png')
  for (const [key, value] of Object.entries(fields)) form.append(key, value)
  const encoded = new Response(form)
  const bytes = new Uint8Array(await encoded.arrayBuffer())
  const reply = await send(
    'POST',
    path,
    {
      'Content-Type': encoded.headers.get('Content-Type')!,
      Authorization: `Bearer ${ownerToken}`,
    },
    bytes,
    false,
  )
  return JSON.parse(reply.body) as Record<string, unknown>
}

beforeAll(async () => {
  server = await startServer({
    port: 0,
    dataDir: 'memory',
    uploads,
    // No request is delivered (its retries would write change events while the tests compare
    // the tables), and «Проверить» calls a port nothing listens on, not the CRMs.
    delivery: { testOrigin: 'http://127.0.0.1:9', timeoutMs: 1_000, enabled: false },
    log: (entry) => {
      if (entry.level === 'error' && 'message' in entry) serverErrors.push(entry)
    },
  })
  services = server.ready.services
  agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const owner = await api('POST', '/api/register', {
    name: 'Владелец',
    email: rows.ownerEmail,
    password: 'password123',
  })
  ownerToken = owner.access_token as string
  const other = await api('POST', '/api/register', {
    name: 'Другой',
    email: 'fuzz-other@example.ru',
    password: 'password123',
  })
  otherToken = other.access_token as string
  const workspaces = (await api('GET', '/api/workspace/list')) as unknown as { id: number }[]
  await seed(rows, workspaces[0]!.id)
}, 60_000)

/** Makes in the workspace a project, a background, a record of each kind and a block of each type. */
async function seed(target: EndpointRows, workspaceId: number) {
  const ids = target.ids
  ids.workspace = workspaceId
  ids.project = (
    await api('POST', '/api/project/add', {
      workspace_id: ids.workspace,
      name: 'Акция',
    })
  ).id as number
  ids.bg = (await upload('/api/project/add_bg', { project_id: String(ids.project) })).id as number
  for (const [kind, body] of Object.entries(recordSamples(target))) {
    ids[kind] = (await api('POST', `/api/${kind}/add`, body)).id as number
  }
  for (const [type, body] of Object.entries(blockSamples(target))) {
    ids[type] = (await api('POST', `/api/${type}/add`, body)).id as number
  }
  // A visitor's request, as the published page's route hands it on.
  ids.appeal = (
    await services.appeals.submit({
      workspace_id: ids.workspace,
      project_id: ids.project,
      block_id: ids.subscribe!,
      kind: 'subscribe',
      name: 'Посетитель',
      phone: '+79123456789',
      email: '',
      comment: '',
      specialist_id: null,
      date: '',
      price: null,
      utm: {},
      referrer: '',
      page_url: '',
      project_name: 'Акция',
      submission_id: `fuzz-${ids.workspace}`,
      ip: '',
      user_agent: '',
      spam: false,
      hook_url: '',
    })
  ).id
}

afterAll(async () => {
  agent?.destroy()
  await server?.close()
})

const ENDPOINTS = apiEndpoints(rows)

// ---------------------------------------------------------------------------------------------
// Values

/**
 * A value nested `depth` levels deep (arrays in objects in arrays …). JSON.stringify would overflow
 * the test's own stack on it, so it stays a marker until `toJson` writes it out as text.
 */
class Deep {
  constructor(readonly depth: number) {}
  toText(): string {
    const half = Math.floor(this.depth / 2)
    return '[{"a":'.repeat(half) + '1' + '}]'.repeat(half)
  }
}
const nest = (depth: number): unknown => new Deep(depth)

function toJson(value: unknown): string {
  if (value instanceof Deep) return value.toText()
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`)
    return `{${entries.join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

const oddString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\uD800',
    'x\uDC00y',
    '\u202Eevil',
    '\r\n\t',
    '😀',
    'javascript:alert(1)',
    'https://',
    'http://bitrix24.ru',
    '#zzz',
    '2026-13-45',
    '••••',
    '1e3',
    '-1',
    '2147483648',
    '0x10',
    'NaN',
    'Infinity',
    '__proto__',
    'constructor',
    "'; DROP TABLE users; --",
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'binary-ascii', maxLength: 40 }),
  fc
    .tuple(fc.string({ minLength: 1, maxLength: 8 }), fc.integer({ min: 100, max: 12_000 }))
    .map(([s, n]) => s.repeat(n)),
)

const oddNumber = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    1.5,
    2 ** 31 - 1,
    2 ** 31,
    -(2 ** 31),
    2 ** 53,
    Number.MAX_SAFE_INTEGER + 2,
    1e308,
    -1e308,
    5e-324,
    1e21,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
)

const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: oddString },
  { weight: 3, arbitrary: oddNumber },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [1, 2], { id: 1 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 20_000 }).map(nest) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
)

/** The sample with fields left out, replaced by odd values, and extra fields. */
function mutated(sample: Record<string, unknown>, values: fc.Arbitrary<unknown>) {
  const keys = Object.keys(sample)
  return fc
    .record({
      drop: keys.length ? fc.subarray(keys) : fc.constant<string[]>([]),
      replace: keys.length
        ? fc.dictionary(fc.constantFrom(...keys), values, { maxKeys: 3 })
        : fc.constant({}),
      extra: fc.dictionary(
        fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('id', 'type', '__proto__')),
        values,
        { maxKeys: 2 },
      ),
    })
    .map(({ drop, replace, extra }) => {
      const out: Record<string, unknown> = { ...sample }
      for (const key of drop) delete out[key]
      Object.assign(out, replace)
      for (const [key, value] of Object.entries(extra)) {
        Object.defineProperty(out, key, { value, enumerable: true, writable: true })
      }
      return out
    })
}

// ---------------------------------------------------------------------------------------------
// Requests

type Body =
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; text: string }
  | { kind: 'empty' }
  | { kind: 'huge' }
  | { kind: 'multipart'; fields: Record<string, string>; file: Uint8Array | 'png' | null }

interface FuzzRequest {
  endpoint: Endpoint
  method: string
  auth: 'none' | 'owner' | 'other' | 'garbage' | 'odd'
  oddAuth: string
  body: Body
  query: Record<string, unknown> | null
  chunked: boolean
  contentType: string | null
  idempotencyKey: string | null
  ifMatch: string | null
  forwardedFor: string | null
}

const headerSafe = (s: string) => s.replace(/[^\t\x20-\x7e]/g, '')

const requestArb: fc.Arbitrary<FuzzRequest> = fc.constantFrom(...ENDPOINTS).chain((endpoint) => {
  const sample = () => endpoint.sample()
  const jsonBody: fc.Arbitrary<Body> = fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .constant(null)
        .chain(() => mutated(sample(), oddValue))
        .map((value) => ({ kind: 'json' as const, value })),
    },
    {
      weight: 1,
      arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => ({ kind: 'json' as const, value })),
    },
    {
      weight: 1,
      arbitrary: fc
        .string({ unit: 'binary', maxLength: 60 })
        .map((text) => ({ kind: 'raw' as const, text })),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'empty' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'huge' as const }) },
  )
  const multipartBody: fc.Arbitrary<Body> = fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .record({
          fields: mutated(sample(), oddString.map(String)),
          file: fc.oneof(
            fc.constant<'png'>('png'),
            fc.constant(null),
            fc.uint8Array({ maxLength: 2_000 }),
          ),
        })
        .map(({ fields, file }) => ({
          kind: 'multipart' as const,
          fields: fields as Record<string, string>,
          file,
        })),
    },
    { weight: 1, arbitrary: jsonBody },
  )
  const query =
    endpoint.method === 'GET'
      ? fc.option(mutated(sample(), fc.oneof(oddString, oddNumber.map(String))), {
          nil: null,
          freq: 8,
        })
      : fc.constant(null)
  return fc.record({
    endpoint: fc.constant(endpoint),
    method: fc.oneof(
      { weight: 9, arbitrary: fc.constant(endpoint.method) },
      { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH') },
    ),
    auth: fc.constantFrom('none', 'owner', 'owner', 'owner', 'other', 'garbage', 'odd'),
    oddAuth: fc.oneof(
      fc.constantFrom(
        'Bearer',
        'Bearer ',
        'Basic abc',
        `Bearer ${'x'.repeat(5000)}`,
        'bearer  a b',
      ),
      fc.string({ unit: 'binary-ascii', maxLength: 50 }).map(headerSafe),
    ),
    body:
      endpoint.method === 'GET'
        ? fc.constant<Body>({ kind: 'empty' })
        : endpoint.multipart
          ? multipartBody
          : jsonBody,
    query,
    chunked: fc.boolean(),
    contentType: fc.option(
      fc.constantFrom(
        'application/json; charset=latin1',
        'text/plain',
        'multipart/form-data',
        'multipart/form-data; boundary=nope',
        'application/x-www-form-urlencoded',
        'application/json',
      ),
      { nil: null, freq: 6 },
    ),
    idempotencyKey: fc.option(
      fc.oneof(
        fc.uuid(),
        fc.constantFrom('', ' ', 'k'.repeat(300)),
        fc.string({ unit: 'binary-ascii', maxLength: 30 }).map(headerSafe),
      ),
      { nil: null, freq: 3 },
    ),
    forwardedFor: fc.option(
      fc.oneof(fc.ipV4(), fc.ipV6(), fc.string({ maxLength: 40 }).map(headerSafe)),
      { nil: null, freq: 4 },
    ),
    ifMatch: fc.option(
      fc.oneof(
        fc.integer({ min: 0, max: 4 }).map(String),
        fc.constantFrom('"1"', '"2', 'W/"1"', '*', '1.5', '99999999999999999999', ''),
        fc.string({ unit: 'binary-ascii', maxLength: 20 }).map(headerSafe),
      ),
      { nil: null, freq: 3 },
    ),
  })
})

function encode(request: FuzzRequest): {
  headers: Record<string, string>
  body: Uint8Array | null
  path: string
} {
  const headers: Record<string, string> = {}
  const token = { owner: ownerToken, other: otherToken, garbage: 'garbage-token' }
  if (request.auth === 'odd') headers.Authorization = request.oddAuth
  else if (request.auth !== 'none') headers.Authorization = `Bearer ${token[request.auth]}`
  if (request.idempotencyKey !== null) headers['Idempotency-Key'] = request.idempotencyKey
  if (request.forwardedFor !== null) headers['X-Forwarded-For'] = request.forwardedFor
  if (request.ifMatch !== null) headers['If-Match'] = request.ifMatch
  let path = request.endpoint.path
  if (request.query) {
    const params = new URLSearchParams()
    for (const [key, value] of Object.entries(request.query)) {
      params.append(key, typeof value === 'string' ? value : toJson(value))
    }
    path += `?${params}`
  } else if (request.endpoint.method === 'GET') {
    const params = new URLSearchParams()
    for (const [key, value] of Object.entries(request.endpoint.sample())) {
      params.append(key, String(value))
    }
    if ([...params].length) path += `?${params}`
  }
  const encoder = new TextEncoder()
  let body: Uint8Array | null = null
  let contentType = 'application/json'
  const b = request.body
  if (b.kind === 'json') body = encoder.encode(toJson(b.value))
  else if (b.kind === 'raw') body = encoder.encode(b.text)
  else if (b.kind === 'huge') body = encoder.encode(`{"name":"${'я'.repeat(600_000)}"}`)
  else if (b.kind === 'multipart') {
    const boundary = `fuzz${Math.abs(b.file === null ? 1 : b.file.length)}boundary`
    const parts: Uint8Array[] = []
    for (const [name, value] of Object.entries(b.fields)) {
      parts.push(
        encoder.encode(
          `--${boundary}\r\nContent-Disposition: form-data; name="${headerSafe(name).replace(/"/g, '')}"\r\n\r\n${value}\r\n`,
        ),
      )
    }
    if (b.file !== null) {
      parts.push(
        encoder.encode(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        b.file === 'png' ? new Uint8Array(pngImage(4, 3)) : b.file,
        encoder.encode('\r\n'),
      )
    }
    parts.push(encoder.encode(`--${boundary}--\r\n`))
    body = new Uint8Array(Buffer.concat(parts))
    contentType = `multipart/form-data; boundary=${boundary}`
  }
  if (body) headers['Content-Type'] = request.contentType ?? contentType
  return { headers, body, path }
}

const TABLES = [
  'users',
  'sessions',
  'password_resets',
  'workspaces',
  'workspace_members',
  'workspace_invitations',
  'amo_integrations',
  'bitrix_integrations',
  'departments',
  'locations',
  'specialists',
  'projects',
  'backgrounds',
  'blocks',
  'change_events',
]

/** Everything a request may store: every table's rows (Idempotency-Key records aside) and uploads. */
async function snapshot(): Promise<string> {
  await services.background.idle()
  const sql = TABLES.map(
    (t) =>
      `SELECT '${t}' AS t, coalesce(md5(string_agg(x::text, '|' ORDER BY x::text)), '') AS h FROM ${t} x`,
  ).join(' UNION ALL ')
  const { rows } = await services.db.query<{ t: string; h: string }>(sql)
  return JSON.stringify([rows.sort((a, b) => a.t.localeCompare(b.t)), uploads.saved])
}

describe('fuzz: generated requests to every endpoint', () => {
  it(
    `${RUNS} requests (seed ${SEED}): no 5xx, no dead socket, error bodies, refusals store nothing`,
    { timeout: Math.max(60_000, RUNS * 400) },
    async () => {
      const result = await fc.check(
        fc.asyncProperty(requestArb, async (request) => {
          const { headers, body, path } = encode(request)
          const before = await snapshot()
          const asked = `${request.method} ${path.slice(0, 200)} (${request.body.kind}, ${body?.byteLength ?? 0} bytes${request.chunked ? ', chunked' : ''}; headers ${JSON.stringify(headers).slice(0, 300)})`
          const reply = await send(request.method, path, headers, body, request.chunked).catch(
            (error: unknown) => {
              throw new Error(`${asked}: ${String(error)}`)
            },
          )
          const what = `${request.method} ${path} → ${reply.status} ${reply.body.slice(0, 300)}`
          expect(reply.status, what).toBeGreaterThanOrEqual(200)
          if (reply.status >= 500) {
            const fault = serverErrors.at(-1)
            throw new Error(`${what}\n${String(fault?.message)}\n${String(fault?.stack)}`)
          }
          if (reply.status >= 400) {
            let parsed: { error?: { code?: unknown; message?: unknown; fields?: unknown } } = {}
            try {
              parsed = JSON.parse(reply.body) as typeof parsed
            } catch {
              throw new Error(`not a JSON error body: ${what}`)
            }
            expect(typeof parsed.error?.code, what).toBe('string')
            expect(typeof parsed.error?.message, what).toBe('string')
            if (parsed.error?.fields !== undefined) {
              for (const message of Object.values(parsed.error.fields as object)) {
                expect(typeof message, what).toBe('string')
              }
            }
            expect(await snapshot(), `a refused request stored something: ${what}`).toBe(before)
          }
          // The connection is still good for the next request.
          const next = await send('GET', '/api/check_auth', {}, null, false).catch(
            (error: unknown) => {
              throw new Error(`the request after ${asked}: ${String(error)}`)
            },
          )
          expect(next.status, `after ${what}`).toBe(401)
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      )
      // The counterexample itself may be megabytes: report the assertion, the seed and the path.
      if (result.failed) {
        const error = result.errorInstance
        const message =
          error instanceof Error ? `${error.message} ${error.stack ?? ''}` : String(error)
        throw new Error(
          `after ${result.numRuns} runs (seed ${result.seed}, path ${result.counterexamplePath}): ${message.slice(0, 2_000)}`,
        )
      }
    },
  )
})

// ---------------------------------------------------------------------------------------------
// One storable-text rule

/** What the server answers for a NUL or half a surrogate pair (docs/API.md, "Errors"). */
const INVALID_CHARACTERS = 'Текст содержит недопустимые символы'

/** A schema as it is, without optional/nullable around it. */
function unwrapped(schema: v.GenericSchema): v.GenericSchema {
  let inner = schema as v.GenericSchema & { wrapped?: v.GenericSchema }
  while (['optional', 'nullable', 'nullish'].includes(inner.type) && inner.wrapped) {
    inner = inner.wrapped as typeof inner
  }
  return inner
}

/** Whether a field takes text: a string schema, or a union one of whose options is. */
function takesText(schema: v.GenericSchema): boolean {
  const inner = unwrapped(schema) as v.GenericSchema & { options?: v.GenericSchema[] }
  if (inner.type === 'string') return true
  return inner.type === 'union' && (inner.options ?? []).some(takesText)
}

/** The text fields of an endpoint's sample (its query, for a GET): each one a test spoils. */
function textFields(endpoint: Endpoint, sample: Record<string, unknown>): string[] {
  return Object.keys(sample).filter(
    (key) => endpoint.method === 'GET' || typeof sample[key] === 'string',
  )
}

/** A valid text with a NUL or a lone surrogate put in at some place (once or twice). */
const spoiled = (valid: string) =>
  fc
    .array(
      fc.record({
        unit: fc.constantFrom('\u0000', '\uD800', '\uDBFF', '\uDC00', '\uDFFF'),
        at: fc.nat({ max: valid.length }),
      }),
      { minLength: 1, maxLength: 2 },
    )
    .map((cuts) => {
      let text = valid
      for (const { unit, at } of cuts) text = text.slice(0, at) + unit + text.slice(at)
      return text
    })
    // Two halves put side by side make a whole pair: that is text like any other.
    .filter((text) => !isStorableText(text))

describe('one storable-text rule for every text field of every route', () => {
  /**
   * A user and rows of their own: the fuzz above may have signed its owner out and deleted what
   * it had. From here on `owner` is this user.
   */
  const mine: EndpointRows = { ids: {}, ownerEmail: 'fuzz-text@example.ru' }
  const endpoints = apiEndpoints(mine)
  beforeAll(async () => {
    const user = await api('POST', '/api/register', {
      name: 'Символы',
      email: mine.ownerEmail,
      password: 'password123',
    })
    ownerToken = user.access_token as string
    const workspaces = (await api('GET', '/api/workspace/list')) as unknown as { id: number }[]
    await seed(mine, workspaces[0]!.id)
  }, 60_000)

  it('every sample carries every text field its route takes', () => {
    for (const endpoint of endpoints) {
      const entries = (endpoint.input as { entries?: Record<string, v.GenericSchema> } | undefined)
        ?.entries
      if (!entries) continue
      const sample = endpoint.sample()
      for (const [field, schema] of Object.entries(entries)) {
        if (!takesText(schema)) continue
        expect(typeof sample[field], `${endpoint.path}: ${field}`).toBe('string')
      }
    }
  })

  const perField = Math.max(3, Math.round(RUNS / 200))
  it(`a NUL or half a surrogate pair in any text field (${perField} tries each): 422 naming the field, never a 5xx, nothing stored`, async () => {
    const before = await snapshot()
    let tried = 0
    for (const endpoint of endpoints) {
      const sample = endpoint.sample()
      const entries =
        (endpoint.input as { entries?: Record<string, v.GenericSchema> } | undefined)?.entries ?? {}
      for (const field of textFields(endpoint, sample)) {
        tried += 1
        const schema = entries[field]
        // A field of free or patterned text says so; a choice or an id says what it takes instead.
        const text = schema !== undefined && unwrapped(schema).type === 'string'
        await fc.assert(
          fc.asyncProperty(spoiled(String(sample[field])), async (bad) => {
            const value = { ...sample, [field]: bad }
            const request: FuzzRequest = {
              endpoint,
              method: endpoint.method,
              auth: 'owner',
              oddAuth: '',
              body:
                endpoint.method === 'GET'
                  ? { kind: 'empty' }
                  : endpoint.multipart
                    ? { kind: 'multipart', fields: value as Record<string, string>, file: 'png' }
                    : { kind: 'json', value },
              query: endpoint.method === 'GET' ? value : null,
              chunked: false,
              contentType: null,
              idempotencyKey: null,
              ifMatch: null,
              forwardedFor: null,
            }
            const { headers, body, path } = encode(request)
            const reply = await send(request.method, path, headers, body, false)
            const what = `${request.method} ${path} ${field}=${JSON.stringify(bad)} → ${reply.status} ${reply.body.slice(0, 300)}`
            if (reply.status >= 500) {
              const fault = serverErrors.at(-1)
              throw new Error(`${what}\n${String(fault?.message)}`)
            }
            expect(reply.status, what).toBe(422)
            const answer = JSON.parse(reply.body) as {
              error: { code: string; fields?: Record<string, string> }
            }
            expect(answer.error.code, what).toBe('validation_error')
            expect(answer.error.fields?.[field], what).toBeTypeOf('string')
            if (text) expect(answer.error.fields?.[field], what).toBe(INVALID_CHARACTERS)
          }),
          { seed: SEED, numRuns: perField },
        )
      }
    }
    // Every route with text in its input had some (register, records, blocks, queries …).
    expect(tried).toBeGreaterThanOrEqual(100)
    expect(await snapshot(), 'a refused request stored something').toBe(before)
  }, 120_000)
})
