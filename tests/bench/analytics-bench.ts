import { execFileSync, fork, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AnalyticsSummary } from '../../src/domain/analytics.ts'
import { createApp } from '../../server/index.ts'
import type { InstanceOrder, InstanceReport } from './server-instance.ts'
import { isSmoke, type BenchOptions } from './smoke.ts'
import { serverExecArgv } from './server-child.ts'

/**
 * `npm run bench analytics` (docs/analytics.md): what counting views costs.
 *
 * - `analytics_views_per_s`: views of a published page counted (written to the database and read
 *   back by the summary) per second, while a load generator in this process asks a server in a
 *   process of its own (tests/bench/server-instance.ts, PGlite on disk) for the page at a fixed
 *   rate (open loop, each request timed from when it was due) for 20 s, half of them answered
 *   `304`, every one by another User-Agent (a new visitor each).
 * - `analytics_api_p50_ratio`: the median of an authenticated list call (project/list) asked one
 *   after another during the load, over its median with the server idle.
 * - `analytics_api_p50_ratio_vs_uncounted`: what counting alone costs that call. The same load for
 *   8 s by people (counted) and by a link preview's robot (served alike, not counted), 5 rounds
 *   in alternating order on the restarted server, the call's median counted over not counted;
 *   the median of the rounds (their range printed). On two cores the loaded call also waits for the
 *   load generator, whatever counting costs; this figure leaves that out.
 * - `analytics_views_lost`: views answered and not counted after a graceful stop (the server's
 *   close()) and a start on the same data.
 * - `analytics_summary_ms`: the median of the summary for 90 days of a workspace with 50 pages
 *   (3 sources × 3 devices each day: 40,500 rows), in-process on PGlite.
 *
 * ANALYTICS_BENCH_SECONDS shortens the load; ANALYTICS_BENCH_RATE sets the rate asked (default
 * 3,300 a second). `BENCH_SMOKE=1` (or `{ smoke: true }`): a second of load at a tenth of the rate,
 * the idle list calls for 0.3 s, and a summary of 7 days of 3 pages asked 3 times (seconds).
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url))

interface Child {
  url: string
  close(): Promise<void>
}

async function startChild(dataDir: string): Promise<Child> {
  const child: ChildProcess = fork(
    fileURLToPath(new URL('./server-instance.ts', import.meta.url)),
    [],
    {
      cwd: ROOT,
      execArgv: serverExecArgv(),
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  )
  child.on('error', () => undefined)
  const started = new Promise<string>((resolve, reject) => {
    child.on('message', (m: InstanceReport) => {
      if (m.type === 'started') resolve(m.url)
      if (m.type === 'failed') reject(new Error(m.message))
    })
    child.once('exit', () => reject(new Error('the server process exited')))
  })
  const start: InstanceOrder = {
    type: 'start',
    role: 'server',
    options: { port: 0, dataDir, uploadSweepEveryMs: 0 },
  }
  child.send(start)
  const url = await started
  return {
    url,
    close: async () => {
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      child.send({ type: 'close' } satisfies InstanceOrder)
      await gone
    },
  }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 48 })

function request(
  url: string,
  o: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: o.method ?? 'GET', headers: o.headers, agent },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString(),
            headers: res.headers,
          }),
        )
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(o.body)
  })
}

async function api<T>(base: string, path: string, token: string | null, body?: unknown) {
  const res = await request(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.body}`)
  return JSON.parse(res.body) as T
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

/** Moscow's day of now, as the server counts it. */
const today = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow' }).format(new Date())

async function listP50(base: string, token: string, workspace: number, until: () => boolean) {
  const times: number[] = []
  while (!until()) {
    const started = performance.now()
    await api(base, `/api/project/list?workspace_id=${workspace}`, token)
    times.push(performance.now() - started)
  }
  return { p50: median(times), calls: times.length }
}

/**
 * `rate` views a second of the published page for `seconds` (due every 10 ms in slices, each timed
 * from when it was due; half asked with the page's ETag), and the list call's median meanwhile
 * (from the load's second second, or its second quarter when shorter). `people`: each view by a
 * new visitor's phone, counted; `robots`: each by a link preview's robot, served the same and not
 * counted.
 */
