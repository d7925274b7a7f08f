/**
 * Canvas editor and repeat-visit figures in headless Chromium, against the built app and the real
 * reference server started in this process (a throwaway database, a fresh account):
 * - drag frame rate (frames presented) with one of 100, 1,000 and 5,000 blocks ÷ the same scene in
 *   Konva (its own advice for dragging) and ÷ a bare Pixi app (drag-scenes.ts), the same scripted
 *   gesture, 5 alternating rounds, medians; input latency; frames an idle editor draws per second;
 * - CPU time of every browser process per pointer move, the editor ÷ Konva, among 100 and 1,000;
 * - the frame after a release among 100 and 1,000 blocks (ms);
 * - pan frame rate (middle-button drag of the view) over 1,000 blocks ÷ over an empty stage;
 * - JS heap growth after opening and leaving the editor 20 times (after forced GC);
 * - time to the first rows of /specialist on a repeat visit ÷ on the first visit with an empty
 *   mirror, through a proxy adding 150 ms to every request.
 * Ratios, not milliseconds: the machine has 2 cores and no GPU.
 *
 * `BENCH_SMOKE=1` (or `{ smoke: true }`): 10, 30 and 60 blocks, one round of drags of 12 moves, shorter
 * pans and waits, one visit of the editor with edits (its growths 0), a 20 ms round trip, and one
 * drag profiled and traced as `BENCH_PROFILE` does (the profiler and the trace must have seen the
 * page busy); the figures keep their names.
 */
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import type { CDPSession, Page } from 'playwright-core'
import type { Point } from '../../src/domain/geometry.ts'
import { launchBrowser, type BrowserSession } from '../e2e/helpers/browser.ts'
import { pngImage } from '../server/helpers.ts'
import { newBlock } from '../support/convergence-scenario.ts'
import { installGlCensus } from '../support/gl-census.ts'
import { benchServer } from './bench-server.ts'
import { measureReopens, waitForLayers } from './reopen-measure.ts'
import { isSmoke, type BenchOptions } from './smoke.ts'
import { profiled, traced } from './cpu-profile.ts'
import { PIXI_FRAMES_DRAWN, measureDragFps, type DragRates } from './drag-measure.ts'
import { MOVES_PER_SECOND, cpuDrag, idleCpuPerSecond, type DragCpu } from './drag-cpu.ts'
import { browserPid } from './process-cpu.ts'
import {
  openBarePixiScene,
  guidedMoves,
  openFloorScene,
  openKonvaScene,
  sceneFromEditor,
  scriptedDrag,
  type DragFigures,
  type Scene,
  releaseFrameMs,
} from './drag-scenes.ts'

const ROOT = join(import.meta.dirname, '../..')
const KONVA = join(ROOT, 'node_modules/konva/konva.min.js')
const PIXI = join(ROOT, 'node_modules/pixi.js/dist/pixi.min.js')
/** Blocks created at once while setting up a scene (the server takes them in any order). */
const ADD_BATCH = 20

/** What a run does: the benchmark's sizes, or a smoke run's. */
interface Sizes {
  /** Alternating rounds of the drag comparison (medians and spread reported). */
  rounds: number
  blocks: number
  manyBlocks: number
  /** Where software rendering falls below the display's rate: presented frames only. */
  hugeBlocks: number
  /** Pointer moves of each scripted drag. */
  moves: number
  /** Pointer moves of each drag whose CPU time is measured (60 a second). */
  cpuMoves: number
  reopens: number
  /** Each pan measurement follows a drag on the same page (already warm): no warm-up of its own. */
  panMs: number
  idleMs: number
  /** How long an opened editor is left to settle, with the few blocks and with the many. */
  settleMs: { few: number; many: number }
  roundTripMs: number
  specialists: number
  /** Between the first visit and the repeat one: the service worker installs, the mirror fills. */
  betweenVisitsMs: number
}

const FULL: Sizes = {
  rounds: Number(process.env.BENCH_ROUNDS ?? 5),
  blocks: 100,
  manyBlocks: 1000,
  hugeBlocks: 5000,
  moves: 90,
  cpuMoves: 300,
  reopens: 20,
  panMs: 2000,
  idleMs: 2000,
  settleMs: { few: 800, many: 2500 },
  roundTripMs: 150,
  specialists: 40,
  betweenVisitsMs: 3000,
}

