/**
 * Canvas editor and repeat-visit figures in headless Chromium, against the built app and the real
 * reference server started in this process (a throwaway database, a fresh account):
 * - drag frame rate (frames the scene drew) with one of 100 and one of 1,000 blocks ÷ over an
 *   empty stage, and ÷ the same scene in Konva; frames an idle editor draws per second;
 * - pan frame rate (middle-button drag of the view) over 1,000 blocks ÷ over an empty stage;
 * - JS heap growth after opening and leaving the editor 20 times (after forced GC);
 * - time to the first rows of /specialist on a repeat visit ÷ on the first visit with an empty
 *   mirror, through a proxy adding 150 ms to every request.
 * Ratios, not milliseconds: the machine has 2 cores and no GPU.
 */
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { startServer } from '../../server/start.ts'
import { ensureBuilt } from '../e2e/global-setup.ts'
import { launchBrowser, type BrowserSession } from '../e2e/helpers/browser.ts'
import { pngImage } from '../server/helpers.ts'
import { newBlock } from '../support/convergence-scenario.ts'
import { BLOCK_TYPES } from '../../src/domain/block.ts'
import {
  KONVA_FRAMES_DRAWN,
  PIXI_FRAMES_DRAWN,
  measureDragFps,
  openKonvaScene,
  type DragRates,
} from './drag-measure.ts'

const ROOT = join(import.meta.dirname, '../..')
const KONVA = join(ROOT, 'node_modules/konva/konva.min.js')
const BLOCKS = 100
const MANY_BLOCKS = 1000
/** Blocks created at once while setting up a scene (the server takes them in any order). */
const ADD_BATCH = 20
const REOPENS = 20
const DRAG_MS = 3000
/** Each pan measurement follows a drag on the same page (already warm): no warm-up of its own. */
const PAN_MS = 2000
const ROUND_TRIP_MS = 150
const SPECIALISTS = 40
/** Landing geometry the editor uses (a section is 1200 px wide; fit() leaves a 40 px margin). */
const WORLD_WIDTH = 1200
const FIT_MARGIN = 40
const BG = { width: 320, height: 180 }
const VIEWPORT = { width: 1280, height: 800 }

interface Session {
  access_token: string
  expires_at: string
  user: { role: string }
}

/** A tiny client of the API for setting up the scenes. */
function apiClient(baseUrl: string, token: string) {
  const call = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const response = await fetch(new URL(path, baseUrl), {
      ...init,
      headers: { Authorization: `Bearer ${token}`, ...(init.headers ?? {}) },
    })
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
    return (await response.json()) as T
  }
  const post = <T>(path: string, body: unknown) =>
    call<T>(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
  return { get: call, post, call }
}

async function register(baseUrl: string): Promise<Session> {
  const response = await fetch(new URL('/api/register', baseUrl), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: 'Замер',
      email: `bench-${Date.now()}@example.test`,
      password: 'Пароль-надёжный-123',
    }),
  })
  if (!response.ok) throw new Error(`register: ${response.status} ${await response.text()}`)
  return (await response.json()) as Session
}

/** A landing project with one background and `blocks` blocks; the last one sits in front at 0,0. */
async function landingProject(
  api: ReturnType<typeof apiClient>,
  workspaceId: number,
  name: string,
  blocks: number,
): Promise<number> {
  const project = await api.post<{ id: number }>('/api/project/add', {
    workspace_id: workspaceId,
    name,
  })
  await api.post('/api/project/set_type', { project_id: project.id, type: 1 })
  const form = new FormData()
  form.set('file', new Blob([new Uint8Array(pngImage(BG.width, BG.height))], { type: 'image/png' }))
  form.set('project_id', String(project.id))
  form.set('width', String(BG.width))
  form.set('height', String(BG.height))
  const bg = await api.call<{ id: number }>('/api/project/add_bg', { method: 'POST', body: form })
  const added: Promise<unknown>[] = []
  for (let i = 1; i <= blocks; i += 1) {
    const type = BLOCK_TYPES[i % BLOCK_TYPES.length]!
    const block = newBlock(i === blocks ? 'button' : type, bg.id, i, { zindex: i })
    // The dragged block: in front, in the middle of the section.
    if (i === blocks) Object.assign(block, { x: 0, y: 0 })
    // Images and videos without a file draw a placeholder; spread the rest over the section.
    else Object.assign(block, { x: ((i * 37) % 160) - 80, y: ((i * 23) % 90) - 45 })
    // About the size of the Konva scene's blocks (120 × 44 px on a 1200 px section).
    Object.assign(block, { width: 10 })
    if ('height' in block) Object.assign(block, { height: 6.5 })
    if ('fontSize' in block) Object.assign(block, { fontSize: 2.7 })
    added.push(api.post(`/api/${block.type}/add`, block))
    if (added.length === ADD_BATCH) await Promise.all(added.splice(0))
  }
  await Promise.all(added)
  return project.id
}

