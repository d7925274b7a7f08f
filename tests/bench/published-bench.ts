/**
 * `npm run bench published` (docs/publishing.md, "Rendering on the server"): a landing page (3
 * sections, every block type) and a stories page (4 slides), published and measured where a visitor
 * meets them.
 *
 * - Lighthouse 12.2.3 (pinned: the last to run on Node 20) with its mobile preset (simulated slow
 *   4G and 4× CPU) on Debian's Chromium: performance score, LCP, CLS, TBT of each page
 *   (each the median of 5 runs, the pages alternating; `published_lighthouse_performance` is the
 *   lower of the two pages', the times the higher), and
 *   `published_kib_before_lcp`: HTML, CSS, JS and fonts requested before the observed largest
 *   paint, as transferred (images apart).
 * - `published_rps_ratio_vs_static`: requests per second of `GET /p/{slug}` over the same server
 *   sending a static file of the page's own bytes, 10 connections, gzip both, 5 alternating rounds
 *   (median, spread printed). Client and server share this process and the machine's 2 cores.
 * - `published_render_ms_200_blocks`: p50 of rendering a page of 200 blocks not yet cached.
 *
 * `BENCH_SMOKE=1` (or `{ smoke: true }`) runs each part at a token size (no Lighthouse; the twin's
 * server on the page's server's database), for CI to see it still works.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { startServer, type RunningServer } from '../../server/index.ts'
import type { PageSnapshot } from '../../src/domain/publish.ts'
import { loadRenderer, type RendererSource } from '../../server/published/renderer.ts'
import { isSmoke, type BenchOptions } from './smoke.ts'

type Figures = Record<string, number>

/** Lighthouse runs per page; each figure is their median. */
const LIGHTHOUSE_RUNS = 5

export interface PublishedBenchOptions extends BenchOptions {
  /** Where the app is built (default: build it when missing). */
  staticDir?: string
  renderer?: RendererSource
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!
}

async function call<T>(server: RunningServer, token: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}/api/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

async function upload(
  server: RunningServer,
  token: string,
  path: string,
  bytes: Buffer,
  fields: Record<string, string>,
  name: string,
) {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(bytes)]), name)
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  const res = await fetch(`${server.url}/api/${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  })
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as { id: number; url?: string; image_url?: string }
}

/** A photo-like background: gradients and shapes, so its JPEG weighs what a real one does. */
async function photo(width: number, height: number, hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue},70%,55%)"/><stop offset="1" stop-color="hsl(${hue + 60},70%,45%)"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    ${Array.from({ length: 40 }, (_, i) => `<circle cx="${(i * 97) % width}" cy="${(i * 61) % height}" r="${20 + ((i * 13) % 90)}" fill="hsla(${hue + i * 7},60%,70%,0.35)"/>`).join('')}
  </svg>`
  return sharp(Buffer.from(svg)).jpeg({ quality: 82 }).toBuffer()
}

