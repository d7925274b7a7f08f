import { fork, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { startServer, type RunningServer } from '../../server/index.ts'
import { seededRandom } from '../support/random.ts'
import type { InstanceOptions, InstanceOrder, InstanceReport } from './server-instance.ts'
import { isSmoke, type BenchOptions } from './smoke.ts'
import { serverExecArgv } from './server-child.ts'

/**
 * Two benchmarks of the reference server.
 *
 * The load matrix (`runServerLoadBench`, `npm run bench server`): a directory mix at 1, 10 and 50
 * kept-alive connections against PGlite, PostgreSQL with one instance and PostgreSQL with two,
 * each cell beside a bare `new Hono()` handler. Placed as server/README.md deploys the server:
 * every server instance runs in a Node process of its own (tests/bench/server-instance.ts), and
 * so does the bare handler, so both sides of a ratio are a server process answering a client in
 * another process; the load generator alone runs in the bench's process. On a machine with two
 * cores the client, the instances and PostgreSQL still share those cores. Each cell runs on a
 * workspace of its own seeded with the same 1,000 departments, gives the CPU time per request of
 * the processes that served it, and is followed by open-loop cells (requests at a fixed share of
 * the rate each side served at 10 connections, timed from when each was due).
 * `BENCH_SMOKE=1` runs the same cells on PGlite over 50 departments, 0.15 s each, after warm-ups
 * of a few hundred requests (seconds).
 *
 * `runServerBench` (run with this file): department/list with 1,000 rows, and a block save
 * (text/add with id), each with 50 concurrent keep-alive connections, bounded by a request count
 * and a time limit; then a flood of sign-ins with wrong passwords for unknown emails (password
 * hashing runs two at a time, docs/API.md "Limits") and, at the same time, the department list on
 * 10 connections of its own, to show what the flood leaves for everyone else. Here the load
 * generator runs in the same process as the server, so the figures are a floor, comparable
 * between runs and engines.
 *
 *   npx tsx tests/bench/server-bench.ts
 *   scripts/with-postgres.sh npx tsx tests/bench/server-bench.ts   (adds PostgreSQL)
 */

export interface ServerBenchResult {
  engine: 'pglite' | 'postgres'
  scenario: string
  requests: number
  errors: number
  seconds: number
  requestsPerSecond: number
  p50Ms: number
  p99Ms: number
}

export interface ServerBenchOptions {
  concurrency?: number
  maxRequests?: number
  maxSeconds?: number
  databaseUrl?: string
  print?: boolean
  /** Password hashes at once on the server (its default when left out). */
  hashConcurrency?: number
}

interface Req {
  method: 'GET' | 'POST'
  path: string
  body?: string
  /** The status that counts as success (default 200). */
  ok?: number
  /** Sent as its Idempotency-Key, as the app sends every write. */
  key?: string
}

/** Set by the environment to leave it out (`BENCH_ACCEPT_ENCODING=identity`), for comparison. */
const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING ?? 'gzip, deflate, br, zstd'

function send(agent: http.Agent, base: URL, token: string, req: Req): Promise<number> {
  return new Promise((resolve, reject) => {
    const r = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: req.method,
        path: req.path,
        headers: {
          Authorization: `Bearer ${token}`,
          // What the app's requests carry (Chromium's fetch asks for these on every request).
          'Accept-Encoding': ACCEPT_ENCODING,
          ...(req.body
            ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(req.body) }
            : {}),
          ...(req.key ? { 'Idempotency-Key': req.key } : {}),
        },
      },
      (res) => {
        res.on('data', () => undefined)
        res.on('end', () => resolve(res.statusCode ?? 0))
        res.on('error', reject)
      },
    )
    r.on('error', reject)
    if (req.body) r.write(req.body)
    r.end()
  })
}

/** What a load run gives: its requests, errors, rate and latencies (ms, to two decimals). */
function summary(latencies: number[], errors: number, started: number) {
  const seconds = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0
  return {
    requests: latencies.length,
    errors,
    seconds: Math.round(seconds * 100) / 100,
    requestsPerSecond: Math.round(latencies.length / seconds),
    p50Ms: Math.round(pct(0.5) * 100) / 100,
    p99Ms: Math.round(pct(0.99) * 100) / 100,
  }
}