/** Signs in through the login page, as a person does. */
async function signIn(page: Page, baseUrl: string, email: string, password: string) {
  await page.goto(new URL('/pages/login', baseUrl).toString())
  await page.locator('input[name="email"]').fill(email)
  await page.locator('input[name="password"]').fill(password)
  await page.getByRole('button', { name: 'Войти' }).click()
  await page.waitForURL((url) => !url.pathname.startsWith('/pages/login'))
}

async function openEditor(page: Page, baseUrl: string, projectId: number, blocks: number) {
  await page.goto(new URL(`/projects/${projectId}/edit/type-1`, baseUrl).toString())
  await waitForEditor(page, blocks)
}

async function waitForEditor(page: Page, blocks: number) {
  await page.locator('[data-testid="editor-canvas"][data-renderer]').waitFor({ timeout: 60_000 })
  if (blocks > 0)
    await page.waitForFunction(
      // The first layers list is the side panel's (a narrow screen has a second one, hidden).
      (n) =>
        document
          .querySelector('[role="list"][aria-label="Слои"]')
          ?.querySelectorAll('[role="listitem"]').length === n,
      blocks,
      { timeout: 60_000 },
    )
  // Let the first frames and texture loads settle (a thousand texts take longer).
  await page.waitForTimeout(blocks > BLOCKS ? 2500 : 800)
}

/**
 * tsx compiles with esbuild's keepNames, which wraps named functions inside callbacks that
 * Playwright sends to the page in a `__name` helper the page does not have.
 */
async function dragFps(
  page: Page,
  from: { x: number; y: number },
  ms: number,
  framesDrawn = PIXI_FRAMES_DRAWN,
): Promise<DragRates> {
  await page.evaluate('globalThis.__name ??= (f) => f')
  return measureDragFps(page, from, ms, framesDrawn)
}

/** Frames drawn per second while the middle button pans the view in a circle (back where it began). */
async function panFps(page: Page, from: { x: number; y: number }): Promise<DragRates> {
  await page.evaluate('globalThis.__name ??= (f) => f')
  const rates = await measureDragFps(page, from, PAN_MS, PIXI_FRAMES_DRAWN, 'middle')
  // The last frames of the pan (the live scene again at rest) are not part of the figure.
  await page.waitForTimeout(300)
  return rates
}

/** Frames the editor's stage draws per second while nobody touches it (on demand: none). */
async function idleFramesPerSecond(page: Page, ms: number): Promise<number> {
  const before = Number(await page.evaluate(PIXI_FRAMES_DRAWN))
  await page.waitForTimeout(ms)
  return ((Number(await page.evaluate(PIXI_FRAMES_DRAWN)) - before) * 1000) / ms
}

const rates = (r: DragRates) => `${r.drawn.toFixed(1)} (${r.animationFrames.toFixed(1)} rAF)`

/** Screen point of the middle of the (only) section once the editor has fitted it. */
async function sectionCentre(page: Page): Promise<{ x: number; y: number }> {
  const box = (await page.locator('[data-testid="editor-canvas"]').boundingBox())!
  const zoom = (box.width - 2 * FIT_MARGIN) / WORLD_WIDTH
  const frameHeight = (WORLD_WIDTH * BG.height) / BG.width
  return { x: box.x + box.width / 2, y: box.y + FIT_MARGIN + (frameHeight / 2) * zoom }
}

async function heapMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page)
  for (let i = 0; i < 3; i += 1) await cdp.send('HeapProfiler.collectGarbage')
  const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }
  await cdp.detach()
  return usedSize / (1024 * 1024)
}

/** An HTTP proxy that holds every request for `delayMs` before passing it on (a slow network). */
function slowProxy(target: string, delayMs: number): Promise<{ url: string; server: Server }> {
  const upstream = new URL(target)
  const server = createServer((req, res) => {
    setTimeout(() => {
      const forward = request(
        {
          hostname: upstream.hostname,
          port: upstream.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        },
      )
      forward.on('error', () => res.destroy())
      req.pipe(forward)
    }, delayMs)
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      resolve({ url: `http://127.0.0.1:${port}`, server })
    }),
  )
}