const SMOKE: Sizes = {
  rounds: 1,
  blocks: 10,
  manyBlocks: 30,
  hugeBlocks: 60,
  moves: 12,
  cpuMoves: 30,
  reopens: 1,
  panMs: 400,
  idleMs: 400,
  settleMs: { few: 300, many: 300 },
  roundTripMs: 20,
  specialists: 3,
  betweenVisitsMs: 1000,
}
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

/** The section's background and the picture blocks' picture, as the server and the pages get them. */
const BACKGROUND_PNG = pngImage(BG.width, BG.height)
const PICTURE_PNG = pngImage(64, 64)
const dataUrl = (png: Uint8Array) => `data:image/png;base64,${Buffer.from(png).toString('base64')}`

interface BenchProject {
  id: number
  /** Each block's rotation by its server id (the Konva and bare Pixi scenes draw the same). */
  rotations: Map<number, number>
  /** The block in front, in the middle of the section (the one dragged). */
  front: number
}

/**
 * A landing project with one background and `blocks` blocks: buttons (a filled, outlined box with a
 * label) and every fifth a picture, rotated by -3° to 3°, spread over the section; the last one, a
 * button, sits in front in the middle (the one dragged).
 */
async function landingProject(
  api: ReturnType<typeof apiClient>,
  workspaceId: number,
  name: string,
  blocks: number,
): Promise<BenchProject> {
  const project = await api.post<{ id: number }>('/api/project/add', {
    workspace_id: workspaceId,
    name,
  })
  await api.post('/api/project/set_type', { project_id: project.id, type: 1 })
  const form = new FormData()
  form.set('file', new Blob([new Uint8Array(BACKGROUND_PNG)], { type: 'image/png' }))
  form.set('project_id', String(project.id))
  form.set('width', String(BG.width))
  form.set('height', String(BG.height))
  const bg = await api.call<{ id: number }>('/api/project/add_bg', { method: 'POST', body: form })
  const upload = new FormData()
  upload.set('file', new Blob([new Uint8Array(PICTURE_PNG)], { type: 'image/png' }))
  const { url } = await api.call<{ url: string }>('/api/image/upload', {
    method: 'POST',
    body: upload,
  })
  const rotations = new Map<number, number>()
  let front = 0
  const added: Promise<unknown>[] = []
  for (let i = 1; i <= blocks; i += 1) {
    const last = i === blocks
    const type = !last && i % 5 === 0 ? 'image' : 'button'
    const block = newBlock(type, bg.id, i, { zindex: i, imageUrl: url })
    const rotation = last ? 0 : (i % 7) - 3
    Object.assign(block, { rotation })
    // The dragged block: in front, in the middle of the section.
    if (last) Object.assign(block, { x: 0, y: 0 })
    else Object.assign(block, { x: ((i * 37) % 160) - 80, y: ((i * 23) % 90) - 45 })
    Object.assign(block, { width: 10, height: type === 'image' ? 10 : 4 })
    if ('fontSize' in block) Object.assign(block, { fontSize: 1.6 })
    added.push(
      api.post<{ id: number }>(`/api/${block.type}/add`, block).then((saved) => {
        rotations.set(saved.id, rotation)
        if (last) front = saved.id
      }),
    )
    if (added.length === ADD_BATCH) await Promise.all(added.splice(0))
  }
  await Promise.all(added)
  return { id: project.id, rotations, front }
}

/** Signs in through the login page, as a person does. */
async function signIn(page: Page, baseUrl: string, email: string, password: string) {
  await page.goto(new URL('/pages/login', baseUrl).toString())
  await page.locator('input[name="email"]').fill(email)
  await page.locator('input[name="password"]').fill(password)
  await page.getByRole('button', { name: 'Войти' }).click()
  await page.waitForURL((url) => !url.pathname.startsWith('/pages/login'))
}

async function openEditor(
  page: Page,
  baseUrl: string,
  projectId: number,
  blocks: number,
  sizes: Sizes,
) {
  await page.goto(new URL(`/projects/${projectId}/edit/type-1`, baseUrl).toString())
  await waitForEditor(page, blocks, sizes)
}

