/**
 * What a tablet keeps in memory after long editing (`npm run bench canvas`, docs/editor.md
 * «Memory after long editing»): the editor of a 100-block landing is opened from /projects and left
 * again 20 times, and each visit does an editor's work — the front block dragged, a text, a button
 * and a picture added, a generated PNG uploaded into the picture through the inspector's own
 * upload, the three new blocks deleted, everything saved — then «назад». After each visit the
 * page's and the sync worker's heaps are read after forced garbage collection (CDP), with the WebGL
 * contexts and textures the page holds (`gl-census.ts`) and the editor's own texture census (test
 * build).
 */
import type { CDPSession, Page } from 'playwright-core'
import { pngImage } from '../support/png.ts'
import { glCensus, type GlCensus } from '../support/gl-census.ts'

interface TextureCensus {
  renderers: number
  gpuTextures: number
  shared: number
  pooled: number
}

export interface ReopenSample {
  visit: number
  pageHeapMb: number
  workerHeapMb: number | null
  gl: GlCensus
  pixi: TextureCensus
  /**
   * While the editor was open: before the blocks were added (after the drag), with them and the
   * uploaded picture, and once they were deleted again.
   */
  open: { before: TextureCensus; added: TextureCensus; deleted: TextureCensus; gl: GlCensus }
}

const ADDED = ['Текст', 'Кнопка', 'Изображение'] as const

function layerRows(page: Page) {
  // The first layers list is the side panel's (a narrow screen has a second one, hidden).
  return page.getByRole('list', { name: 'Слои' }).first().getByRole('listitem')
}

/**
 * Waits until the layers list holds `count` blocks. The first list is the side panel's (a narrow
 * screen has a second one, hidden); it draws the rows in view, each knowing the list's length.
 */
export async function waitForLayers(page: Page, count: number) {
  await page.waitForFunction(
    (n) =>
      (document
        .querySelector('[role="list"][aria-label="Слои"] [role="listitem"]')
        ?.getAttribute('aria-setsize') ?? '0') === String(n),
    count,
    { timeout: 60_000 },
  )
}

/** Forces garbage collection in the page and reads its JS heap (MB). */
async function readPageHeapMb(cdp: CDPSession): Promise<number> {
  for (let i = 0; i < 3; i += 1) await cdp.send('HeapProfiler.collectGarbage')
  const { usedSize } = await cdp.send('Runtime.getHeapUsage')
  return usedSize / (1024 * 1024)
}

/**
 * The page's dedicated workers (the sync worker), reached through CDP: the page's session attaches
 * to them and talks to each through `Target.sendMessageToTarget`.
 */
async function workerChannel(cdp: CDPSession) {
  const workers = new Map<string, string>()
  const waiting = new Map<number, (result: unknown) => void>()
  let next = 1
  cdp.on('Target.attachedToTarget', (event) => {
    if (event.targetInfo.type === 'worker') workers.set(event.sessionId, event.targetInfo.url)
  })
  cdp.on('Target.detachedFromTarget', (event) => {
    if (event.sessionId) workers.delete(event.sessionId)
  })
  cdp.on('Target.receivedMessageFromTarget', (event) => {
    const message = JSON.parse(event.message) as { id?: number; result?: unknown }
    if (message.id !== undefined) waiting.get(message.id)?.(message.result)
  })
  await cdp.send('Target.setAutoAttach', {
    autoAttach: true,
    waitForDebuggerOnStart: false,
    flatten: false,
  })
  const send = (sessionId: string, method: string) =>
    new Promise<unknown>((resolve) => {
      const id = next++
      waiting.set(id, resolve)
      void cdp.send('Target.sendMessageToTarget', {
        sessionId,
        message: JSON.stringify({ id, method, params: {} }),
      })
    })
  return {
    /** The sync worker's heap after forced GC (MB), or null when it is not reachable. */
    async syncWorkerHeapMb(): Promise<number | null> {
      const session = [...workers].find(([, url]) => /sync/.test(url))?.[0]
      if (!session) return null
      for (let i = 0; i < 3; i += 1) await send(session, 'HeapProfiler.collectGarbage')
      const usage = (await send(session, 'Runtime.getHeapUsage')) as { usedSize: number }
      return usage.usedSize / (1024 * 1024)
    },
  }
}

async function pixiCensus(page: Page): Promise<TextureCensus> {
  return page.evaluate(
    () =>
      (window as { __promoEditorTextures?: () => TextureCensus }).__promoEditorTextures?.() ?? {
        renderers: 0,
        gpuTextures: 0,
        shared: 0,
        pooled: 0,
      },
  )
}