async function seed(server: RunningServer, smoke: boolean) {
  // A smoke run's pictures are small: it checks the bench runs, not what the images cost.
  const scale = smoke ? 0.2 : 1
  const px = (n: number) => Math.round(n * scale)
  const email = `bench-${Date.now()}@example.ru`
  const reg = await fetch(`${server.url}/api/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Замер', email, password: 'password123' }),
  })
  const { access_token: token } = (await reg.json()) as { access_token: string }
  const [ws] = await call<{ id: number }[]>(server, token, 'workspace/list')
  const workspace = ws!.id
  const project = async (name: string, type: 1 | 2) => {
    const { id } = await call<{ id: number }>(server, token, 'project/add', {
      workspace_id: workspace,
      name,
    })
    await call(server, token, 'project/set_type', { project_id: id, type })
    return id
  }
  const text = (bg: number, words: string, y: number, size = 6) => ({
    bg_id: bg,
    x: 50,
    y,
    zindex: 2,
    rotation: 0,
    width: 80,
    fontSize: size,
    font: 'Montserrat',
    align: 'center',
    color: '#ffffff',
    text: words,
    background: 'transparent',
    name: '',
  })
  const place = (bg: number, x: number, y: number) => ({ bg_id: bg, x, y, zindex: 3, rotation: 0 })

  const landing = await project('Весенний чек-ап со скидкой 20%', 1)
  const bgs: number[] = []
  for (const hue of [200, 140, 20]) {
    bgs.push(
      (
        await upload(
          server,
          token,
          'project/add_bg',
          await photo(px(1600), px(900), hue),
          { project_id: String(landing) },
          'bg.jpg',
        )
      ).id,
    )
  }
  const specialist = await call<{ id: number }>(server, token, 'specialist/add', {
    workspace_id: workspace,
    name: 'Анна Петрова',
    position: 'Терапевт',
    department_id: null,
    location_id: null,
    phone: '',
    email: '',
    photo_url: '',
    description: '',
    enabled: true,
  })
  await call(
    server,
    token,
    'text/add',
    text(bgs[0]!, 'Весенний чек-ап: всё о здоровье за один день', 22, 7),
  )
  await call(
    server,
    token,
    'text/add',
    text(bgs[0]!, 'Анализы, УЗИ и консультация терапевта со скидкой 20% до 31 мая', 40, 3.5),
  )
  await call(server, token, 'button/add', {
    ...place(bgs[0]!, 50, 58),
    width: 30,
    height: 8,
    btn_type: 'target',
    btn_type_value: String(bgs[2]),
    name: '',
    border_width: 0,
    border_color: '#000000',
    fontSize: 3,
    font: 'Montserrat',
    align: 'center',
    color: '#1c7ed6',
    background: '#ffffff',
    text: 'Записаться',
  })
  await call(server, token, 'price/add', {
    ...place(bgs[0]!, 30, 80),
    color: '#2b8a3e',
    text: 'Чек-ап',
    text_price: 4900,
    button_text: 'Выбрать',
  })
  await call(server, token, 'gift/add', {
    ...place(bgs[0]!, 70, 80),
    color: '#e64980',
    text: 'Консультация диетолога',
    name: '',
    button_url: '',
    button_hook_url: '',
  })
  const picture = await upload(
    server,
    token,
    'image/upload',
    await photo(px(800), px(600), 300),
    {},
    'pic.jpg',
  )
  await call(server, token, 'image/add', {
    ...place(bgs[1]!, 30, 50),
    width: 35,
    height: 40,
    scaleX: 1,
    scaleY: 1,
    name: '',
    image_url: picture.url,
  })
  await call(server, token, 'video/add', {
    ...place(bgs[1]!, 70, 50),
    width: 40,
    height: 30,
    scaleX: 1,
    scaleY: 1,
    video_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    video_src: '',
    name: '',
  })
  await call(server, token, 'subscribe/add', {
    ...place(bgs[2]!, 50, 55),
    specialist_id: specialist.id,
    date: '2026-12-15',
    action: 'Записаться',
  })
  await call(server, token, 'text/add', text(bgs[2]!, 'Запишитесь к нашим врачам', 20, 6))

  const stories = await project('Сторис: запись к педиатру', 2)
  for (const [i, hue] of [330, 30, 190, 260].entries()) {
    const bg = (
      await upload(
        server,
        token,
        'project/add_bg',
        await photo(px(1080), px(1920), hue),
        { project_id: String(stories) },
        'slide.jpg',
      )
    ).id
    await call(
      server,
      token,
      'text/add',
      text(bg, `Слайд ${i + 1}: здоровье малыша без очередей`, 30, 8),
    )
  }
  const pub = async (id: number) =>
    await call<{ url: string; slug: string }>(server, token, 'project/publish', { project_id: id })
  return { landing: await pub(landing), stories: await pub(stories) }
}

/** Closed loop: `connections` requests in flight for `ms`, each sent when the one before ends. */
function load(
  url: string,
  connections: number,
  ms: number,
): Promise<{ rps: number; errors: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections })
  const end = Date.now() + ms
  let done = 0
  let errors = 0
  const one = (): Promise<void> =>
    new Promise((resolve) => {
      const req = http.get(url, { agent, headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
        res.resume()
        res.on('end', () => {
          if (res.statusCode === 200) done++
          else errors++
          resolve()
        })
      })
      req.on('error', () => {
        errors++
        resolve()
      })
    })
  const worker = async () => {
    while (Date.now() < end) await one()
  }
  const started = Date.now()
  return Promise.all(Array.from({ length: connections }, worker)).then(() => {
    agent.destroy()
    return { rps: done / ((Date.now() - started) / 1000), errors }
  })
}

function bigSnapshot(blocks: number): PageSnapshot {
  const bgs = [1, 2, 3, 4].map((id) => ({
    id,
    image_url: `/uploads/bg${id}.jpg`,
    width: 1600,
    height: 900,
    position: id,
  }))
  const kinds = ['text', 'button', 'image', 'gift', 'price', 'subscribe', 'video'] as const
  return {
    project: { id: 1, name: 'Двести блоков', type: 1 },
    backgrounds: bgs,
    specialists: [{ id: 1, name: 'Анна Петрова', position: 'Терапевт', photo_url: '' }],
    images: Object.fromEntries(bgs.map((b) => [b.image_url, { width: 1600, height: 900 }])),
    blocks: Array.from({ length: blocks }, (_, i) => {
      const type = kinds[i % kinds.length]!
      const base = {
        id: i + 10,
        bg_id: (i % 4) + 1,
        type,
        x: (i * 7) % 100,
        y: (i * 11) % 100,
        zindex: i,
        rotation: i % 3 ? 0 : 5,
      }
      switch (type) {
        case 'text':
          return {
            ...base,
            width: 40,
            fontSize: 4,
            font: 'Roboto',
            align: 'center',
            color: '#222222',
            text: `Текст блока ${i}`,
            background: 'transparent',
            name: '',
          }
        case 'button':
          return {
            ...base,
            width: 20,
            height: 6,
            btn_type: 'link',
            btn_type_value: 'https://example.ru',
            name: '',
            border_width: 0,
            border_color: '#000000',
            fontSize: 3,
            font: 'Inter',
            align: 'center',
            color: '#ffffff',
            background: '#1c7ed6',
            text: 'Кнопка',
          }
        case 'image':
          return {
            ...base,
            width: 20,
            height: 20,
            scaleX: 1,
            scaleY: 1,
            name: '',
            image_url: '/uploads/pic.jpg',
          }
        case 'video':
          return {
            ...base,
            width: 30,
            height: 20,
            scaleX: 1,
            scaleY: 1,
            video_url: '',
            video_src: '/uploads/clip.mp4',
            name: '',
          }
        case 'gift':
          return {
            ...base,
            color: '#e64980',
            text: 'Подарок',
            name: '',
            button_url: '',
            button_hook_url: '',
          }
        case 'price':
          return { ...base, color: '#2b8a3e', text: 'Цена', text_price: 1500, button_text: '' }
        default:
          return { ...base, specialist_id: 1, date: '2026-12-01', action: '' }
      }
    }),
  }
}

async function lighthouseRun(url: string) {
  const { default: lighthouse } = await import('lighthouse')
  const { launch } = await import('chrome-launcher')
  const chrome = await launch({
    chromePath: '/usr/bin/chromium',
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
    })
    const lhr = result!.lhr
    const metrics =
      (lhr.audits.metrics?.details as { items?: Record<string, number>[] } | undefined)
        ?.items?.[0] ?? {}
    const observedLcp = metrics.observedLargestContentfulPaint ?? Infinity
    const requests =
      (lhr.audits['network-requests']?.details as { items?: Record<string, unknown>[] } | undefined)
        ?.items ?? []
    const textBytes = requests
      .filter((r) => ['Document', 'Stylesheet', 'Script', 'Font'].includes(String(r.resourceType)))
      .filter((r) => Number(r.networkRequestTime) <= observedLcp)
      .reduce((sum, r) => sum + Number(r.transferSize ?? 0), 0)
    return {
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
      cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
      tbt: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
      kib: textBytes / 1024,
      // Lighthouse's own measure of the machine's speed: its simulated 4× slower phone scales the
      // tasks it observed here, so the same page blocks longer on a slower machine.
      benchmarkIndex: lhr.environment.benchmarkIndex,
    }
  } finally {
    await chrome.kill()
  }
}

export async function runPublishedBench(options: PublishedBenchOptions = {}): Promise<Figures> {
  const smoke = isSmoke(options)
  let staticDir = options.staticDir
  if (!staticDir && !smoke) {
    const { ensureBuilt } = await import('../e2e/global-setup.ts')
    staticDir = ensureBuilt('production')
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'promo-bench-published-'))
  const server = await startServer({
    port: 0,
    dataDir,
    staticDir,
    pageRenderer: options.renderer ?? 'built',
    log: false,
  })
  const figures: Figures = {}
  try {
    const pages = await seed(server, smoke)
    await server.ready.services.background.idle()

    if (!smoke) {
      const runs: Record<
        string,
        ReturnType<typeof lighthouseRun> extends Promise<infer R> ? R : never
      > = {}
      // Lighthouse's own advice: one run varies, the median of five does much less. The pages
      // alternate, each run in a fresh browser.
      const each: Record<string, Awaited<ReturnType<typeof lighthouseRun>>[]> = {}
      for (let round = 0; round < LIGHTHOUSE_RUNS; round++) {
        for (const [name, page] of Object.entries(pages)) {
          ;(each[name] ??= []).push(await lighthouseRun(page.url))
        }
      }
      for (const [name, results] of Object.entries(each)) {
        const of = (key: keyof (typeof results)[number]) => results.map((r) => r[key])
        runs[name] = {
          score: median(of('score')),
          lcp: median(of('lcp')),
          cls: median(of('cls')),
          tbt: median(of('tbt')),
          kib: median(of('kib')),
          benchmarkIndex: median(of('benchmarkIndex')),
        }
        const spread = (key: keyof (typeof results)[number]) =>
          `${Math.min(...of(key)).toFixed(0)}–${Math.max(...of(key)).toFixed(0)}`
        console.log(
          `${name}: median of ${results.length}`,
          runs[name],
          `score ${spread('score')}, LCP ${spread('lcp')} ms, TBT ${spread('tbt')} ms`,
        )
      }
      const all = Object.values(runs)
      figures.published_lighthouse_performance = Math.min(...all.map((r) => r.score))
      figures.published_lcp_ms = Math.max(...all.map((r) => r.lcp))
      figures.published_cls = Math.max(...all.map((r) => r.cls))
      figures.published_tbt_ms = Math.max(...all.map((r) => r.tbt))
      figures.published_kib_before_lcp = Math.max(...all.map((r) => r.kib))
      // Not a goal: which machine the figures above were measured on (docs/publishing.md).
      figures.published_lighthouse_benchmark_index = median(all.map((r) => r.benchmarkIndex))
    }

    // The static twin: the page's own bytes as a file of a static site on the same server.
    const raw = await (await fetch(pages.landing.url)).text()
    const twinDir = await mkdtemp(join(tmpdir(), 'promo-bench-twin-'))
    await writeFile(join(twinDir, 'twin.html'), raw)
    await writeFile(join(twinDir, 'index.html'), '<!doctype html>')
    const twin = await startServer({
      port: 0,
      dataDir: 'memory',
      // A smoke run opens one database, not two: the twin serves a file.
      db: smoke ? server.ready.services.db : undefined,
      staticDir: twinDir,
      pageRenderer: options.renderer ?? 'built',
      log: false,
    })
    try {
      const rounds = smoke ? 1 : 5
      const ms = smoke ? 300 : 3_000
      const ratios: number[] = []
      // Warm both.
      await load(pages.landing.url, 2, 200)
      await load(`${twin.url}/twin.html`, 2, 200)
      for (let i = 0; i < rounds; i++) {
        const order = i % 2 === 0
        const first = await load(order ? pages.landing.url : `${twin.url}/twin.html`, 10, ms)
        const second = await load(order ? `${twin.url}/twin.html` : pages.landing.url, 10, ms)
        const page = order ? first : second
        const file = order ? second : first
        if (page.errors || file.errors)
          throw new Error(`load errors: page ${page.errors}, file ${file.errors}`)
        ratios.push(page.rps / file.rps)
        console.log(
          `round ${i + 1}: page ${page.rps.toFixed(0)} req/s, file ${file.rps.toFixed(0)} req/s`,
        )
      }
      figures.published_rps_ratio_vs_static = median(ratios)
      console.log(
        `rps ratio median ${median(ratios).toFixed(3)} (spread ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)})`,
      )
    } finally {
      await twin.close()
      await rm(twinDir, { recursive: true, force: true })
    }

    const renderer = await loadRenderer(options.renderer ?? 'built')
    if (!renderer) throw new Error('no page renderer: run npm run build')
    const snapshot = bigSnapshot(200)
    const times: number[] = []
    for (let i = 0; i < (smoke ? 3 : 60); i++) {
      const started = performance.now()
      const { html } = renderer.renderPage({
        snapshot: { ...snapshot, project: { ...snapshot.project, id: i } },
        slug: `p${i}`,
        url: `http://x/p/p${i}`,
        origin: 'http://x',
      })
      times.push(performance.now() - started)
      if (html.length < 10_000) throw new Error('the page rendered too small')
    }
    figures.published_render_ms_200_blocks = percentile(times.slice(smoke ? 0 : 5), 50)
    figures.published_html_kib_200_blocks =
      Buffer.byteLength(
        renderer.renderPage({ snapshot, slug: 'x', url: 'http://x/p/x', origin: 'http://x' }).html,
      ) / 1024
  } finally {
    await server.close()
    await rm(dataDir, { recursive: true, force: true })
  }
  return figures
}
