import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { login } from '../../src/api/auth.ts'
import { configureApi } from '../../src/api/client.ts'
import * as endpoints from '../../src/api/endpoints.ts'
import { MirrorDb, setDb } from '../../src/data/db.ts'
import { readAuthToken, storeAuthToken } from '../../src/data/sync-state.ts'
import { createSyncEngine, type SyncApi, type SyncEngine } from '../../src/sync/engine.ts'
import type { LockManagerLike } from '../../src/sync/lock.ts'
import { startServer, type RunningServer } from '../../server/start.ts'
import { startFaultProxy, type FaultProxy } from './fault-proxy.ts'
import { sessionCacheFor } from '../../server/services/session-cache.ts'

/**
 * The reference server in-process, the fault proxy in front of it, a fresh mirror database and
 * replay engines ("sync workers") that reach the server only through the proxy. Direct calls
 * (`call`) go straight to the server: they are how a test looks at what the server really holds.
 * Every request the product sends is counted at `fetch`, with the most ever in flight at once.
 */

/** Web Locks as an origin has them: shared by every worker; a killed worker's locks are freed. */
export class OriginLocks {
  private holder = new Map<string, string>()
  private waiting = new Map<string, (() => void)[]>()

  client(owner: string): LockManagerLike {
    return {
      request: async <T>(
        name: string,
        options: { ifAvailable?: boolean },
        callback: (lock: unknown) => Promise<T>,
      ): Promise<T> => {
        if (this.holder.has(name)) {
          if (options.ifAvailable) return callback(null)
          await new Promise<void>((resolve) => {
            const queue = this.waiting.get(name) ?? []
            queue.push(resolve)
            this.waiting.set(name, queue)
          })
        }
        this.holder.set(name, owner)
        try {
          return await callback({ name })
        } finally {
          if (this.holder.get(name) === owner) this.release(name)
        }
      },
    }
  }

  /** The worker died: the browser releases whatever it held. */
  kill(owner: string): void {
    for (const [name, held] of [...this.holder]) if (held === owner) this.release(name)
  }

  private release(name: string) {
    this.holder.delete(name)
    const next = this.waiting.get(name)?.shift()
    if (next) {
      // The next waiter takes the lock before anyone asking "if available" can.
      this.holder.set(name, '(handing over)')
      next()
    }
  }
}

/**
 * The reference server on PGlite in a temporary directory, which a test can stop and start again
 * on the same directory and port (a deploy or a crash in the middle of a chain of requests).
 */
export interface RestartableServer extends RunningServer {
  restart(): Promise<void>
  /** How many times it was restarted. */
  readonly restarts: number
}

