/**
 * The canvas-and-preview pixel check (docs/editor.md «Canvas and preview, pixel for pixel»): every
 * block type, with representative fields, drawn by the editor's canvas and by its preview at the
 * same size, and the share of pixels that differ. Used by the browser journey
 * (tests/e2e/block-pixels.e2e.ts) and the benchmark (tests/bench/pixel-bench.ts).
 */
import { readFileSync } from 'node:fs'
import type { Locator, Page } from 'playwright-core'
import pixelmatch from 'pixelmatch'
import { BLOCK_TYPES, type BlockType } from '../../../src/domain/block.ts'
import type { LocalBlock } from '../../../src/features/editor/editor-data.ts'
import { pngImage, pngPixels } from '../../support/png.ts'
import type { CanvasBlockProbe as DrawnBlock } from '../../../src/features/editor/canvas/scene-host.ts'

/** Each block sits alone in the middle of its own 16:9 section. */
const BG = { width: 320, height: 180 }
/** A landing section is 1200 world px wide (docs/editor.md «Decisions»). */
const WORLD_WIDTH = 1200
/**
 * Per-pixel tolerance: pixelmatch's YIQ colour distance (0–1) under which two pixels count as the
 * same, and antialiased edge pixels (detected by pixelmatch) are not counted.
 */
export const PIXEL_THRESHOLD = 0.1
/** The most a type may differ, in per cent of its box's pixels (docs/editor.md). */
export const MAX_MISMATCH_PCT = 2

/**
 * The checks' window: wide enough for the preview's 1200 px sections (the canvas draws them at
 * 100% too), and one that puts them on a whole pixel beside the preview's scroll bar.
 */
export const PIXEL_WINDOW = { width: 1414, height: 900 }

/** A box's size in CSS px. */
export interface BoxSize {
  width: number
  height: number
}

export interface BlockPixels {
  type: BlockType
  /** Share of the block's box whose pixels differ, per cent. */
  mismatchPct: number
  /** The box's size on the canvas and in the preview. */
  canvas: BoxSize
  preview: BoxSize
}

export interface Api {
  post<T>(path: string, body: unknown): Promise<T>
  call<T>(path: string, init?: RequestInit): Promise<T>
  get<T>(path: string): Promise<T>
}

export function apiClient(baseUrl: string, token: string): Api {
  const call = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const response = await fetch(new URL(path, baseUrl), {
      ...init,
      headers: { Authorization: `Bearer ${token}`, ...(init.headers ?? {}) },
    })
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
    return (await response.json()) as T
  }
  return {
    call,
    get: (path) => call(path),
    post: (path, body) =>
      call(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }),
  }
}

function formOf(file: Buffer, type: string, fields: Record<string, string> = {}): FormData {
  const form = new FormData()
  form.set('file', new Blob([new Uint8Array(file)], { type }))
  for (const [k, v] of Object.entries(fields)) form.set(k, v)
  return form
}

/** A picture with edges, stripes and a gradient, so a misplaced or blurred one shows. */
function picture(): Buffer {
  return pngImage(160, 120, (x, y) =>
    (Math.floor(x / 20) + Math.floor(y / 20)) % 2 === 0
      ? [Math.round((255 * x) / 160), 60, 200]
      : [250, Math.round((255 * y) / 120), 40],
  )
}

/**
 * Where each block stands in its 1200 × 675 px section, as a stored offset from the middle (a unit
 * is 6 px there). `whole`: the block's centre on a whole pixel (0.0834 units is 0.5 px and a hair,
 * as stored offsets keep four decimals). The preview centres a block with a transform, and the
 * browser lays a transformed box on a whole pixel before the transform moves it by half its size:
 * a centre at a fraction of a pixel is painted up to half a pixel off (its texts rounded again where
 * the fraction leaves them), which a canvas at the exact place cannot show. `fractional`: where a
 * drag may leave a block, a fraction of a pixel off in both directions. `rotated`: as `whole`,
 * each block turned by 7°.
 */