async function pageLoad(
  base: string,
  pageUrl: string,
  etag: string,
  token: string,
  workspace: number,
  o: { seconds: number; rate: number; visitors: 'people' | 'robots' },
) {
  const loadedFromMs = Math.min(1_000, (o.seconds * 1_000) / 4)
  let answered = 0
  let failed = 0
  const late: number[] = []
  const started = performance.now()
  const end = started + o.seconds * 1_000
  const inflight = new Set<Promise<void>>()
  let sent = 0
  const loadDone = (async () => {
    while (performance.now() < end) {
      const due = Math.floor(((performance.now() - started) / 1_000) * o.rate)
      for (; sent < due; sent++) {
        const n = sent
        const dueAt = started + (n / o.rate) * 1_000
        const userAgent =
          o.visitors === 'people'
            ? `Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) Mobile/${n}`
            : `TelegramBot (like TwitterBot) ${n}`
        const p = request(`${pageUrl}?utm_source=s${n % 5}`, {
          headers: {
            'User-Agent': userAgent,
            'Accept-Encoding': 'gzip',
            ...(n % 2 === 0 ? { 'If-None-Match': etag } : {}),
          },
        })
          .then((res) => {
            if (res.status === 200 || res.status === 304) answered += 1
            else failed += 1
            late.push(performance.now() - dueAt)
          })
          .catch(() => {
            failed += 1
          })
          .finally(() => inflight.delete(p))
        inflight.add(p)
      }
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    await Promise.all(inflight)
  })()
  await new Promise((resolve) => setTimeout(resolve, loadedFromMs))
  const loaded = await listP50(base, token, workspace, () => performance.now() > end)
  await loadDone
  return { sent, answered, failed, late, loaded, elapsed: (performance.now() - started) / 1_000 }
}

async function viewsUnderLoad(smoke: boolean): Promise<Record<string, number>> {
  const seconds = smoke ? 1 : Number(process.env.ANALYTICS_BENCH_SECONDS ?? 20)
  const rate = smoke ? 330 : Number(process.env.ANALYTICS_BENCH_RATE ?? 3_300)
  // The idle list calls, and how far into the load the loaded ones begin.
  const idleMs = smoke ? 300 : 3_000
  if (!existsSync(join(ROOT, 'dist-page/render.js'))) {
    console.log('building the page renderer (dist-page)…')
    execFileSync('npx', ['vite', 'build', '--config', 'vite.page.config.ts'], {
      cwd: ROOT,
      stdio: 'ignore',
    })
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'analytics-bench-'))
  let server = await startChild(dataDir)
  try {
    const base = server.url
    const auth = await api<{ access_token: string }>(base, '/api/register', null, {
      name: 'Бенчмарк',
      email: `bench${Date.now()}@example.ru`,
      password: 'password123',
    })
    const token = auth.access_token
    const [workspace] = await api<{ id: number }[]>(base, '/api/workspace/list', token)
    for (let i = 0; i < (smoke ? 2 : 20); i++) {
      await api(base, '/api/project/add', token, {
        workspace_id: workspace!.id,
        name: `Проект ${i}`,
      })
    }
    const project = await api<{ id: number }>(base, '/api/project/add', token, {
      workspace_id: workspace!.id,
      name: 'Акция',
    })
    const { slug } = await api<{ slug: string }>(base, '/api/project/publish', token, {
      project_id: project.id,
    })
    const pageUrl = `${base}/p/${slug}`
    const first = await request(pageUrl, { headers: { 'User-Agent': 'warm-up robot' } })
    const etag = String(first.headers.etag)

    // Idle: the list call alone.
    const end = performance.now() + idleMs
    const idle = await listP50(base, token, workspace!.id, () => performance.now() > end)

    // The load, by people: their views are counted.
    const people = await pageLoad(base, pageUrl, etag, token, workspace!.id, {
      seconds,
      rate,
      visitors: 'people',
    })
    const { sent, answered, failed, late, elapsed, loaded } = people
    // A graceful stop right away (the last batch unwritten), a start on the same data.
    await server.close()
    server = await startChild(dataDir)
    const summary = await api<AnalyticsSummary>(
      server.url,
      `/api/analytics/summary?workspace_id=${workspace!.id}&from=${today()}&to=${today()}`,
      token,
    )
    const counted = summary.totals.views
    console.log(
      `asked ${sent} views in ${elapsed.toFixed(1)} s (${Math.round(sent / elapsed)}/s), ` +
        `answered ${answered}, failed ${failed}, counted ${counted}; ` +
        `late p50 ${median(late).toFixed(1)} ms; ` +
        `project/list p50 idle ${idle.p50.toFixed(2)} ms (${idle.calls}), ` +
        `loaded ${loaded.p50.toFixed(2)} ms (${loaded.calls})`,
    )
    // What counting alone costs the API: the same load by people (counted) and by a link
    // preview's robot (served alike, not counted: server/analytics/classify.ts), alternating.
    const rounds = smoke ? 1 : 5
    const ratios: number[] = []
    const roundSeconds = smoke ? 0.5 : 8
    // The restarted server warmed up by both first (its page rendered, its caches filled).
    for (const visitors of ['robots', 'people'] as const) {
      await pageLoad(server.url, `${server.url}/p/${slug}`, etag, token, workspace!.id, {
        seconds: smoke ? 0.3 : 2,
        rate,
        visitors,
      })
    }
    for (let i = 0; i < rounds; i++) {
      const order = i % 2 === 0 ? (['people', 'robots'] as const) : (['robots', 'people'] as const)
      const p50: Record<string, number> = {}
      for (const visitors of order) {
        const run = await pageLoad(
          server.url,
          `${server.url}/p/${slug}`,
          etag,
          token,
          workspace!.id,
          {
            seconds: roundSeconds,
            rate,
            visitors,
          },
        )
        p50[visitors] = run.loaded.p50
      }
      ratios.push(p50.people! / p50.robots!)
      console.log(
        `round ${i + 1}: project/list p50 under the load ${p50.people!.toFixed(2)} ms counted, ` +
          `${p50.robots!.toFixed(2)} ms not counted`,
      )
    }
    console.log(
      `counted over not counted: median ${median(ratios).toFixed(3)} ` +
        `(${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)})`,
    )
    return {
      analytics_views_per_s: counted / elapsed,
      analytics_api_p50_ratio: loaded.p50 / idle.p50,
      analytics_api_p50_ratio_vs_uncounted: median(ratios),
      analytics_views_lost: answered - counted,
    }
  } finally {
    await server.close().catch(() => undefined)
    agent.destroy()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

async function summaryMs(smoke: boolean): Promise<Record<string, number>> {
  const pages = smoke ? 3 : 50
  const days = smoke ? 7 : 90
  const asks = smoke ? 3 : 25
  // The first asks warm the caches up and are left out of the median.
  const warm = smoke ? 1 : 5
  const app = createApp({ dataDir: 'memory', uploadSweepEveryMs: 0, analyticsFlushMs: 0 })
  const { services } = await app.ready()
  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const res = await app.request(path, {
      method,
      headers: {
        'Content-Type': 'application/json',
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`)
    return res.json() as Promise<Record<string, unknown>>
  }
  const auth = await call('POST', '/api/register', undefined, {
    name: 'Бенчмарк',
    email: 'summary@example.ru',
    password: 'password123',
  })
  const token = auth.access_token as string
  const [workspace] = (await call('GET', '/api/workspace/list', token)) as unknown as {
    id: number
  }[]
  const ids: number[] = []
  for (let i = 0; i < pages; i++) {
    const p = await call('POST', '/api/project/add', token, {
      workspace_id: workspace!.id,
      name: `Страница ${i}`,
    })
    ids.push(p.id as number)
  }
  const to = today()
  await services.db.query(
    `INSERT INTO analytics_days (workspace_id, project_id, day, source, device, views, visitors, clicks)
     SELECT $1, p, $3::date - d, s, dev, 10 + (p + d) % 7, 5 + (p + d) % 5, (p + d) % 3
     FROM unnest($2::int[]) p, generate_series(0, $4::int - 1) d,
          unnest(ARRAY['', 'vk', 'google.com']) s, unnest(ARRAY['phone', 'tablet', 'computer']) dev`,
    [workspace!.id, ids, to, days],
  )
  const from = new Date(Date.parse(`${to}T00:00:00Z`) - (days - 1) * 86_400_000)
    .toISOString()
    .slice(0, 10)
  const path = `/api/analytics/summary?workspace_id=${workspace!.id}&from=${from}&to=${to}`
  const times: number[] = []
  for (let i = 0; i < asks; i++) {
    const started = performance.now()
    const res = await app.request(path, { headers: { Authorization: `Bearer ${token}` } })
    await res.arrayBuffer()
    times.push(performance.now() - started)
  }
  await app.close()
  const rows = (days * pages * 9).toLocaleString('en')
  console.log(
    `summary of ${days} days × ${pages} pages (${rows} rows): median ${median(times).toFixed(1)} ms`,
  )
  return { analytics_summary_ms: median(times.slice(warm)) }
}

export async function runAnalyticsBench(
  options: BenchOptions = {},
): Promise<Record<string, number>> {
  const smoke = isSmoke(options)
  return { ...(await viewsUnderLoad(smoke)), ...(await summaryMs(smoke)) }
}