async function waitForEditor(page: Page, blocks: number, sizes: Sizes) {
  await page.locator('[data-testid="editor-canvas"][data-renderer]').waitFor({ timeout: 60_000 })
  if (blocks > 0) await waitForLayers(page, blocks)
  // Let the first frames and texture loads settle (a thousand texts take longer).
  await page.waitForTimeout(blocks > sizes.blocks ? sizes.settleMs.many : sizes.settleMs.few)
}

/** What a pan shows: frames drawn a second, and how long its first and its end took. */
interface PanFigures extends DragRates {
  /** From the pan's first pointer move to the frame that first showed the view moved (ms). */
  firstFrameMs: number
  /**
   * From the release to the second animation frame after it, the first that can begin once
   * whatever the release drew is done: when the view can answer the hand again (ms).
   */
  endMs: number
}

/**
 * Frames drawn per second while the middle button pans the view in a circle (back where it
 * began), and the time from its first move to its first frame: what a pan costs before the view
 * follows the hand (docs/editor.md «A picture begun from the canvas»).
 */
async function panFps(page: Page, from: { x: number; y: number }, ms: number): Promise<PanFigures> {
  // A tab behind the others gets its animation frames throttled: the pan must be the one in front.
  await page.bringToFront()
  await page.evaluate('globalThis.__name ??= (f) => f')
  await page.evaluate(() => {
    type Start = { run: number; moved: number; drawn: number; released: number; answered: number }
    const w = window as unknown as { __panStart?: Start }
    const host = document.querySelector<HTMLElement>('[data-testid="editor-canvas"]')
    const read = () => Number(host?.dataset.frames ?? 0)
    const run = (w.__panStart?.run ?? 0) + 1
    const start: Start = { run, moved: 0, drawn: 0, released: 0, answered: 0 }
    w.__panStart = start
    const onUp = (e: PointerEvent) => {
      // The middle button let go: the pan's end.
      if (e.button !== 1) return
      removeEventListener('pointerup', onUp, { capture: true })
      start.released = performance.now()
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          if (w.__panStart === start) start.answered = performance.now()
        }),
      )
    }
    addEventListener('pointerup', onUp, { capture: true })
    let before = NaN
    const onMove = (e: PointerEvent) => {
      // The middle button held: the pan's first move.
      if ((e.buttons & 4) === 0) return
      start.moved = e.timeStamp
      before = read()
      removeEventListener('pointermove', onMove, { capture: true })
    }
    addEventListener('pointermove', onMove, { capture: true })
    const tick = (now: number) => {
      if (w.__panStart !== start) return
      if (start.moved && read() !== before) start.drawn = now
      else requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
  })
  const rates = await measureDragFps(page, from, ms, PIXI_FRAMES_DRAWN, 'middle')
  const firstFrameMs = await page.evaluate(() => {
    const start = (window as unknown as { __panStart: { moved: number; drawn: number } }).__panStart
    return start.drawn > 0 ? start.drawn - start.moved : Number.NaN
  })
  // The last frames of the pan (the live scene again at rest) are not part of the frame rate.
  await page.waitForTimeout(300)
  const endMs = await page.evaluate(() => {
    type End = { released: number; answered: number }
    const start = (window as unknown as { __panStart: End }).__panStart
    return start.answered > 0 ? start.answered - start.released : Number.NaN
  })
  return { ...rates, firstFrameMs, endMs }
}

/** Frames the editor's stage draws per second while nobody touches it (on demand: none). */
async function idleFramesPerSecond(page: Page, ms: number): Promise<number> {
  const before = Number(await page.evaluate(PIXI_FRAMES_DRAWN))
  await page.waitForTimeout(ms)
  return ((Number(await page.evaluate(PIXI_FRAMES_DRAWN)) - before) * 1000) / ms
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}
/** Median and range of alternating runs. */
const spread = (values: number[]) =>
  `${median(values).toFixed(2)} (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}, ${values.length} runs)`

const rates = (r: DragRates) => `${r.drawn.toFixed(1)} (${r.animationFrames.toFixed(1)} rAF)`

/** Screen point of the middle of the (only) section once the editor has fitted it. */
async function sectionCentre(page: Page): Promise<{ x: number; y: number }> {
  const box = (await page.locator('[data-testid="editor-canvas"]').boundingBox())!
  const zoom = (box.width - 2 * FIT_MARGIN) / WORLD_WIDTH
  const frameHeight = (WORLD_WIDTH * BG.height) / BG.width
  return { x: box.x + box.width / 2, y: box.y + FIT_MARGIN + (frameHeight / 2) * zoom }
}