export type Placement = 'whole' | 'fractional' | 'rotated'
const OFFSET: Record<Placement, { x: number; y: number }> = {
  whole: { x: 0, y: 0.0834 },
  fractional: { x: 0.0371, y: 0.0529 }, // 0.22 px right and 0.32 px down from the middle
  rotated: { x: 0, y: 0.0834 },
}
/** `rotated`: each block turned, as a person turns one with the handle (docs/editor.md). */
const ROTATION: Record<Placement, number> = { whole: 0, fractional: 0, rotated: 7 }
/** One block of each type, with the fields a person would set. */
function blocksFor(
  bgIds: number[],
  image: string,
  video: string,
  placement: Placement,
): LocalBlock[] {
  const at = (i: number) => ({
    bg_id: bgIds[i]!,
    x: OFFSET[placement].x,
    y: OFFSET[placement].y,
    zindex: 1,
    rotation: ROTATION[placement],
  })
  return [
    {
      ...at(0),
      type: 'text',
      width: 50,
      fontSize: 4.5,
      font: 'Roboto',
      align: 'left',
      color: '#1b4332',
      background: '#fff3bf',
      text:
        'Весенняя чистка зубов со скидкой 20 %: запишитесь до конца месяца, и гигиенист ' +
        'подберёт уход, который подходит именно вам.',
      name: '',
    },
    {
      ...at(1),
      type: 'button',
      width: 30,
      height: 16,
      btn_type: 'link',
      btn_type_value: 'https://example.ru/sale',
      name: '',
      border_width: 1.5,
      border_color: '#0b7285',
      fontSize: 4,
      font: 'PT Sans',
      align: 'center',
      color: '#0b7285',
      background: '#e3fafc',
      text: 'Записаться на приём',
    },
    {
      ...at(2),
      type: 'image',
      width: 40,
      height: 53.3333,
      scaleX: 1,
      scaleY: 1,
      name: 'Клиника',
      image_url: image,
    },
    {
      ...at(3),
      type: 'video',
      width: 50,
      height: 50,
      scaleX: 1,
      scaleY: 1,
      video_url: '',
      video_src: video,
      name: 'Ролик',
    },
    {
      ...at(4),
      type: 'gift',
      width: 40,
      color: '#fcc2d7',
      text: 'Скидка 10 % на первое посещение',
      name: '',
      button_url: 'https://example.ru/gift',
      button_hook_url: '',
    },
    {
      ...at(5),
      type: 'price',
      width: 35,
      color: '#2b8a3e',
      text: '2 500 ₽',
      text_price: 2500,
      button_text: 'Оплатить',
    },
    {
      ...at(6),
      type: 'subscribe',
      width: 40,
      specialist_id: null,
      date: '2026-12-15',
      action: '',
    },
  ] as LocalBlock[]
}

/**
 * A project with one section per block type (a landing's 16:9 sections, or a «Сторис» project's
 * 9:16 slides: `type` 2), placed so; resolves with its id.
 */
export async function pixelProject(
  baseUrl: string,
  token: string,
  placement: Placement = 'whole',
  type: 1 | 2 = 1,
): Promise<number> {
  const api = apiClient(baseUrl, token)
  const [workspace] = await api.get<{ id: number }[]>('/api/workspace/list')
  const project = await api.post<{ id: number }>('/api/project/add', {
    workspace_id: workspace!.id,
    name: type === 1 ? 'Холст и предпросмотр' : 'Сторис: холст и предпросмотр',
  })
  await api.post('/api/project/set_type', { project_id: project.id, type })
  const bg = type === 1 ? BG : { width: BG.height, height: BG.width }
  const gradient = pngImage(bg.width, bg.height, (x, y) => [
    Math.round((255 * x) / bg.width),
    180,
    Math.round((255 * y) / bg.height),
  ])
  const bgIds: number[] = []
  for (const _ of BLOCK_TYPES) {
    const form = formOf(gradient, 'image/png', {
      project_id: String(project.id),
      width: String(bg.width),
      height: String(bg.height),
    })
    bgIds.push(
      (await api.call<{ id: number }>('/api/project/add_bg', { method: 'POST', body: form })).id,
    )
  }
  const uploaded = async (file: Buffer, type: string) =>
    (
      await api.call<{ url: string }>('/api/image/upload', {
        method: 'POST',
        body: formOf(file, type),
      })
    ).url
  const image = await uploaded(picture(), 'image/png')
  // A real VP8 WebM clip (tests/fixtures/README.md); not through helpers/editor.ts, which needs
  // Vitest (the benchmark runs this outside it).
  const clip = readFileSync(new URL('../../fixtures/clip.webm', import.meta.url))
  const video = await uploaded(clip, 'video/webm')
  for (const block of blocksFor(bgIds, image, video, placement))
    await api.post(`/api/${block.type}/add`, block)
  return project.id
}

