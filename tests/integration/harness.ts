import { afterAll, beforeAll } from 'vitest'
import { configureApi } from '../../src/api/client.ts'
import { MirrorDb, setDb } from '../../src/data/db.ts'
import { readAuthToken, storeAuthToken } from '../../src/data/sync-state.ts'
import { createSyncEngine, type SyncEngine } from '../../src/sync/engine.ts'
import { startServer, type RunningServer } from '../../server/start.ts'

/**
 * The real reference server in-process on a free port, a fresh account and mirror database, and
 * the replay engine pointed at both. `fetch` is wrapped so tests can see every request and inject
 * faults. A file whose tests only need an account of their own shares one server (`sharedServer`):
 * starting one costs seconds, an account milliseconds.
 */
export interface Sent {
  method: string
  path: string
  key: string | null
  body: unknown
}

/** Decides what happens to one request: undefined = pass through. */
export type Fault = (sent: Sent) => 'fail-before' | 'drop-after' | Response | undefined

export interface Harness {
  server: RunningServer
  db: MirrorDb
  engine: SyncEngine
  token: string
  workspaceId: number
  sent: Sent[]
  /** Requests that reached the server (not failed before sending). */
  delivered: Sent[]
  fault: { current: Fault | null }
  clock: { now: number }
  /** Calls the server directly as the signed-in user (the "other device"). */
  call: (
    method: string,
    path: string,
    body?: unknown,
    query?: Record<string, string | number>,
  ) => Promise<Response>
  close: () => Promise<void>
}

let counter = 0

/**
 * One server for the calling file's tests, started before the first and closed after the last;
 * pass its getter to `startHarness` in `beforeEach`.
 */
export function sharedServer(): () => RunningServer {
  let server: RunningServer | null = null
  beforeAll(async () => {
    server = await startServer({ port: 0, dataDir: 'memory' })
  })
  afterAll(async () => {
    await server?.close()
  })
  return () => {
    if (!server) throw new Error('the shared server has not started')
    return server
  }
}

/** A harness on `shared` (another test's server, kept open) or on a server of its own. */
export async function startHarness(shared?: () => RunningServer): Promise<Harness> {
  counter += 1
  const server = shared ? shared() : await startServer({ port: 0, dataDir: 'memory' })
  const realFetch = globalThis.fetch
  const register = await realFetch(`${server.url}/api/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: 'Редактор',
      email: `editor${counter}.${Date.now()}@example.ru`,
      password: 'password123',
    }),
  })
  const auth = (await register.json()) as { access_token: string }
  const token = auth.access_token

  const call: Harness['call'] = (method, path, body, query) => {
    const q = query
      ? `?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`
      : ''
    return realFetch(`${server.url}${path}${q}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined || body instanceof FormData
          ? {}
          : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    })
  }
  const workspaces = (await (await call('GET', '/api/workspace/list')).json()) as { id: number }[]

  const sent: Sent[] = []
  const delivered: Sent[] = []
  const fault: Harness['fault'] = { current: null }
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    const headers = new Headers(init?.headers)
    let body: unknown = null
    if (typeof init?.body === 'string') body = JSON.parse(init.body)
    const record: Sent = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      key: headers.get('Idempotency-Key'),
      body,
    }
    sent.push(record)
    const decision = fault.current?.(record)
    if (decision instanceof Response) return decision
    if (decision === 'fail-before') throw new TypeError('fetch failed')
    delivered.push(record)
    const response = await realFetch(input, init)
    if (decision === 'drop-after') {
      await response.text()
      throw new TypeError('fetch failed: connection reset')
    }
    return response
  }

  const db = new MirrorDb(`integration-${counter}-${Date.now()}`)
  setDb(db)
  await storeAuthToken({ token, expiry: null }, db)
  configureApi({ baseUrl: server.url, getToken: () => readAuthToken(db) })
  const clock = { now: Date.now() }
  const engine = createSyncEngine({
    db,
    locks: null,
    now: () => clock.now,
    random: () => 0.5,
    schedule: () => undefined,
  })
  return {
    server,
    db,
    engine,
    token,
    workspaceId: workspaces[0]!.id,
    sent,
    delivered,
    fault,
    clock,
    call,
    async close() {
      globalThis.fetch = realFetch
      db.close()
      if (!shared) await server.close()
    },
  }
}

export async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.status} ${await response.text()}`)
  return (await response.json()) as T
}
