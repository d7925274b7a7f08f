import { randomBytes } from 'node:crypto'
import http from 'node:http'
import { pathToFileURL } from 'node:url'
import { startServer, type RunningServer } from '../../server/index.ts'

/**
 * Throughput and tail latency of the reference server: department/list with 1,000 rows, and a
 * block save (text/add with id), each with 50 concurrent keep-alive connections, bounded by a
 * request count and a time limit; then a flood of sign-ins with wrong passwords for unknown
 * emails (password hashing runs two at a time, docs/API.md "Limits") and, at the same time, the
 * department list on 10 connections of its own, to show what the flood leaves for everyone else. The load generator runs in the same process as the server (the
 * machine has two cores), so the figures are a floor, comparable between runs and engines.
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
}

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
          ...(req.body
            ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(req.body) }
            : {}),
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

async function load(
  server: RunningServer,
  token: string,
  make: (i: number) => Req,
  options: Required<Pick<ServerBenchOptions, 'concurrency' | 'maxRequests' | 'maxSeconds'>>,
) {
  const base = new URL(server.url)
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency })
  const latencies: number[] = []
  let errors = 0
  let issued = 0
  const started = performance.now()
  const deadline = started + options.maxSeconds * 1000
  const worker = async () => {
    while (issued < options.maxRequests && performance.now() < deadline) {
      const i = issued++
      const t = performance.now()
      try {
        const req = make(i)
        const status = await send(agent, base, token, req)
        if (status !== (req.ok ?? 200)) errors++
      } catch {
        errors++
      }
      latencies.push(performance.now() - t)
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, worker))
  const seconds = (performance.now() - started) / 1000
  agent.destroy()
  latencies.sort((a, b) => a - b)
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0
  return {
    requests: latencies.length,
    errors,
    seconds: Math.round(seconds * 100) / 100,
    requestsPerSecond: Math.round(latencies.length / seconds),
    p50Ms: Math.round(pct(0.5) * 10) / 10,
    p99Ms: Math.round(pct(0.99) * 10) / 10,
  }
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
  runServerBench().catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
}