export type Clip = { x: number; y: number; width: number; height: number }

/** A screenshot of `clip` once two in a row are the same (pictures, stills and fonts have loaded). */
async function settledShot(page: Page, clip: Clip): Promise<Buffer> {
  let last = await page.screenshot({ clip })
  for (let i = 0; i < 40; i += 1) {
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    )
    const next = await page.screenshot({ clip })
    if (next.equals(last)) return next
    last = next
  }
  return last
}

/** Every face the blocks use has loaded, for the preview's CSS and the canvas alike. */
export async function fontsLoaded(page: Page): Promise<void> {
  await page.waitForFunction(
    (faces) =>
      document.fonts.status === 'loaded' && faces.every((f) => document.fonts.check(f, 'Ая')),
    PIXEL_FACES,
  )
}

/** The faces the check's blocks draw with. */
export const PIXEL_FACES = ['400 20px Roboto', '700 20px Roboto', '400 20px "PT Sans"']

export type Box = { left: number; top: number; width: number; height: number }

export const fraction = (n: number) => n - Math.floor(n)

/** The whole pixels a box touches. */
export function clipOf(box: Box): Clip {
  const x = Math.floor(box.left)
  const y = Math.floor(box.top)
  return {
    x,
    y,
    width: Math.ceil(box.left + box.width) - x,
    height: Math.ceil(box.top + box.height) - y,
  }
}

/** A block's screenshot and its box (before rotation) in CSS px of the window. */
export interface BlockShot {
  png: Buffer
  box: Box
}

/**
 * Screenshots each block type's box under `root` (`[data-block-type]`, the preview's and the
 * published page's blocks alike), each scrolled to the middle of the window first (`types`: every
 * type unless fewer are asked for).
 */
export async function shootBlocks(
  page: Page,
  root: Locator,
  types: readonly BlockType[] = BLOCK_TYPES,
): Promise<Map<BlockType, BlockShot>> {
  const shots = new Map<BlockType, BlockShot>()
  for (const type of types) {
    const element = root.locator(`[data-block-type="${type}"]`)
    await element.evaluate((el) => el.scrollIntoView({ block: 'center' }))
    // A video's still: the published page asks for it when the video comes near the screen. Both
    // pages seek to the still's time (`stillTime`, never 0) once the metadata is in, so a video
    // can hold its first frame, ready and not seeking, before the seek begins: its time tells.
    // One that never comes is a difference to count, not a reason to stop.
    await page
      .waitForFunction(
        (el) =>
          Array.from(el.querySelectorAll('video')).every(
            (v) => v.readyState >= 2 && !v.seeking && v.currentTime > 0,
          ),
        await element.elementHandle(),
        { timeout: 20_000 },
      )
      .catch(() => undefined)
    // Its box on the screen (a turned block's: the upright box around it, on both sides alike).
    const box = await element.evaluate((el) => {
      const r = el.getBoundingClientRect()
      return { left: r.left, top: r.top, width: r.width, height: r.height }
    })
    shots.set(type, { png: await settledShot(page, clipOf(box)), box })
  }
  return shots
}

/**
 * Opens the project's editor (the page is signed in) and its preview, screenshots each block
 * there (of `types`) and closes the preview; resolves with the shots and the width the sections
 * are drawn at.
 */
export async function previewShots(
  page: Page,
  baseUrl: string,
  projectId: number,
  types: readonly BlockType[] = BLOCK_TYPES,
): Promise<{ sectionWidth: number; shots: Map<BlockType, BlockShot> }> {
  await page.goto(new URL(`/projects/${projectId}/edit/type-1`, baseUrl).toString())
  await page.waitForFunction(
    (count) =>
      ((window as { __promoEditorCanvas?: { blocks(): unknown[] } }).__promoEditorCanvas?.blocks()
        .length ?? 0) === count,
    BLOCK_TYPES.length,
  )
  await fontsLoaded(page)
  await page.getByRole('button', { name: 'Предпросмотр' }).click()
  const preview = page.locator('[data-testid="landing-preview"]')
  await preview.waitFor()
  await fontsLoaded(page)
  const sectionWidth = (await preview.locator('section').first().boundingBox())!.width
  const shots = await shootBlocks(page, preview, types)
  await page.keyboard.press('Escape')
  await preview.waitFor({ state: 'detached' })
  return { sectionWidth, shots }
}