/** ms from starting to navigate to /specialist until its first row is on screen. */
async function firstRowsMs(page: Page, origin: string): Promise<number> {
  const started = Date.now()
  await page.goto(new URL('/specialist', origin).toString(), { waitUntil: 'commit' })
  await page
    .locator('[role="list"] [role="listitem"][data-record-id]')
    .first()
    .waitFor({ timeout: 60_000 })
  return Date.now() - started
}

export async function runCanvasBench(): Promise<Record<string, number>> {
  // The canvas's frame count and probe are in the test build only.
  const staticDir = ensureBuilt('test')
  const dataDir = await mkdtemp(join(tmpdir(), 'canvas-bench-'))
  const server = await startServer({
    port: 0,
    staticDir,
    dataDir,
    seed: false,
    loginLimit: { attempts: 1000, windowMs: 60_000 },
  })
  const sessions: BrowserSession[] = []
  let proxy: Server | null = null
  const out: Record<string, number> = {}
  let lapStarted = Date.now()
  /** Where the bench's time goes (it should stay within a few minutes). */
  const lap = (what: string) => {
    console.log(`  ${what}: ${((Date.now() - lapStarted) / 1000).toFixed(1)} s`)
    lapStarted = Date.now()
  }
  try {
    const password = 'Пароль-надёжный-123'
    const session = await register(server.url)
    const email = (session.user as unknown as { email: string }).email
    const api = apiClient(server.url, session.access_token)
    const [workspace] = await api.get<{ id: number }[]>('/api/workspace/list')
    const full = await landingProject(api, workspace!.id, 'Сто блоков', BLOCKS)
    const many = await landingProject(api, workspace!.id, 'Тысяча блоков', MANY_BLOCKS)
    const empty = await landingProject(api, workspace!.id, 'Пустой фон', 0)
    for (let i = 1; i <= SPECIALISTS; i += 1)
      await api.post('/api/specialist/add', {
        workspace_id: workspace!.id,
        name: `Специалист ${i}`,
        position: 'Стоматолог',
        department_id: null,
        location_id: null,
        phone: '',
        email: '',
        photo_url: '',
        description: '',
      })
    lap('scenes set up')

    // --- drag frame rate ---
    const browser = await launchBrowser({ viewport: VIEWPORT, timeout: 60_000 })
    sessions.push(browser)
    const page = browser.page
    await signIn(page, server.url, email, password)

    await openEditor(page, server.url, empty, 0)
    await dragFps(page, await sectionCentre(page), 1000) // warm-up
    const emptyFps = await dragFps(page, await sectionCentre(page), DRAG_MS)
    const emptyPan = await panFps(page, await sectionCentre(page))
    lap('empty stage')

    let manyPan: DragRates | null = null
    /** Drag fps in the editor with `count` blocks: a warm-up drag, undone, then the measured one. */
    const editorFps = async (projectId: number, count: number) => {
      await openEditor(page, server.url, projectId, count)
      if (count === BLOCKS) out.editor_idle_frames_per_s = await idleFramesPerSecond(page, 2000)
      const centre = await sectionCentre(page)
      await dragFps(page, centre, 1000)
      // Undo puts the block back in the middle (reopening a thousand blocks would take long).
      await page.keyboard.press('Control+z')
      await page.waitForTimeout(500)
      const fps = await dragFps(page, centre, DRAG_MS)
      if (count === MANY_BLOCKS) manyPan = await panFps(page, centre)
      lap(`${count} blocks`)
      return fps
    }
    const fullFps = await editorFps(full, BLOCKS)
    const manyFps = await editorFps(many, MANY_BLOCKS)

    // A blank page of its own: the app's Content-Security-Policy forbids the inline script.
    const konvaFps = async (count: number) => {
      const konvaPage = await browser.context.newPage()
      const konvaTarget = await openKonvaScene(konvaPage, KONVA, count)
      await dragFps(konvaPage, konvaTarget, 1000, KONVA_FRAMES_DRAWN)
      const fps = await dragFps(konvaPage, konvaTarget, DRAG_MS, KONVA_FRAMES_DRAWN)
      await konvaPage.close()
      return fps
    }
    const konvaFullFps = await konvaFps(BLOCKS)
    const konvaManyFps = await konvaFps(MANY_BLOCKS)
    lap('Konva')
    console.log(
      `frames drawn per second while dragging: empty stage ${rates(emptyFps)}; ` +
        `${BLOCKS} blocks ${rates(fullFps)}, Konva ${rates(konvaFullFps)}; ` +
        `${MANY_BLOCKS} blocks ${rates(manyFps)}, Konva ${rates(konvaManyFps)}`,
    )
    out.drag_fps_empty_stage = emptyFps.drawn
    out.drag_fps_100 = fullFps.drawn
    out.drag_fps_konva_100 = konvaFullFps.drawn
    out.drag_fps_1000 = manyFps.drawn
    out.drag_fps_konva_1000 = konvaManyFps.drawn
    out.drag_fps_ratio_vs_empty_stage_100 = fullFps.drawn / emptyFps.drawn
    out.drag_fps_ratio_vs_konva_100 = fullFps.drawn / konvaFullFps.drawn
    out.drag_fps_ratio_vs_empty_stage_1000 = manyFps.drawn / emptyFps.drawn
    out.drag_fps_ratio_vs_konva_1000 = manyFps.drawn / konvaManyFps.drawn
    const pan1000 = manyPan as DragRates | null
    if (pan1000) {
      console.log(
        `frames drawn per second while panning: empty stage ${rates(emptyPan)}; ` +
          `${MANY_BLOCKS} blocks ${rates(pan1000)}`,
      )
      out.pan_fps_empty_stage = emptyPan.drawn
      out.pan_fps_1000 = pan1000.drawn
      out.pan_fps_ratio_vs_empty_stage_1000 = pan1000.drawn / emptyPan.drawn
    }

    // --- heap after reopening the editor: in-app navigation, so the page (and heap) stays ---
    const row = page.locator(`[role="listitem"][data-record-id="${full}"]`)
    const openAndLeave = async () => {
      await row.getByText('Сто блоков').click()
      await waitForEditor(page, BLOCKS)
      await page.goBack()
      await row.waitFor()
    }
    await page.goto(new URL('/projects', server.url).toString())
    await row.waitFor()
    await openAndLeave() // warm-up: the editor's code and shared caches are loaded once
    const before = await heapMb(page)
    let half = 0
    for (let i = 1; i <= REOPENS; i += 1) {
      await openAndLeave()
      // Halfway too: growth that keeps climbing is a leak, a one-time step is a cache.
      if (i === REOPENS / 2) half = await heapMb(page)
    }
    const after = await heapMb(page)
    console.log(
      `heap: ${before.toFixed(1)} MB → ${half.toFixed(1)} MB after ${REOPENS / 2} reopens → ` +
        `${after.toFixed(1)} MB after ${REOPENS}`,
    )
    out.editor_reopen_10x_heap_growth_mb = half - before
    out.editor_reopen_20x_heap_growth_mb = after - before
    lap('editor reopens')
    await browser.close()

    // --- repeat visit against a first visit, at a 150 ms round trip ---
    const slow = await slowProxy(server.url, ROUND_TRIP_MS)
    proxy = slow.server
    const visitor = await launchBrowser({ viewport: VIEWPORT, timeout: 60_000 })
    sessions.push(visitor)
    const login = (await (
      await fetch(new URL('/api/login', server.url), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password }),
      })
    ).json()) as Session
    // Signed in before the first page loads, so that load starts with no code and no mirror.
    await visitor.context.addInitScript((auth: Session) => {
      if (localStorage.getItem('access_token')) return
      localStorage.setItem('access_token', auth.access_token)
      localStorage.setItem('tokenExpiry', String(Date.parse(auth.expires_at)))
      localStorage.setItem('userInfo', JSON.stringify(auth.user))
      localStorage.setItem('userRole', auth.user.role)
      localStorage.setItem('loggedIn', 'true')
    }, login)
    const first = await firstRowsMs(visitor.page, slow.url)
    // Let the service worker finish installing and the mirror fill, as between two visits.
    await visitor.page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined))
    await visitor.page.waitForTimeout(3000)
    const repeat = await firstRowsMs(visitor.page, slow.url)
    console.log(`/specialist first rows: first visit ${first} ms, repeat visit ${repeat} ms`)
    out.first_visit_first_rows_ms = first
    out.repeat_visit_first_rows_ms = repeat
    out.repeat_visit_first_rows_ratio_vs_first_visit = repeat / first
  } finally {
    for (const s of sessions) await s.close()
    if (proxy) await new Promise<void>((resolve) => proxy!.close(() => resolve()))
    await server.close()
    await rm(dataDir, { recursive: true, force: true })
  }
  return out
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await runCanvasBench())
}