export async function startRestartableServer(): Promise<RestartableServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'promo-soak-'))
  // A port below Linux's ephemeral range (32768+): while the server is down, the system never
  // hands its port to an outgoing connection, so the restart can listen on it again.
  const listen = async (port: number) => startServer({ port, hostname: '127.0.0.1', dataDir })
  let current: RunningServer | null = null
  for (let attempt = 0; !current; attempt += 1) {
    try {
      current = await listen(20_000 + Math.floor(Math.random() * 12_000))
    } catch (error) {
      if (attempt >= 10 || (error as { code?: string }).code !== 'EADDRINUSE') throw error
    }
  }
  const port = current.port
  let restarts = 0
  return {
    url: current.url,
    port,
    get ready() {
      return current!.ready
    },
    get restarts() {
      return restarts
    },
    async restart() {
      await current!.close()
      current = await listen(port)
      restarts += 1
    },
    async close() {
      await current!.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

export interface Worker {
  name: string
  engine: SyncEngine
  /** Resolves when the worker was killed (see `killAfter`). */
  killed: Promise<void>
}

export interface WorkerOptions {
  /**
   * Kill the worker on its n-th API call: that call still reaches the server (the request was on
   * the wire), but its answer never comes back and the worker's locks are freed, as when a browser
   * ends a worker.
   */
  killAfter?: number
}

export interface SyncWorld {
  server: RunningServer
  proxy: FaultProxy
  db: MirrorDb
  clock: { now: number }
  locks: OriginLocks
  /** Requests the product sent (to the proxy) and the most in flight at one time. */
  traffic: { sent: number; inFlight: number; maxInFlight: number; paths: string[] }
  /** The most workers that ever had calls in flight at the same moment (the lock allows one). */
  concurrency: { busyWorkers: Set<string>; maxBusyWorkers: number }
  workspaceId: number
  email: string
  password: string
  token: string
  /** A sync worker on the shared database (its API calls are watched for concurrency). */
  startWorker(name: string, options?: WorkerOptions): Worker
  /** Calls the server directly (not through the proxy) as the user. */
  call(
    method: string,
    path: string,
    body?: unknown,
    query?: Record<string, string | number>,
    headers?: Record<string, string>,
  ): Promise<Response>
  /** Signs in again (directly) and hands the new token to the sync layer, like the page does. */
  signInAgain(): Promise<string>
  /**
   * Signs in as the sign-in page does: the product's `login` through the proxy (and its faults),
   * pressed again after each failure, up to `tries` times; the new token goes to the sync layer.
   * Returns how many presses it took, or null when none worked.
   */
  signInThroughApp(tries: number): Promise<number | null>
  /** Every session of the user ends on the server now (their token's time is up). */
  expireSessions(): Promise<void>
  /** Restarts the server on its data directory, when it can be (see `startRestartableServer`). */
  restartServer: (() => Promise<void>) | null
  /** Milliseconds spent restarting the server and signing in (the soak's report of its time). */
  spent: { restart: number; signIn: number }
  close(): Promise<void>
}

let counter = 0

/**
 * Answers come uncompressed: both ends run in this process, where gzip would cost a tenth of a
 * seed's CPU and prove nothing about sync (the browser journeys, tests/e2e, get them compressed).
 */
const PLAIN = { 'Accept-Encoding': 'identity' }

export interface SyncWorldOptions {
  /** Pause of the proxy's `delay` fault. */
  delayMs?: number
  /** A server to share between worlds (each world registers its own user); closed by the caller. */
  server?: RunningServer | RestartableServer
}

export async function startSyncWorld(options: SyncWorldOptions = {}): Promise<SyncWorld> {
  counter += 1
  const server = options.server ?? (await startServer({ port: 0, dataDir: 'memory' }))
  // A request the proxy's `hang` holds: its timeout fires now rather than after the client's time
  // (the client's own wait would add nothing but waiting; tests/support/fault-proxy.ts).
  const hanging = new Map<string, AbortController>()
  const proxy = await startFaultProxy(server.url, () => 'pass', {
    delayMs: options.delayMs ?? 15,
    onHang: (call) =>
      hanging.get(call)?.abort(new DOMException('The operation timed out.', 'TimeoutError')),
  })
  const realFetch = globalThis.fetch
  const email = `sync${counter}.${Date.now()}@example.ru`
  const password = 'password123'
  const register = await realFetch(`${server.url}/api/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Редактор', email, password }),
  })
  let token = ((await register.json()) as { access_token: string }).access_token

  const call: SyncWorld['call'] = (method, path, body, query, headers = {}) => {
    const q = query
      ? `?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`
      : ''
    return realFetch(`${server.url}${path}${q}`, {
      method,
      headers: {
        ...PLAIN,
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  }
  const workspaces = (await (await call('GET', '/api/workspace/list')).json()) as { id: number }[]

  const traffic: SyncWorld['traffic'] = { sent: 0, inFlight: 0, maxInFlight: 0, paths: [] }
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    if (url.origin !== new URL(proxy.url).origin) return realFetch(input, init)
    traffic.sent += 1
    traffic.paths.push(url.pathname)
    traffic.inFlight += 1
    traffic.maxInFlight = Math.max(traffic.maxInFlight, traffic.inFlight)
    const call = String(traffic.sent)
    const timeout = new AbortController()
    hanging.set(call, timeout)
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : {}))
    headers.set('x-fault-call', call)
    for (const [name, value] of Object.entries(PLAIN)) headers.set(name, value)
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout.signal]) : timeout.signal
    try {
      return await realFetch(input, { ...init, headers, signal })
    } finally {
      hanging.delete(call)
      traffic.inFlight -= 1
    }
  }

  const db = new MirrorDb(`sync-world-${counter}-${Date.now()}`)
  setDb(db)
  await storeAuthToken({ token, expiry: null }, db)
  const shared = options.server
  const restartable = shared && 'restart' in shared ? shared : null
  // No fault waits for the client's timeout: `hang` makes it fire at once (above), a restart cuts
  // the answer it takes down. It only stops a request that a busy machine holds up for seconds.
  configureApi({ baseUrl: proxy.url, getToken: () => readAuthToken(db), timeoutMs: 5_000 })
  const clock = { now: Date.now() }
  const locks = new OriginLocks()
  const concurrency: SyncWorld['concurrency'] = { busyWorkers: new Set(), maxBusyWorkers: 0 }
  const calls = new Map<string, number>()

  function watchedApi(name: string, killAfter: number | undefined, onKill: () => void): SyncApi {
    let made = 0
    return new Proxy(
      { ...endpoints },
      {
        get(target, prop, receiver) {
          const value = Reflect.get(target, prop, receiver) as unknown
          if (typeof value !== 'function') return value
          return async (...args: unknown[]) => {
            made += 1
            const open = (calls.get(name) ?? 0) + 1
            calls.set(name, open)
            concurrency.busyWorkers.add(name)
            concurrency.maxBusyWorkers = Math.max(
              concurrency.maxBusyWorkers,
              concurrency.busyWorkers.size,
            )
            const done = () => {
              const left = (calls.get(name) ?? 1) - 1
              calls.set(name, left)
              if (left === 0) concurrency.busyWorkers.delete(name)
            }
            const call = (value as (...a: unknown[]) => Promise<unknown>)(...args)
            if (killAfter !== undefined && made >= killAfter) {
              await call.catch(() => undefined)
              done()
              locks.kill(name)
              onKill()
              return new Promise(() => undefined)
            }
            try {
              return await call
            } finally {
              done()
            }
          }
        },
      },
    ) as SyncApi
  }

  const spent = { restart: 0, signIn: 0 }
  const timed =
    <A extends unknown[], T>(what: keyof typeof spent, fn: (...args: A) => Promise<T>) =>
    async (...args: A): Promise<T> => {
      const started = performance.now()
      try {
        return await fn(...args)
      } finally {
        spent[what] += performance.now() - started
      }
    }

  return {
    server,
    proxy,
    db,
    clock,
    locks,
    traffic,
    concurrency,
    workspaceId: workspaces[0]!.id,
    email,
    password,
    get token() {
      return token
    },
    startWorker(name, options = {}) {
      let signal!: () => void
      const killed = new Promise<void>((resolve) => (signal = resolve))
      const engine = createSyncEngine({
        db,
        api: watchedApi(name, options.killAfter, signal),
        locks: locks.client(name),
        now: () => clock.now,
        random: () => 0.5,
        // Retries are driven by the test moving the clock, not by timers.
        schedule: () => undefined,
      })
      return { name, engine, killed }
    },
    call,
    async signInAgain() {
      const response = await realFetch(`${server.url}/api/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password }),
      })
      if (!response.ok) throw new Error(`login ${response.status}`)
      token = ((await response.json()) as { access_token: string }).access_token
      await storeAuthToken({ token, expiry: null }, db)
      return token
    },
    signInThroughApp: timed('signIn', async (tries: number) => {
      for (let press = 1; press <= tries; press += 1) {
        try {
          const session = await login({ email, password })
          token = session.access_token
          // As the sign-in page stores it (src/features/auth): the token with its expiry.
          await storeAuthToken({ token, expiry: null }, db)
          return press
        } catch {
          // A fault: the person presses «Войти» again.
        }
      }
      return null
    }),
    async expireSessions() {
      const { db } = server.ready.services
      const rows = await db.query<{ id: number }>(
        `UPDATE sessions SET expires_at = now() - interval '1 second'
          WHERE user_id = (SELECT id FROM users WHERE email = $1) RETURNING user_id AS id`,
        [email],
      )
      // The server keeps a signed-in token for a while without asking the database, never past
      // its expiry: the sessions' time has come, as if the clock had passed it.
      for (const { id } of rows.rows) await sessionCacheFor(db, 0).forgetUser(id)
    },
    restartServer: restartable ? timed('restart', () => restartable.restart()) : null,
    spent,
    async close() {
      globalThis.fetch = realFetch
      db.close()
      await proxy.close()
      if (!options.server) await server.close()
    },
  }
}