async function load(
  server: RunningServer | readonly string[],
  token: string,
  make: (i: number) => Req,
  options: Required<Pick<ServerBenchOptions, 'concurrency' | 'maxRequests' | 'maxSeconds'>> & {
    /** Stops sending (the requests in flight are still awaited). */
    signal?: AbortSignal
  },
) {
  // Several servers (instances over one database): request i goes to server i mod n.
  const bases = ('url' in server ? [server.url] : server).map((url) => new URL(url))
  const agents = bases.map(
    () => new http.Agent({ keepAlive: true, maxSockets: options.concurrency }),
  )
  const latencies: number[] = []
  let errors = 0
  let issued = 0
  const started = performance.now()
  const deadline = started + options.maxSeconds * 1000
  const worker = async () => {
    while (
      issued < options.maxRequests &&
      performance.now() < deadline &&
      !options.signal?.aborted
    ) {
      const i = issued++
      const t = performance.now()
      try {
        const req = make(i)
        const status = await send(agents[i % bases.length]!, bases[i % bases.length]!, token, req)
        if (status !== (req.ok ?? 200)) errors++
      } catch {
        errors++
      }
      latencies.push(performance.now() - t)
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, worker))
  const result = summary(latencies, errors, started)
  for (const agent of agents) agent.destroy()
  return result
}

/**
 * Open loop: requests sent at a fixed rate whatever the answers, as many independent users would
 * send them, each timed from when it was due to go (so a server that falls behind is charged
 * for the wait of the requests it delayed, not only for those it took in). Sent from a timer that
 * wakes each millisecond and sends every request due by then, on up to `sockets` kept-alive
 * connections; a request due while all of them are busy counts as an error and is not sent.
 */
async function loadAtRate(
  bases: readonly string[],
  token: string,
  make: (i: number) => Req,
  options: { rate: number; maxSeconds: number; sockets?: number; signal?: AbortSignal },
): Promise<ReturnType<typeof summary>> {
  const urls = bases.map((url) => new URL(url))
  const sockets = options.sockets ?? 500
  const agents = urls.map(() => new http.Agent({ keepAlive: true, maxSockets: sockets }))
  const latencies: number[] = []
  const pending = new Set<Promise<void>>()
  let errors = 0
  let sent = 0
  const started = performance.now()
  const end = started + options.maxSeconds * 1000
  while (!options.signal?.aborted) {
    const now = performance.now()
    if (now >= end) break
    // Every request due by now goes, each timed from when it was due.
    while (started + (sent * 1000) / options.rate <= now) {
      const due = started + (sent * 1000) / options.rate
      const i = sent++
      if (pending.size >= sockets * urls.length) {
        errors++
        continue
      }
      const req = make(i)
      const one = send(agents[i % urls.length]!, urls[i % urls.length]!, token, req)
        .then(
          (status) => {
            if (status !== (req.ok ?? 200)) errors++
          },
          () => {
            errors++
          },
        )
        .finally(() => {
          latencies.push(performance.now() - due)
          pending.delete(one)
        })
      pending.add(one)
    }
    await new Promise((resolve) => setTimeout(resolve, 1))
  }
  await Promise.all(pending)
  const result = summary(latencies, errors, started)
  for (const agent of agents) agent.destroy()
  return result
}

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

