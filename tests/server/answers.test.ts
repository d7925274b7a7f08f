import { randomBytes } from 'node:crypto'
import { request } from 'node:http'
import { gunzipSync } from 'node:zlib'
import { Hono } from 'hono'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compression } from '../../server/http/compression.ts'
import type { AppEnv } from '../../server/http/env.ts'
import { startServer, type RunningServer } from '../../server/index.ts'

/**
 * API answers known in full are written to Node's response as they are (server/http/answer.ts):
 * over a real socket they carry the same headers as any answer, a Content-Length, and go
 * compressed to a client that accepts it when they are 1 KiB or more (server/http/compression.ts).
 */
let server: RunningServer
const databaseUrl = process.env.DATABASE_URL
const schema = databaseUrl ? `t_${randomBytes(6).toString('hex')}` : undefined
let token = ''
let workspaceId = 0
let departmentId = 0

/** One request over a socket of its own, as a client sends it: status, headers and raw bytes. */
function send(
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body?: string,
) {
  const url = new URL(path, server.url)
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
    (resolve, reject) => {
      const req = request(
        {
          method,
          hostname: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          headers: {
            Authorization: `Bearer ${token}`,
            ...(body === undefined
              ? {}
              : {
                  'Content-Type': 'application/json',
                  'Content-Length': String(Buffer.byteLength(body)),
                }),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks),
            }),
          )
        },
      )
      req.on('error', reject)
      req.end(body)
    },
  )
}

const get = (path: string, headers: Record<string, string> = {}) => send('GET', path, headers)
const post = (path: string, body: string, headers: Record<string, string>) =>
  send('POST', path, headers, body)

beforeAll(async () => {
  server = await startServer({ port: 0, dataDir: 'memory', databaseUrl, schema })
  const auth = (await (
    await fetch(`${server.url}/api/register`, {
      method: 'POST',
      body: JSON.stringify({ name: 'Ответ', email: 'answers@example.ru', password: 'password123' }),
    })
  ).json()) as { access_token: string }
  token = auth.access_token
  const [ws] = (await (
    await fetch(`${server.url}/api/workspace/list`, {
      headers: { Authorization: `Bearer ${token}` },
    })
  ).json()) as { id: number }[]
  workspaceId = ws!.id
  const { rows } = await server.ready.services.db.query<{ id: number }>(
    `INSERT INTO departments (workspace_id, name, description)
     SELECT $1, 'Отделение ' || n, 'Описание ' || n FROM generate_series(1, 40) n RETURNING id`,
    [workspaceId],
  )
  departmentId = rows[0]!.id
})

afterAll(async () => {
  await server?.close()
  if (databaseUrl && schema) {
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    await client.end()
  }
})

describe('answers over a socket', () => {
  it('a list goes as it is with its length and headers, or gzip-encoded to a client that takes it', async () => {
    const path = `/api/department/list?workspace_id=${workspaceId}`
    const plain = await get(path)
    expect(plain.status).toBe(200)
    expect(plain.headers['content-type']).toBe('application/json')
    expect(Number(plain.headers['content-length'])).toBe(plain.body.byteLength)
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.headers.vary).toBe('Accept-Encoding')
    expect(plain.headers['cache-control']).toBe('no-store')
    expect(plain.headers['x-content-type-options']).toBe('nosniff')
    expect(plain.headers['x-frame-options']).toBe('DENY')
    expect(plain.headers['content-security-policy']).toContain("default-src 'self'")
    const list = JSON.parse(plain.body.toString('utf8')) as { id: number }[]
    expect(list).toHaveLength(40)

    const gzipped = await get(path, { 'Accept-Encoding': 'gzip, deflate' })
    expect(gzipped.headers['content-encoding']).toBe('gzip')
    expect(gzipped.headers.vary).toBe('Accept-Encoding')
    expect(Number(gzipped.headers['content-length'])).toBe(gzipped.body.byteLength)
    expect(gunzipSync(gzipped.body).equals(plain.body)).toBe(true)
  })

  it('an answer under 1 KiB goes unencoded even to a client that takes gzip', async () => {
    const res = await get(`/api/department/get?id=${departmentId}`, { 'Accept-Encoding': 'gzip' })
    expect(res.status).toBe(200)
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(JSON.parse(res.body.toString('utf8'))).toMatchObject({
      id: departmentId,
      name: 'Отделение 1',
    })
    expect(res.headers['x-frame-options']).toBe('DENY')
  })

  it('errors keep their JSON body and status', async () => {
    const res = await get('/api/department/get?id=0')
    expect(res.status).toBe(422)
    expect(JSON.parse(res.body.toString('utf8'))).toHaveProperty('error.code')
  })
})

describe('a repeated Idempotency-Key', () => {
  // Each route family once (records, workspaces, a refused request): the first answer and its
  // replay must be the same bytes with the same headers, whatever wrote the first one.
  const calls: [string, string, () => string, number][] = [
    [
      'a record',
      '/api/department/add',
      () => JSON.stringify({ workspace_id: workspaceId, name: 'Повтор', description: '' }),
      200,
    ],
    ['a workspace', '/api/workspace/add', () => JSON.stringify({ name: 'Повтор' }), 200],
    ['a refusal', '/api/department/add', () => JSON.stringify({ workspace_id: workspaceId }), 422],
  ]
  it.each(calls)(
    '%s gets the very bytes of the first answer again, encoded the same way',
    async (_, path, body, status) => {
      const headers = {
        'Idempotency-Key': `answers-${randomBytes(4).toString('hex')}`,
        'Accept-Encoding': 'gzip',
      }
      const first = await post(path, body(), headers)
      const again = await post(path, body(), headers)
      expect(first.status).toBe(status)
      expect(again.status).toBe(status)
      expect(again.headers['idempotent-replayed']).toBe('true')
      expect(again.headers['content-type']).toBe(first.headers['content-type'])
      expect(again.headers['content-encoding']).toBe(first.headers['content-encoding'])
      expect(again.body.equals(first.body)).toBe(true)
    },
  )
})

describe('a JSON response made without an Answer', () => {
  it('meets the same compression policy: whole, and only from 1 KiB', async () => {
    const app = new Hono<AppEnv>()
    app.use('*', compression())
    app.get('/small', (c) => c.json({ ok: true }))
    app.get('/large', (c) => c.json({ rows: 'Строка '.repeat(400) }))
    const small = await app.request('/small', { headers: { 'Accept-Encoding': 'gzip' } })
    expect(small.headers.get('Content-Encoding')).toBeNull()
    expect(await small.json()).toEqual({ ok: true })
    const large = await app.request('/large', { headers: { 'Accept-Encoding': 'gzip' } })
    expect(large.headers.get('Content-Encoding')).toBe('gzip')
    const text = gunzipSync(Buffer.from(await large.arrayBuffer())).toString('utf8')
    expect(JSON.parse(text)).toEqual({ rows: 'Строка '.repeat(400) })
  })

  it('keeps its own Content-Type (a static .json file says its charset)', async () => {
    const app = new Hono<AppEnv>()
    app.use('*', compression())
    const type = 'application/json; charset=utf-8'
    app.get('/file.json', (c) => c.body('{"ok":true}', 200, { 'Content-Type': type }))
    const res = await app.request('/file.json', { headers: { 'Accept-Encoding': 'gzip' } })
    expect(res.headers.get('Content-Type')).toBe(type)
    expect(await res.json()).toEqual({ ok: true })
  })
})