/**
 * The reopen figures (reopen-measure.ts): heap growth of the page and of the sync worker, and
 * growth of live WebGL contexts and textures, after the 20th visit with edits against the first.
 */
async function reopenFigures(
  page: Page,
  baseUrl: string,
  project: BenchProject,
  out: Record<string, number>,
  sizes: Sizes,
) {
  // Counts the page's WebGL contexts and textures from the next navigation on.
  await installGlCensus(page.context())
  const row = page.locator(`[role="listitem"][data-record-id="${project.id}"]`)
  await page.goto(new URL('/projects', baseUrl).toString())
  await row.waitFor()
  const samples = await measureReopens({
    page,
    openEditor: async () => {
      await row.getByText('Сто блоков').click()
      await page
        .locator('[data-testid="editor-canvas"][data-renderer]')
        .waitFor({ timeout: 60_000 })
    },
    leave: async () => {
      await page.goBack()
      await row.waitFor()
    },
    blocks: sizes.blocks,
    draggedId: project.front,
    reopens: sizes.reopens,
    // Halfway too: growth that keeps climbing is a leak, a one-time step is a cache.
    sampleAt: [Math.ceil(sizes.reopens / 2)],
  })
  const first = samples[0]!
  const half = samples.find((s) => s.visit === Math.ceil(sizes.reopens / 2))!
  const last = samples.at(-1)!
  for (const s of samples)
    console.log(
      `  after visit ${s.visit}: page heap ${s.pageHeapMb.toFixed(2)} MB, sync worker ` +
        `${s.workerHeapMb?.toFixed(2) ?? '—'} MB; WebGL contexts ${s.gl.contexts} ` +
        `(${s.gl.created} made), GL textures ${s.gl.textures}; Pixi: ${JSON.stringify(s.pixi)}; ` +
        `open: GL textures ${s.open.gl.textures} in ${s.open.gl.contexts} contexts; Pixi before ` +
        `the edits ${JSON.stringify(s.open.before)}, with the new blocks ` +
        `${JSON.stringify(s.open.added)}, once they were deleted ${JSON.stringify(s.open.deleted)}`,
    )
  out.editor_reopen_10x_heap_growth_mb = half.pageHeapMb - first.pageHeapMb
  out.editor_reopen_20x_heap_growth_mb = last.pageHeapMb - first.pageHeapMb
  if (first.workerHeapMb !== null && last.workerHeapMb !== null)
    out.editor_reopen_20x_worker_heap_growth_mb = last.workerHeapMb - first.workerHeapMb
  // Live textures the page holds after leaving (the GL census: on the GPU; Pixi's own: shared by
  // URL and idle in its pool), the 20th visit against the first.
  out.editor_reopen_20x_texture_growth =
    last.gl.textures +
    last.pixi.shared +
    last.pixi.pooled -
    (first.gl.textures + first.pixi.shared + first.pixi.pooled)
  out.editor_reopen_20x_gl_context_growth = last.gl.contexts - first.gl.contexts
  // While open, after the same edits: the renderer's textures on the GPU.
  out.editor_reopen_20x_open_texture_growth = last.open.gl.textures - first.open.gl.textures
  // Within one visit: the textures the renderer holds for what it draws (not idle in Pixi's pool)
  // once the added blocks are deleted again, against before they were added (the last visit).
  const inUse = (c: { gpuTextures: number; pooled: number }) => c.gpuTextures - c.pooled
  out.editor_add_delete_texture_growth = inUse(last.open.deleted) - inUse(last.open.before)
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

/** The parts of the canvas benchmark; `npm run bench reopen` runs only the reopen figures. */
export type CanvasBenchPart = 'drag' | 'reopen' | 'visit'

export interface CanvasBenchOptions extends BenchOptions {
  /** A reference server already serving the test build (benchServer), instead of one of its own. */
  baseUrl?: string
}

export async function runCanvasBench(
  parts: CanvasBenchPart[] = ['drag', 'reopen', 'visit'],
  options: CanvasBenchOptions = {},
): Promise<Record<string, number>> {
  const smoke = isSmoke(options)
  const sizes = smoke ? SMOKE : FULL
  // The canvas's frame count and probe are in the test build only.
  const server = await benchServer('test', 'canvas', options.baseUrl)
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
    const full = await landingProject(api, workspace!.id, 'Сто блоков', sizes.blocks)
    const withDrag = parts.includes('drag')
    const many = withDrag
      ? await landingProject(api, workspace!.id, 'Тысяча блоков', sizes.manyBlocks)
      : null
    const huge = withDrag
      ? await landingProject(api, workspace!.id, 'Пять тысяч блоков', sizes.hugeBlocks)
      : null
    const empty = withDrag ? await landingProject(api, workspace!.id, 'Пустой фон', 0) : null
    for (let i = 1; i <= sizes.specialists; i += 1)
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

    const browser = await launchBrowser({ viewport: VIEWPORT, timeout: 60_000 })
    sessions.push(browser)
    const page = browser.page
    await signIn(page, server.url, email, password)
    if (many && huge && empty) {
      // --- drag: the editor against Konva and a bare Pixi app, the same scene and gesture ---
      type Case = {
        name: string
        page: Page
        cdp: CDPSession
        grab: Point
        kind: 'editor' | 'counter'
      }
      const cases: Case[] = []
      const editorCase = async (name: string, project: BenchProject, count: number) => {
        const p = await browser.context.newPage()
        await openEditor(p, server.url, project.id, count, sizes)
        // The Konva and bare Pixi scenes draw no grid and move the block by every pointer move: the
        // editor too, with «Сетка» off (its guides still snap). Each presented frame then shows the
        // block at a new place in all three (docs/editor.md «Figures»).
        await p.getByLabel('Сетка', { exact: true }).uncheck()
        await p.waitForTimeout(300)
        if (count === sizes.blocks)
          out.editor_idle_frames_per_s = await idleFramesPerSecond(p, sizes.idleMs)
        const canvas = (await p.locator('[data-testid="editor-canvas"]').boundingBox())!
        const zoom = (canvas.width - 2 * FIT_MARGIN) / WORLD_WIDTH
        const scene = await sceneFromEditor(p, {
          section: {
            x: canvas.x + FIT_MARGIN,
            y: canvas.y + FIT_MARGIN,
            width: WORLD_WIDTH * zoom,
            height: ((WORLD_WIDTH * BG.height) / BG.width) * zoom,
          },
          background: dataUrl(BACKGROUND_PNG),
          picture: dataUrl(PICTURE_PNG),
          rotations: project.rotations,
          // A button's 1.6 units on a 1200 px section (6 px a unit) at the fitted zoom.
          fontPx: 1.6 * (WORLD_WIDTH / 200) * zoom,
        })
        cases.push({
          name,
          page: p,
          cdp: await p.context().newCDPSession(p),
          grab: scene.grab,
          kind: 'editor',
        })
        return scene
      }
      const otherCase = async (
        name: string,
        scene: Scene,
        open: (p: Page, path: string, s: Scene) => Promise<void>,
        path: string,
      ) => {
        const p = await browser.context.newPage()
        await open(p, path, scene)
        cases.push({
          name,
          page: p,
          cdp: await p.context().newCDPSession(p),
          grab: scene.grab,
          kind: 'counter',
        })
      }
      const scene100 = await editorCase('editor_100', full, sizes.blocks)
      await otherCase('konva_100', scene100, openKonvaScene, KONVA)
      // Konva snapping and showing guides as the editor does: the same work as the editor's drag.
      await otherCase(
        'konva_snapping_100',
        scene100,
        (p, path, s) => openKonvaScene(p, path, s, { snapping: true }),
        KONVA,
      )
      await otherCase('bare_pixi_100', scene100, openBarePixiScene, PIXI)
      const scene1000 = await editorCase('editor_1000', many, sizes.manyBlocks)
      await otherCase('konva_1000', scene1000, openKonvaScene, KONVA)
      const scene5000 = await editorCase('editor_5000', huge, sizes.hugeBlocks)
      await otherCase('konva_5000', scene5000, openKonvaScene, KONVA)
      // The floor under both (the cheapest drag of the scene here): its CPU a move alone.
      await otherCase('floor_1000', scene1000, openFloorScene, '')
      lap('drag scenes set up')
      // A warm-up drag each, then rounds in alternating order: the machine's load drifts.
      const drag = (c: Case) => scriptedDrag(c.page, c.cdp, c.grab, c.kind, sizes.moves)
      const fpsCases = cases.filter((c) => !c.name.startsWith('floor'))
      for (const c of fpsCases) await drag(c)
      // A Konva page that never snapped would not do the editor's work.
      const snapping = cases.find((c) => c.name === 'konva_snapping_100')!
      if ((await guidedMoves(snapping.page)) === 0)
        throw new Error('konva_snapping_100: no move of its drag showed a guide')
      // Where a drag's time goes on each page (BENCH_PROFILE=dir writes the profiles there too);
      // a smoke run profiles the editor's first drag, to see the profiling still works.
      if (process.env.BENCH_PROFILE !== undefined || smoke) {
        for (const c of smoke ? fpsCases.slice(0, 1) : fpsCases) {
          const { self, totalMs } = await profiled(
            c.cdp,
            c.name,
            process.env.BENCH_PROFILE || undefined,
            () => drag(c),
          )
          console.log(
            `  ${c.name}: a profiled drag, ${totalMs.toFixed(0)} ms; most time of its own:`,
          )
          for (const f of self)
            console.log(`    ${f.ms.toFixed(1)} ms ${f.pct.toFixed(1)}% ${f.fn}`)
          const kinds = await traced(
            c.cdp,
            () => drag(c),
            process.env.BENCH_PROFILE
              ? join(process.env.BENCH_PROFILE, `${c.name}.trace.json`)
              : undefined,
          )
          console.log(`  ${c.name}: a traced drag, the busiest threads' time by kind of work:`)
          for (const t of kinds) {
            console.log(`    ${t.thread}: busy ${t.busyMs.toFixed(0)} ms`)
            for (const k of t.kinds) console.log(`      ${k.ms.toFixed(1)} ms ${k.name}`)
          }
          // A profile or a trace that saw no work says nothing of where the time goes.
          if (!(totalMs > 0) || self.length === 0 || !kinds.some((t) => t.busyMs > 0))
            throw new Error(`${c.name}: the profiler or the trace saw the drag do nothing`)
        }
      }
      const runs = new Map<string, DragFigures[]>()
      for (let round = 0; round < sizes.rounds; round += 1) {
        const order = round % 2 === 0 ? fpsCases : [...fpsCases].reverse()
        for (const c of order) runs.set(c.name, [...(runs.get(c.name) ?? []), await drag(c)])
      }
      lap(`drag, ${sizes.rounds} rounds`)
      const fps = (name: string) => runs.get(name)!.map((r) => r.fps)
      const ratios = (a: string, b: string) => fps(a).map((x, i) => x / fps(b)[i]!)
      for (const c of fpsCases) console.log(`  ${c.name}: presented fps ${spread(fps(c.name))}`)
      const report = (key: string, values: number[]) => {
        out[key] = median(values)
        console.log(`  ${key}: ${spread(values)}`)
      }
      for (const c of fpsCases) out[`drag_fps_${c.name}`] = median(fps(c.name))
      report('drag_fps_ratio_vs_konva_100_fair', ratios('editor_100', 'konva_100'))
      report('drag_fps_ratio_vs_konva_1000_fair', ratios('editor_1000', 'konva_1000'))
      report('drag_fps_ratio_vs_konva_5000_fair', ratios('editor_5000', 'konva_5000'))
      report('drag_fps_ratio_vs_bare_pixi_100', ratios('editor_100', 'bare_pixi_100'))
      report(
        'drag_input_latency_ms_p50',
        runs.get('editor_100')!.map((r) => r.latencyP50),
      )
      out.drag_input_latency_ms_p50_bare_pixi_100 = median(
        runs.get('bare_pixi_100')!.map((r) => r.latencyP50),
      )

      // --- CPU per pointer move: the whole browser's CPU time over a paced drag, ÷ its moves ---
      const pid = browserPid(browser.profile)
      // Among 5,000 blocks too: presented frames cannot tell the pages apart there either.
      const cpuCases = cases.filter((c) => !c.name.startsWith('bare_pixi'))
      // Only the page in front may work during a measured drag (the sum counts every process):
      // every other page of the browser is frozen meanwhile (no timers, no frames, no workers).
      const others = async (front: Page, state: 'frozen' | 'active') => {
        for (const p of browser.context.pages()) {
          if (p === front) continue
          const cdp = cases.find((c) => c.page === p)?.cdp ?? (await p.context().newCDPSession(p))
          await cdp.send('Page.setWebLifecycleState', { state })
        }
      }
      const measured = async <T>(front: Page, work: () => Promise<T>): Promise<T> => {
        await others(front, 'frozen')
        try {
          return await work()
        } finally {
          await others(front, 'active')
        }
      }
      const cpuDragOf = (c: Case) =>
        measured(c.page, () => cpuDrag(c.page, c.cdp, pid, c.grab, sizes.cpuMoves))
      // A warm-up each (the paced drag's path is longer than the scripted one's).
      for (const c of cpuCases) await cpuDragOf(c)
      const cpuRuns = new Map<string, DragCpu[]>()
      for (let round = 0; round < sizes.rounds; round += 1) {
        const order = round % 2 === 0 ? cpuCases : [...cpuCases].reverse()
        for (const c of order)
          cpuRuns.set(c.name, [...(cpuRuns.get(c.name) ?? []), await cpuDragOf(c)])
      }
      // The same time with nobody touching the editor of the many blocks: what the sum counts
      // that is not the drag's.
      const dragMs = (sizes.cpuMoves * 1000) / MOVES_PER_SECOND
      const manyCase = cpuCases.find((c) => c.name === 'editor_1000')!
      const idle = await measured(manyCase.page, () => idleCpuPerSecond(manyCase.page, pid, dragMs))
      out.drag_cpu_ms_idle_per_s = idle.perSecond
      lap(`drag CPU, ${sizes.rounds} rounds of ${sizes.cpuMoves} moves`)
      const cpu = (name: string) => cpuRuns.get(name)!.map((r) => r.perMove)
      for (const c of cpuCases) {
        report(`drag_cpu_ms_per_move_${c.name}`, cpu(c.name))
        const runsOf = cpuRuns.get(c.name)!
        console.log(
          `    the moves alone ${spread(runsOf.map((r) => r.movesOnlyPerMove))} ms a move; ` +
            `sent at ${spread(runsOf.map((r) => r.rate))} moves/s`,
        )
        const kinds = [...new Set(runsOf.flatMap((r) => [...r.byKind.keys()]))]
        console.log(
          `    by process: ${kinds
            .map((k) => `${k} ${median(runsOf.map((r) => r.byKind.get(k) ?? 0)).toFixed(2)}`)
            .join(', ')} ms a move (medians)`,
        )
        const threads = [...new Set(runsOf.flatMap((r) => [...r.byThread.keys()]))]
          .map((t) => [t, median(runsOf.map((r) => r.byThread.get(t) ?? 0))] as const)
          .filter(([, ms]) => ms >= 0.1)
          .sort((a, b) => b[1] - a[1])
        console.log(
          `    by thread: ${threads.map(([t, ms]) => `${t} ${ms.toFixed(2)}`).join(', ')}`,
        )
      }
      const cpuRatios = (a: string, b: string) => cpu(a).map((x, i) => x / cpu(b)[i]!)
      report('drag_cpu_ratio_vs_konva_100', cpuRatios('editor_100', 'konva_100'))
      report('drag_cpu_ratio_vs_konva_snapping_100', cpuRatios('editor_100', 'konva_snapping_100'))
      report('drag_cpu_ratio_vs_konva_1000', cpuRatios('editor_1000', 'konva_1000'))
      report('drag_cpu_ratio_vs_konva_5000', cpuRatios('editor_5000', 'konva_5000'))
      // The floor over Konva's page: a goal below it (≤ 0.5 among 1,000) no page can meet here.
      report('drag_cpu_floor_ratio_vs_konva_1000', cpuRatios('floor_1000', 'konva_1000'))
      console.log(
        `  drag_cpu_ms_idle_per_s: ${out.drag_cpu_ms_idle_per_s.toFixed(1)} ` +
          `(a drag of ${sizes.cpuMoves} moves lasts ${(dragMs / 1000).toFixed(1)} s): ` +
          [...idle.byKind].map(([k, ms]) => `${k} ${ms.toFixed(1)}`).join(', '),
      )
      console.log(
        `  load average: ${loadavg()
          .map((l) => l.toFixed(2))
          .join(', ')}`,
      )

      // --- the frame after a release: the editor among 100 and 1,000 blocks, alternating ---
      const dropCases = ['editor_100', 'editor_1000'].map((n) => cases.find((c) => c.name === n)!)
      const drops = new Map<string, number[]>()
      for (let round = 0; round < sizes.rounds; round += 1)
        for (const c of round % 2 === 0 ? dropCases : [...dropCases].reverse())
          drops.set(c.name, [
            ...(drops.get(c.name) ?? []),
            await releaseFrameMs(c.page, c.cdp, c.grab),
          ])
      report('drop_frame_ms_100', drops.get('editor_100')!)
      report('drop_frame_ms_1000', drops.get('editor_1000')!)
      lap('release frames')

      // --- pan: the middle button over the empty stage and over 1,000 blocks ---
      // One pan varies with its first picture's timing (0.67 to 0.91 in three runs of one pan
      // each): alternating rounds, medians and ranges, as the drags.
      await openEditor(page, server.url, empty.id, 0, sizes)
      const manyPage = cases.find((c) => c.name === 'editor_1000')!.page
      const emptyFrom = await sectionCentre(page)
      const manyFrom = await sectionCentre(manyPage)
      const emptyPans: PanFigures[] = []
      const manyPans: PanFigures[] = []
      for (let round = 0; round < sizes.rounds; round += 1) {
        const emptyFirst = round % 2 === 0
        if (emptyFirst) emptyPans.push(await panFps(page, emptyFrom, sizes.panMs))
        manyPans.push(await panFps(manyPage, manyFrom, sizes.panMs))
        if (!emptyFirst) emptyPans.push(await panFps(page, emptyFrom, sizes.panMs))
      }
      for (let i = 0; i < emptyPans.length; i += 1)
        console.log(
          `frames drawn per second while panning: empty stage ${rates(emptyPans[i]!)}; ` +
            `${sizes.manyBlocks} blocks ${rates(manyPans[i]!)}`,
        )
      const panRatios = manyPans.map((m, i) => m.drawn / emptyPans[i]!.drawn)
      console.log(`  pan_fps_ratio_vs_empty_stage_1000: ${spread(panRatios)}`)
      out.pan_fps_empty_stage = median(emptyPans.map((r) => r.drawn))
      out.pan_fps_1000 = median(manyPans.map((r) => r.drawn))
      out.pan_fps_ratio_vs_empty_stage_1000 = median(panRatios)
      // A frame that never came (a page that drew nothing) fails the figure: it measured nothing.
      for (const [key, pans] of [
        ['pan_first_frame_ms_empty_stage', emptyPans],
        ['pan_first_frame_ms_1000', manyPans],
      ] as const) {
        const first = pans.map((p) => p.firstFrameMs)
        if (first.some((v) => !Number.isFinite(v))) throw new Error(`${key}: a pan drew no frame`)
        console.log(`  ${key}: ${spread(first)}`)
        out[key] = median(first)
      }
      // The pan's end: a release never seen, or no frame after it, measured nothing.
      for (const [key, pans] of [
        ['pan_end_ms_empty_stage', emptyPans],
        ['pan_end_ms_1000', manyPans],
      ] as const) {
        const ends = pans.map((p) => p.endMs)
        if (ends.some((v) => !Number.isFinite(v))) throw new Error(`${key}: a pan's end not seen`)
        console.log(`  ${key}: ${spread(ends)}`)
        out[key] = median(ends)
      }
      for (const c of cases) await c.page.close()
      lap('pan')
    }
    // --- memory after reopening the editor with edits: in-app navigation, so the page stays ---
    if (parts.includes('reopen')) await reopenFigures(page, server.url, full, out, sizes)
    lap('editor reopens')
    await browser.close()

    if (parts.includes('visit')) {
      // --- repeat visit against a first visit, at a 150 ms round trip ---
      const slow = await slowProxy(server.url, sizes.roundTripMs)
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
      await visitor.page.waitForTimeout(sizes.betweenVisitsMs)
      const repeat = await firstRowsMs(visitor.page, slow.url)
      console.log(`/specialist first rows: first visit ${first} ms, repeat visit ${repeat} ms`)
      out.first_visit_first_rows_ms = first
      out.repeat_visit_first_rows_ms = repeat
      out.repeat_visit_first_rows_ratio_vs_first_visit = repeat / first
    }
  } finally {
    for (const s of sessions) await s.close()
    if (proxy) await new Promise<void>((resolve) => proxy!.close(() => resolve()))
    await server.close()
  }
  return out
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await runCanvasBench())
}
