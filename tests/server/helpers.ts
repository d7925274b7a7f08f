import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { createApp, type ApiApp, type AppOptions } from '../../server/app.ts'

/**
 * A fresh app per test file: in-memory PGlite, or — when DATABASE_URL is set — a schema of its
 * own in that PostgreSQL, dropped afterwards.
 */
export interface TestServer {
  app: ApiApp
  call: (method: string, path: string, options?: CallOptions) => Promise<Response>
  /** Registers a new user and returns their token, user and first workspace id. */
  signUp: (name?: string) => Promise<TestUser>
  close: () => Promise<void>
}

export interface CallOptions {
  token?: string
  body?: unknown
  /** Raw body text (malformed JSON and the like). */
  raw?: BodyInit
  headers?: Record<string, string>
  query?: Record<string, string | number>
}

export interface TestUser {
  token: string
  id: number
  email: string
  workspaceId: number
}

let counter = 0

export async function testServer(options: AppOptions = {}): Promise<TestServer> {
  const databaseUrl = process.env.DATABASE_URL
  const schema = databaseUrl ? `t_${randomBytes(6).toString('hex')}` : undefined
  const app = createApp({ dataDir: 'memory', databaseUrl, schema, ...options })
  await app.ready()

  const call = (method: string, path: string, o: CallOptions = {}) => {
    const headers: Record<string, string> = { ...o.headers }
    if (o.token) headers.Authorization = `Bearer ${o.token}`
    let body: BodyInit | undefined = o.raw
    if (o.body !== undefined) {
      headers['Content-Type'] = 'application/json'
      body = JSON.stringify(o.body)
    }
    const query = o.query
      ? `?${new URLSearchParams(Object.entries(o.query).map(([k, v]) => [k, String(v)]))}`
      : ''
    return Promise.resolve(app.request(path + query, { method, headers, body }))
  }

  const signUp = async (name = 'Тестовый пользователь'): Promise<TestUser> => {
    counter += 1
    const email = `user${counter}.${randomBytes(3).toString('hex')}@example.ru`
    const res = await call('POST', '/api/register', {
      body: { name, email, password: 'password123' },
    })
    if (res.status !== 200) throw new Error(`register failed: ${res.status} ${await res.text()}`)
    const auth = (await res.json()) as { access_token: string; user: { id: number } }
    const list = await call('GET', '/api/workspace/list', { token: auth.access_token })
    const workspaces = (await list.json()) as { id: number }[]
    return { token: auth.access_token, id: auth.user.id, email, workspaceId: workspaces[0]!.id }
  }

  return {
    app,
    call,
    signUp,
    async close() {
      await app.close()
      if (databaseUrl && schema) {
        const client = new pg.Client({ connectionString: databaseUrl })
        await client.connect()
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
        await client.end()
      }
    },
  }
}

/** JSON body of a response, typed loosely for assertions. */
/**
 * A second app instance over `s`'s database: on PostgreSQL (DATABASE_URL) its own pool on the same
 * schema, on PGlite (one process) the same database object.
 */
export async function secondInstance(s: TestServer, options: AppOptions = {}): Promise<ApiApp> {
  const { services } = await s.app.ready()
  let other: ApiApp
  if (process.env.DATABASE_URL) {
    const { rows } = await services.db.query<{ schema: string }>(
      'SELECT current_schema() AS schema',
    )
    other = createApp({
      dataDir: 'memory',
      databaseUrl: process.env.DATABASE_URL,
      schema: rows[0]!.schema,
      ...options,
    })
  } else {
    other = createApp({ dataDir: 'memory', db: services.db, ...options })
  }
  await other.ready()
  return other
}

export async function json<T = Record<string, unknown>>(res: Response): Promise<T> {
  return (await res.json()) as T
}

export { pngImage } from '../support/png.ts'

export function uploadForm(bytes: Uint8Array, fields: Record<string, string> = {}, name = 'a.png') {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name)
  for (const [key, value] of Object.entries(fields)) form.append(key, value)
  return form
}

export const textBlock = (bgId: number, extra: Record<string, unknown> = {}) => ({
  bg_id: bgId,
  x: 12.345678901234,
  y: -7.5,
  zindex: 3,
  rotation: 15.25,
  width: 40.125,
  fontSize: 6.5,
  font: 'Inter',
  align: 'center',
  color: '#112233',
  text: 'Привет, мир',
  background: 'transparent',
  name: 'Заголовок',
  ...extra,
})

/**
 * Makes `user` a member (editor) of the admin's workspace as the app does (docs/API.md,
 * "Members"): the admin invites their address and they accept.
 */
export async function addMember(
  s: TestServer,
  adminToken: string,
  workspaceId: number,
  user: TestUser,
): Promise<void> {
  const added = await s.call('POST', '/api/workspace/member/add', {
    token: adminToken,
    body: { workspace_id: workspaceId, email: user.email },
  })
  if (added.status !== 200) throw new Error(`member/add: ${added.status} ${await added.text()}`)
  const list = await s.call('GET', '/api/workspace/invitations', { token: user.token })
  const waiting = (await list.json()) as { id: number; workspace_id: number }[]
  const invitation = waiting.find((i) => i.workspace_id === workspaceId)
  // Already a member: nothing was waiting.
  if (!invitation) return
  const accepted = await s.call('POST', '/api/workspace/invitation/accept', {
    token: user.token,
    body: { id: invitation.id },
  })
  if (accepted.status !== 200)
    throw new Error(`accept: ${accepted.status} ${await accepted.text()}`)
}