/**
 * How two screenshots of the same clip differ: pixelmatch's count of differing pixels (at
 * PIXEL_THRESHOLD, antialiased edges not counted) as a share of the clip, and the difference image.
 */
export async function mismatchOf(
  a: Buffer,
  b: Buffer,
  clip: { width: number; height: number },
): Promise<{ pct: number; diff: Buffer }> {
  const [pa, pb] = await Promise.all([pngPixels(a), pngPixels(b)])
  const diff = new Uint8Array(clip.width * clip.height * 4)
  const differing = pixelmatch(pa, pb, diff, clip.width, clip.height, {
    threshold: PIXEL_THRESHOLD,
  })
  return {
    pct: (100 * differing) / (clip.width * clip.height),
    diff: pngImage(clip.width, clip.height, (x, y) => {
      const i = (y * clip.width + x) * 4
      return [diff[i]!, diff[i + 1]!, diff[i + 2]!]
    }),
  }
}

/**
 * Opens the project's editor (the page is signed in), shows each block in the preview and on the
 * canvas at the same size, and compares their pixels (of `types`: every type unless fewer are
 * asked for). `saveDiff` receives each type's images.
 */
export async function compareBlockPixels(
  page: Page,
  baseUrl: string,
  projectId: number,
  saveDiff?: (type: BlockType, images: { canvas: Buffer; preview: Buffer; diff: Buffer }) => void,
  types: readonly BlockType[] = BLOCK_TYPES,
): Promise<BlockPixels[]> {
  // The preview first: its sections' width sets the canvas's zoom.
  const { sectionWidth, shots } = await previewShots(page, baseUrl, projectId, types)
  const probe = () =>
    page.evaluate(
      () =>
        (
          window as { __promoEditorCanvas?: { blocks(): DrawnBlock[] } }
        ).__promoEditorCanvas?.blocks() ?? [],
    )
  // The grid is drawn over the canvas only.
  await page.getByRole('switch', { name: 'Сетка' }).uncheck({ force: true })

  // The canvas at the zoom that draws a section as wide as the preview does, each block with its
  // corner at the same fraction of a pixel as in the preview, so both clips cut it alike.
  const zoom = sectionWidth / WORLD_WIDTH
  const host = (await page.locator('[data-testid="editor-canvas"]').boundingBox())!
  const results: BlockPixels[] = []
  for (const type of types) {
    const key = (await probe()).find((b) => b.type === type)!.key
    const shot = shots.get(type)!
    const corner = {
      x: Math.round(host.x + host.width / 2 - shot.box.width / 2) + fraction(shot.box.left),
      y: Math.round(host.y + host.height / 2 - shot.box.height / 2) + fraction(shot.box.top),
    }
    await page.evaluate(
      ([k, z, c]) =>
        (
          window as {
            __promoEditorCanvas?: {
              lookAt(key: string, zoom: number, corner: { x: number; y: number }): void
            }
          }
        ).__promoEditorCanvas?.lookAt(k, z, c),
      [key, zoom, corner] as const,
    )
    const drawn = (await probe()).find((b) => b.key === key)!
    const clip = clipOf({ ...shot.box, left: corner.x, top: corner.y })
    // As Playwright's toHaveScreenshot does, the canvas is shot again until it matches or time is
    // up: a picture or a video's still may still be loading into its texture on a busy machine.
    const deadline = Date.now() + 15_000
    let png = await settledShot(page, clip)
    let { pct, diff } = await mismatchOf(png, shot.png, clip)
    while (pct > MAX_MISMATCH_PCT && Date.now() < deadline) {
      await page.waitForTimeout(250)
      png = await settledShot(page, clip)
      ;({ pct, diff } = await mismatchOf(png, shot.png, clip))
    }
    saveDiff?.(type, { canvas: png, preview: shot.png, diff })
    results.push({
      type,
      mismatchPct: pct,
      canvas: { width: drawn.width, height: drawn.height },
      preview: { width: shot.box.width, height: shot.box.height },
    })
  }
  return results
}