/** The editor's save state reads «Всё сохранено» (blocks and the upload reached the server). */
async function waitSaved(page: Page) {
  await page
    .getByRole('button', { name: /Всё сохранено/ })
    .first()
    .waitFor({ timeout: 60_000 })
}

/** A PNG of its own per visit (each upload is a new file, as a person's would be). */
const uploadPng = (visit: number) =>
  pngImage(120, 90, (x, y) => [(x * 2 + visit * 37) % 256, (y * 3 + visit * 11) % 256, 160])

interface Dragged {
  id: number
}

/** One visit: open, drag, add, upload, delete, save, leave. */
async function visit(
  page: Page,
  openEditor: () => Promise<void>,
  leave: () => Promise<void>,
  blocks: number,
  n: number,
  dragged: Dragged,
): Promise<ReopenSample['open']> {
  await openEditor()
  await waitForLayers(page, blocks)
  // The front block, dragged right and down on odd visits and back on even ones.
  const drawn = await page.evaluate(
    () =>
      (
        window as {
          __promoEditorCanvas?: {
            blocks(): { id: number | null; clientX: number; clientY: number }[]
          }
        }
      ).__promoEditorCanvas?.blocks() ?? [],
  )
  const block = drawn.find((b) => b.id === dragged.id)
  if (!block) throw new Error(`block ${dragged.id} is not drawn`)
  const sign = n % 2 === 1 ? 1 : -1
  await page.mouse.move(block.clientX, block.clientY)
  await page.mouse.down()
  await page.mouse.move(block.clientX + sign * 60, block.clientY + sign * 30, { steps: 6 })
  await page.mouse.up()

  const before = await pixiCensus(page)
  const toolbar = page.getByRole('toolbar', { name: 'Добавить блок' })
  for (const label of ADDED) await toolbar.getByRole('button', { name: label, exact: true }).click()
  await waitForLayers(page, blocks + ADDED.length)
  // The picture added last is selected, in front (the list's first row).
  await layerRows(page).first().getByRole('button').first().click()
  const chooser = page.waitForEvent('filechooser')
  await page.getByRole('button', { name: 'Загрузить изображение' }).click()
  await (
    await chooser
  ).setFiles({ name: `picture-${n}.png`, mimeType: 'image/png', buffer: uploadPng(n) })
  await page.getByAltText('Загруженное изображение').waitFor({ timeout: 60_000 })
  // The picture is drawn on the canvas (its texture shared by URL).
  await page.waitForFunction(
    () =>
      ((window as { __promoEditorTextures?: () => { shared: number } }).__promoEditorTextures?.()
        .shared ?? 0) >= 3,
    null,
    { timeout: 60_000 },
  )
  await waitSaved(page)
  const added = await pixiCensus(page)
  for (let left = ADDED.length; left > 0; left -= 1) {
    await layerRows(page).first().getByRole('button').first().click()
    await page.keyboard.press('Delete')
    await waitForLayers(page, blocks + left - 1)
  }
  await waitSaved(page)
  const open = { before, added, deleted: await pixiCensus(page), gl: await glCensus(page) }
  await leave()
  return open
}

/**
 * Opens and leaves the editor `reopens` times from /projects (in-app navigation: the page and its
 * heap stay). Resolves with a sample after every visit.
 */
export async function measureReopens(options: {
  page: Page
  /** Opens the project's editor from the list. */
  openEditor: () => Promise<void>
  /** Leaves the editor for the list. */
  leave: () => Promise<void>
  blocks: number
  /** The block dragged on every visit (in front, in the middle of the section). */
  draggedId: number
  reopens: number
  /** Visits after which a sample is taken (always the first and the last). */
  sampleAt: number[]
}): Promise<ReopenSample[]> {
  const { page } = options
  const cdp = await page.context().newCDPSession(page)
  const workers = await workerChannel(cdp)
  const samples: ReopenSample[] = []
  for (let n = 1; n <= options.reopens; n += 1) {
    const started = Date.now()
    const open = await visit(page, options.openEditor, options.leave, options.blocks, n, {
      id: options.draggedId,
    })
    console.log(`  visit ${n}: ${((Date.now() - started) / 1000).toFixed(1)} s`)
    if (n === 1 || n === options.reopens || options.sampleAt.includes(n)) {
      const pageHeapMb = await readPageHeapMb(cdp)
      samples.push({
        visit: n,
        pageHeapMb,
        workerHeapMb: await workers.syncWorkerHeapMb(),
        gl: await glCensus(page),
        pixi: await pixiCensus(page),
        open,
      })
    }
  }
  await cdp.detach()
  return samples
}