async function benchEngine(
  engine: 'pglite' | 'postgres',
  options: Required<Pick<ServerBenchOptions, 'concurrency' | 'maxRequests' | 'maxSeconds'>> & {
    databaseUrl?: string
    hashConcurrency?: number
  },
): Promise<ServerBenchResult[]> {
  const schema = engine === 'postgres' ? `bench_${randomBytes(4).toString('hex')}` : undefined
  const server = await startServer({
    port: 0,
    dataDir: 'memory',
    databaseUrl: engine === 'postgres' ? options.databaseUrl : undefined,
    schema,
    hashConcurrency: options.hashConcurrency,
  })
  try {
    const auth = await json<{ access_token: string }>(
      await fetch(`${server.url}/api/register`, {
        method: 'POST',
        body: JSON.stringify({ name: 'Бенч', email: 'bench@example.ru', password: 'password123' }),
      }),
    )
    const token = auth.access_token
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }
    const [ws] = await json<{ id: number }[]>(
      await fetch(`${server.url}/api/workspace/list`, { headers }),
    )
    const db = server.ready.services.db
    await db.query(
      `INSERT INTO departments (workspace_id, name, description)
       SELECT $1, 'Отделение ' || n, 'Описание отделения номер ' || n FROM generate_series(1, 1000) n`,
      [ws!.id],
    )
    const project = await json<{ id: number }>(
      await fetch(`${server.url}/api/project/add`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ workspace_id: ws!.id, name: 'Бенч' }),
      }),
    )
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO backgrounds (project_id, image_url, width, height, position)
       VALUES ($1, '/uploads/none.png', 1600, 900, 0) RETURNING id`,
      [project.id],
    )
    const bgId = rows[0]!.id
    const block = {
      bg_id: bgId,
      x: 0,
      y: 0,
      zindex: 1,
      rotation: 0,
      width: 40,
      fontSize: 6,
      font: 'Inter',
      align: 'center',
      color: '#000000',
      text: 'Текст',
      background: 'transparent',
      name: 'Блок',
    }
    const saved = await json<{ id: number }>(
      await fetch(`${server.url}/api/text/add`, {
        method: 'POST',
        headers,
        body: JSON.stringify(block),
      }),
    )
    const scenarios: [string, (i: number) => Req][] = [
      [
        'department/list (1,000 rows)',
        () => ({ method: 'GET', path: `/api/department/list?workspace_id=${ws!.id}` }),
      ],
      [
        'text/add with id (block save)',
        (i) => ({
          method: 'POST',
          path: '/api/text/add',
          body: JSON.stringify({ ...block, id: saved.id, x: (i % 200) - 100 + 0.125, y: i % 50 }),
        }),
      ],
    ]
    const results: ServerBenchResult[] = []
    for (const [scenario, make] of scenarios) {
      // A short warm-up, then the measured run.
      await load(server, token, make, { ...options, maxRequests: 100, maxSeconds: 5 })
      results.push({ engine, scenario, ...(await load(server, token, make, options)) })
    }
    // Sign-ins nobody can pass, and the list alongside them.
    const flood = { ...options, maxRequests: Math.min(options.maxRequests, 400) }
    const list = scenarios[0]![1]
    const [logins, during] = await Promise.all([
      load(
        server,
        '',
        (i) => ({
          method: 'POST',
          path: '/api/login',
          body: JSON.stringify({ email: `nobody${i}@example.ru`, password: 'wrong-password' }),
          ok: 401,
        }),
        flood,
      ),
      load(server, token, list, { ...flood, concurrency: 10, maxRequests: options.maxRequests }),
    ])
    results.push({ engine, scenario: 'login flood (unknown emails)', ...logins })
    results.push({ engine, scenario: 'department/list during the flood', ...during })
    return results
  } finally {
    await server.close()
    if (schema && options.databaseUrl) {
      const { default: pg } = await import('pg')
      const client = new pg.Client({ connectionString: options.databaseUrl })
      await client.connect()
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      await client.end()
    }
  }
}

/** One cell of the load matrix: a setup at a number of connections, beside the bare handler. */
export interface LoadCell {
  setup: LoadSetup
  /** Kept-alive connections, each sending its next request when its answer is in (closed loop). */
  connections: number
  server: Measured
  bare: Measured
  /**
   * Open loop instead (loadAtRate): each side sent requests at `share` of the rate it served at
   * 10 connections in this run (`connections` is then 0).
   */
  openLoop?: { share: number; serverRate: number; bareRate: number }
}
type Measured = ReturnType<typeof summary> & {
  /** The CPU time the serving processes used per request (all instances together), in ms. */
  cpuMsPerRequest: number
}

/** A load run with the CPU time the processes serving it used over it. */
async function measured(
  processes: readonly Instance[],
  run: () => Promise<ReturnType<typeof summary>>,
): Promise<Measured> {
  const cpu = async () =>
    (await Promise.all(processes.map((p) => p.cpuMs()))).reduce((a, b) => a + b, 0)
  const before = await cpu()
  const result = await run()
  const used = (await cpu()) - before
  return { ...result, cpuMsPerRequest: round(used / Math.max(1, result.requests)) }
}
export type LoadSetup = 'pglite' | 'postgres_1_instance' | 'postgres_2_instances'

export interface LoadBenchOptions {
  /** Connection counts (default 1, 10, 50). */
  connections?: readonly number[]
  /**
   * Per cell: at most this many requests (default 40,000, so that the bare handler, at some 13,000
   * a second, is measured over seconds rather than a fraction of one)…
   */
  maxRequests?: number
  /** …or this many seconds (default 3). */
  maxSeconds?: number
  /** PostgreSQL for the postgres setups; without it only PGlite runs. */
  databaseUrl?: string
  setups?: readonly LoadSetup[]
  /** The share of each call (default 70 % list, 10 % each of get, add and update). */
  mix?: MixShares
  /** Departments each cell's workspace is seeded with (default 1,000). */
  departments?: number
  /** Requests of the warm-ups (default `firstWarmUp`'s and `warmUp`'s). */
  warmUpRequests?: { first: number; each: number }
  /** Each add and update with an Idempotency-Key of its own, as the app sends them. */
  keyedWrites?: boolean
  /**
   * Open-loop cells after each setup's closed-loop ones, at these shares of the rate each side
   * served at 10 connections (default 0.25 and 0.5; none without a 10-connection cell).
   */
  openLoopShares?: readonly number[]
  print?: boolean
}

/** The processes of the load matrix started and not yet seen to exit (a Ctrl-C stops them all). */
const children = new Set<ChildProcess>()

/** A process of the load matrix (tests/bench/server-instance.ts): instance or bare handler. */
interface Instance {
  url: string
  /** Inserts departments in a workspace through the instance's own database; their ids. */
  seed: (workspaceId: number, departments: number) => Promise<number[]>
  /** The CPU time the process has used so far, in milliseconds. */
  cpuMs: () => Promise<number>
  /** Stops the process (and resolves at once if it has exited already). */
  close: () => Promise<void>
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null

/** The child's next report of a type; rejects on a failure it reports, or when it exits. */
function reportOf<T extends InstanceReport['type']>(
  child: ChildProcess,
  type: T,
): Promise<Extract<InstanceReport, { type: T }>> {
  return new Promise((resolve, reject) => {
    const done = () => {
      child.off('message', onMessage)
      child.off('exit', onExit)
      child.off('error', onError)
    }
    const onMessage = (report: InstanceReport) => {
      if (report.type === type) {
        done()
        resolve(report as Extract<InstanceReport, { type: T }>)
      } else if (report.type === 'failed') {
        done()
        reject(new Error(`server instance: ${report.message}`))
      }
    }
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      done()
      reject(new Error(`server instance exited (${signal ?? code})`))
    }
    const onError = (error: Error) => {
      done()
      reject(error)
    }
    if (exited(child)) return onExit(child.exitCode, child.signalCode)
    child.on('message', onMessage)
    child.on('exit', onExit)
    child.on('error', onError)
  })
}

function order(child: ChildProcess, message: InstanceOrder): void {
  // A channel already closing means the child is on its way out: its exit answers the order.
  if (child.connected) child.send(message, (error) => error && child.kill())
}

/** Asks a child to close, waits for it to exit, and kills it if it has not after 10 s. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (exited(child)) return
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  if (child.connected) order(child, { type: 'close' })
  else child.kill()
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
  await gone
  clearTimeout(timer)
}

/**
 * Forks tests/bench/server-instance.ts (with tsx, as the repository's scripts run TypeScript) and
 * starts in it a server instance or the bare handler; resolves with its URL once it serves.
 */
export async function startInstance(
  start: Extract<InstanceOrder, { type: 'start' }>,
): Promise<Instance> {
  const child = fork(fileURLToPath(new URL('./server-instance.ts', import.meta.url)), [], {
    cwd: fileURLToPath(new URL('../../', import.meta.url)),
    execArgv: serverExecArgv(),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  children.add(child)
  child.once('exit', () => children.delete(child))
  // Failures reach the caller through reportOf; an 'error' without a listener would throw.
  child.on('error', () => undefined)
  try {
    const started = reportOf(child, 'started')
    order(child, start)
    const { url } = await started
    return {
      url,
      async seed(workspaceId, departments) {
        const seeded = reportOf(child, 'seeded')
        order(child, { type: 'seed', workspaceId, departments })
        return (await seeded).ids
      },
      async cpuMs() {
        const usage = reportOf(child, 'usage')
        order(child, { type: 'usage' })
        return (await usage).cpuMicros / 1000
      },
      close: () => stopChild(child),
    }
  } catch (error) {
    await stopChild(child)
    throw error
  }
}

/** The share of each call in the mix (they need not add up to 1). */
export interface MixShares {
  list: number
  get: number
  add: number
  update: number
}

/**
 * The mix a team's clients send the directory (server/README.md, "Throughput, and which engine").
 */
const teamMix: MixShares = { list: 0.7, get: 0.1, add: 0.1, update: 0.1 }

/**
 * Calls to departments in a workspace seeded with 1,000 of them, each drawn with its share of the
 * mix (the team's by default; one call alone shows what that call costs).
 */
function departmentMix(
  workspaceId: number,
  ids: readonly number[],
  shares: MixShares = teamMix,
  keyed = false,
): (i: number) => Req {
  // A fixed pseudo-random sequence, so every run sends the same requests.
  const random = seededRandom(7)
  // Keys are the user's: unique across the cells of a run, which share the user.
  const keyPrefix = randomBytes(6).toString('hex')
  const key = (i: number) => (keyed ? `${keyPrefix}-${i}` : undefined)
  const total = shares.list + shares.get + shares.add + shares.update
  const [list, get, add] = [
    shares.list / total,
    (shares.list + shares.get) / total,
    (shares.list + shares.get + shares.add) / total,
  ]
  return (i) => {
    const roll = random()
    const id = ids[Math.floor(random() * ids.length)]!
    if (roll < list)
      return { method: 'GET', path: `/api/department/list?workspace_id=${workspaceId}` }
    if (roll < get) return { method: 'GET', path: `/api/department/get?id=${id}` }
    if (roll < add)
      return {
        method: 'POST',
        path: '/api/department/add',
        body: JSON.stringify({ workspace_id: workspaceId, name: `Новое ${i}`, description: '' }),
        key: key(i),
      }
    return {
      method: 'POST',
      path: '/api/department/update',
      body: JSON.stringify({ id, name: `Отделение ${id} (${i})` }),
      key: key(i),
    }
  }
}

/**
 * The server instances of a setup, each in its own process: one on PGlite (in that process), or
 * one or two on PostgreSQL sharing a fresh schema, started one after the other so that only the
 * first creates the tables.
 */
async function startSetup(setup: LoadSetup, databaseUrl: string | undefined) {
  const schema = setup === 'pglite' ? undefined : `bench_${randomBytes(4).toString('hex')}`
  const common = { port: 0, dataDir: 'memory', uploadSweepEveryMs: 0 } as const
  const options: InstanceOptions = setup === 'pglite' ? common : { ...common, databaseUrl, schema }
  const instances: Instance[] = []
  const close = async () => {
    await Promise.all(instances.map((instance) => instance.close()))
    if (schema && databaseUrl) {
      const { default: pg } = await import('pg')
      const client = new pg.Client({ connectionString: databaseUrl })
      await client.connect()
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      await client.end()
    }
  }
  try {
    const count = setup === 'postgres_2_instances' ? 2 : 1
    for (let i = 0; i < count; i++)
      instances.push(await startInstance({ type: 'start', role: 'server', options }))
  } catch (error) {
    await close()
    throw error
  }
  return { instances, close }
}

/**
 * Warm-ups at 10 connections: each side before a setup's cells (a fresh server instance, and the
 * bare handler again), and the bare handler once more before the first setup. Each side has a
 * process of its own to warm, which nothing else warms, and on the development machine a fresh
 * process went on getting faster for thousands of requests (the bare handler, whose requests
 * cost little, for tens of thousands), which favoured whichever side was less warm.
 */
const warmUp = { concurrency: 10, maxRequests: 20_000, maxSeconds: 5 }
const firstWarmUp = { concurrency: 10, maxRequests: 60_000, maxSeconds: 10 }

/**
 * The load matrix: the department mix at each number of kept-alive connections, against PGlite and
 * against PostgreSQL with one and with two instances (two servers on one database, the requests
 * spread round-robin), each cell next to the bare handler measured right before it with the same
 * client. Each server instance and the bare handler run in processes of their own (one process for
 * the bare handler, kept for the whole matrix; fresh instances for each setup), the client in
 * this one. Every cell stops at its request count or its time limit; everything is on 127.0.0.1.
 * The processes are stopped when the matrix ends, fails or is interrupted (Ctrl-C).
 */
export async function runServerLoadBench(options: LoadBenchOptions = {}): Promise<LoadCell[]> {
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL
  const connections = options.connections ?? [1, 10, 50]
  const limits = { maxRequests: options.maxRequests ?? 40_000, maxSeconds: options.maxSeconds ?? 3 }
  const setups = (
    options.setups ?? ['pglite', 'postgres_1_instance', 'postgres_2_instances']
  ).filter((setup) => setup === 'pglite' || databaseUrl)
  const departments = options.departments ?? 1000
  const firstWarm = { ...firstWarmUp, maxRequests: options.warmUpRequests?.first ?? 60_000 }
  const eachWarm = { ...warmUp, maxRequests: options.warmUpRequests?.each ?? 20_000 }
  const cells: LoadCell[] = []
  // A Ctrl-C stops every process the matrix started, then drops the schemas, then the bench.
  const interrupted = new AbortController()
  const interrupt = () => {
    // One Ctrl-C may arrive more than once (npm and tsx pass it on): the first one counts.
    if (interrupted.signal.aborted) return
    interrupted.abort()
    for (const child of children) child.kill()
  }
  process.on('SIGINT', interrupt)
  try {
    const bare = await startInstance({ type: 'start', role: 'bare' })
    const bareReq = () => ({ method: 'GET', path: '/bare' }) as const
    try {
      // The bare handler's process and the client's code, before the first setup (firstWarmUp).
      await load([bare.url], '', bareReq, { ...firstWarm, signal: interrupted.signal })
      for (const setup of setups) {
        const running = await startSetup(setup, databaseUrl)
        try {
          const [first] = running.instances
          const auth = await json<{ access_token: string }>(
            await fetch(`${first!.url}/api/register`, {
              method: 'POST',
              body: JSON.stringify({
                name: 'Бенч',
                email: 'load@example.ru',
                password: 'password123',
              }),
            }),
          )
          const token = auth.access_token
          // Every run on a workspace of its own with the same 1,000 departments, so that every
          // cell starts from the same list: the mix's adds (10 %) grow it, by some 300 rows in a
          // second at 10 connections, and a shared workspace would give each cell a longer list
          // than the one before it.
          const workspaceMix = async (name: string) => {
            const ws = await json<{ id: number }>(
              await fetch(`${first!.url}/api/workspace/add`, {
                method: 'POST',
                headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
                body: JSON.stringify({ name }),
              }),
            )
            return departmentMix(
              ws.id,
              await first!.seed(ws.id, departments),
              options.mix,
              options.keyedWrites,
            )
          }
          const urls = running.instances.map((instance) => instance.url)
          const signal = interrupted.signal
          // Warm-up (warmUp): JIT, the database's caches, the first connections.
          await load(urls, token, await workspaceMix('Разминка'), { ...eachWarm, signal })
          await load([bare.url], '', bareReq, { ...eachWarm, signal })
          for (const concurrency of connections) {
            const settings = { ...limits, concurrency, signal }
            const bareRun = await measured([bare], () => load([bare.url], '', bareReq, settings))
            const mix = await workspaceMix(`Ячейка ${concurrency}`)
            const serverRun = await measured(running.instances, () =>
              load(urls, token, mix, settings),
            )
            signal.throwIfAborted()
            cells.push({ setup, connections: concurrency, server: serverRun, bare: bareRun })
          }
          // What users wait at loads the server keeps up with: a fixed rate, below its capacity.
          const capacity = cells.find((c) => c.setup === setup && c.connections === 10)
          for (const share of capacity ? (options.openLoopShares ?? [0.25, 0.5]) : []) {
            const at = { maxSeconds: limits.maxSeconds, signal }
            const bareRate = Math.round(capacity!.bare.requestsPerSecond * share)
            const serverRate = Math.round(capacity!.server.requestsPerSecond * share)
            const bareRun = await measured([bare], () =>
              loadAtRate([bare.url], '', bareReq, { ...at, rate: bareRate }),
            )
            const mix = await workspaceMix(`Поток ${share}`)
            const serverRun = await measured(running.instances, () =>
              loadAtRate(urls, token, mix, { ...at, rate: serverRate }),
            )
            signal.throwIfAborted()
            cells.push({
              setup,
              connections: 0,
              server: serverRun,
              bare: bareRun,
              openLoop: { share, serverRate, bareRate },
            })
          }
        } finally {
          await running.close()
        }
      }
    } finally {
      await bare.close()
    }
  } finally {
    process.off('SIGINT', interrupt)
    if (interrupted.signal.aborted) {
      // Everything is stopped and dropped: the Ctrl-C ends the bench, as it would have.
      console.error('Interrupted: the server instances are stopped.')
      process.exit(130)
    }
  }
  if (options.print ?? true) {
    console.log(
      `\nLoad: 70 % department/list, 10 % get, 10 % add, 10 % update, on a workspace of ` +
        `${departments.toLocaleString('en')} departments fresh for each cell; ` +
        `at most ${limits.maxRequests} requests or ${limits.maxSeconds} s per cell; ` +
        `"open N %": requests sent at N % of the rate each side served at 10 connections, ` +
        `whatever the answers, each timed from when it was due\n`,
    )
    console.log(formatLoadTable(cells))
  }
  return cells
}

const round = (n: number, digits = 3) => Number(n.toFixed(digits))

/** The figures bench-results.json keeps (tests/bench/run.ts). */
export function loadFigures(cells: readonly LoadCell[]): Record<string, number> {
  const figures: Record<string, number> = {}
  const oneConnection = (setup: LoadSetup) =>
    cells.find((c) => c.setup === setup && c.connections === 1 && !c.openLoop)
  for (const { setup, connections: n, server, bare, openLoop } of cells) {
    if (openLoop) {
      const at = `open_${Math.round(openLoop.share * 100)}`
      figures[`server_${at}_offered_rps_${setup}`] = openLoop.serverRate
      figures[`server_${at}_p50_ms_${setup}`] = server.p50Ms
      figures[`server_${at}_p99_ms_${setup}`] = server.p99Ms
      figures[`server_${at}_errors_${setup}`] = server.errors
      const one = oneConnection(setup)
      if (one) {
        // The tail at a load it keeps up with, over what one request alone takes.
        figures[`server_${at}_p99_over_p50_1_${setup}`] = round(server.p99Ms / one.server.p50Ms, 2)
        figures[`bare_${at}_p99_over_p50_1_${setup}`] = round(bare.p99Ms / one.bare.p50Ms, 2)
      }
      continue
    }
    figures[`server_rps_${n}_${setup}`] = server.requestsPerSecond
    figures[`server_rps_ratio_vs_bare_${n}_${setup}`] = round(
      server.requestsPerSecond / bare.requestsPerSecond,
    )
    figures[`server_p50_ms_${n}_${setup}`] = server.p50Ms
    figures[`server_p99_ms_${n}_${setup}`] = server.p99Ms
    figures[`server_p50_ratio_vs_bare_${n}_${setup}`] = round(server.p50Ms / bare.p50Ms, 1)
    figures[`server_p99_ratio_vs_bare_${n}_${setup}`] = round(server.p99Ms / bare.p99Ms, 1)
    figures[`server_errors_${n}_${setup}`] = server.errors
    figures[`server_cpu_ms_per_request_${n}_${setup}`] = server.cpuMsPerRequest
    figures[`bare_cpu_ms_per_request_${n}_${setup}`] = bare.cpuMsPerRequest
  }
  for (const setup of new Set(cells.map((c) => c.setup))) {
    const at = (n: number) =>
      cells.find((c) => c.setup === setup && c.connections === n && !c.openLoop)
    const one = at(1)
    const fifty = at(50)
    if (one && fifty) {
      figures[`server_p99_50_over_p50_1_${setup}`] = round(fifty.server.p99Ms / one.server.p50Ms, 2)
      // The same ratio for the bare handler in the same run: what the machine and the client allow.
      figures[`bare_p99_50_vs_p50_1_${setup}`] = round(fifty.bare.p99Ms / one.bare.p50Ms, 2)
      // The server's tail growth over the bare handler's in the same run (goal ≤ 1.5).
      figures[`server_tail_ratio_vs_bare_${setup}`] = round(
        fifty.server.p99Ms / one.server.p50Ms / (fifty.bare.p99Ms / one.bare.p50Ms),
        2,
      )
    }
  }
  return figures
}

export function formatLoadTable(cells: readonly LoadCell[]): string {
  const header = [
    'setup',
    'conns',
    'req/s',
    'p50 ms',
    'p99 ms',
    'errors',
    'CPU ms/req',
    'bare req/s',
    'bare p50',
    'bare p99',
    'req/s ×bare',
    'p50 ×bare',
    'p99 ×bare',
  ]
  const rows = cells.map(({ setup, connections, server, bare, openLoop }) => [
    setup,
    openLoop ? `open ${Math.round(openLoop.share * 100)} %` : String(connections),
    String(server.requestsPerSecond),
    String(server.p50Ms),
    String(server.p99Ms),
    String(server.errors),
    String(server.cpuMsPerRequest),
    String(bare.requestsPerSecond),
    String(bare.p50Ms),
    String(bare.p99Ms),
    (server.requestsPerSecond / bare.requestsPerSecond).toFixed(3),
    (server.p50Ms / bare.p50Ms).toFixed(1),
    (server.p99Ms / bare.p99Ms).toFixed(1),
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)))
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ')
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n')
}

/** `npm run bench server`: the load matrix, as figures. */
export async function runServerLoadFigures(
  options: BenchOptions = {},
): Promise<Record<string, number>> {
  const smoke: LoadBenchOptions = {
    setups: ['pglite'],
    departments: 50,
    maxSeconds: 0.15,
    warmUpRequests: { first: 300, each: 100 },
  }
  // BENCH_KEYED_WRITES=1: every add and update with an Idempotency-Key, as the app sends them.
  return loadFigures(
    await runServerLoadBench({
      keyedWrites: process.env.BENCH_KEYED_WRITES === '1',
      ...(isSmoke(options) ? smoke : {}),
    }),
  )
}

export function formatTable(results: readonly ServerBenchResult[]): string {
  const header = [
    'engine',
    'scenario',
    'requests',
    'errors',
    'seconds',
    'req/s',
    'p50 ms',
    'p99 ms',
  ]
  const rows = results.map((r) => [
    r.engine,
    r.scenario,
    String(r.requests),
    String(r.errors),
    String(r.seconds),
    String(r.requestsPerSecond),
    String(r.p50Ms),
    String(r.p99Ms),
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)))
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ')
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n')
}

/** Runs the benchmark on PGlite and, when a database URL is given (or set), on PostgreSQL. */
export async function runServerBench(
  options: ServerBenchOptions = {},
): Promise<ServerBenchResult[]> {
  const settings = {
    concurrency: options.concurrency ?? 50,
    maxRequests: options.maxRequests ?? 3000,
    maxSeconds: options.maxSeconds ?? 15,
    databaseUrl: options.databaseUrl ?? process.env.DATABASE_URL,
    hashConcurrency: options.hashConcurrency,
  }
  const results = await benchEngine('pglite', settings)
  if (settings.databaseUrl) results.push(...(await benchEngine('postgres', settings)))
  if (options.print ?? true) {
    console.log(
      `\nServer bench: ${settings.concurrency} concurrent connections, ` +
        `at most ${settings.maxRequests} requests or ${settings.maxSeconds} s per scenario\n`,
    )
    console.log(formatTable(results))
  }
  return results
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runServerBench()
    .then(() => runServerLoadBench())
    .catch((error: unknown) => {
      console.error(error)
      process.exit(1)
    })
}
