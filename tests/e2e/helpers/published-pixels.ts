/**
 * The published-page-and-preview pixel check (docs/publishing.md «The public page and the preview,
 * pixel for pixel»): the canvas check's scene (tests/e2e/helpers/block-pixels.ts) published, each
 * block screenshotted on `GET /p/{slug}` with its sections as wide as the in-app preview draws
 * them, and the share of pixels that differ from the preview's. Used by the browser journey
 * (tests/e2e/published-pixels.e2e.ts) and the benchmark (tests/bench/pixel-bench.ts).
 */
import type { Page } from 'playwright-core'
import { BLOCK_TYPES, type BlockType } from '../../../src/domain/block.ts'
import {
  apiClient,
  type BlockPixels,
  type BlockShot,
  clipOf,
  type BoxSize,
  fontsLoaded,
  fraction,
  mismatchOf,
  PIXEL_FACES,
  PIXEL_WINDOW,
  previewShots,
  shootBlocks,
} from './block-pixels.ts'

/** The most a type may differ, in per cent of its box's pixels (docs/publishing.md). */
export const MAX_PUBLISHED_MISMATCH_PCT = 1

/** As the canvas check's figures, the published page's box in the canvas's stead. */
export type PublishedPixels = Omit<BlockPixels, 'canvas'> & {
  /** The window's width, CSS px. */
  window: number
  published: BoxSize
}

/** Publishes the project; resolves with its public address on `baseUrl`. */
export async function publishProject(
  baseUrl: string,
  token: string,
  projectId: number,
): Promise<string> {
  const { slug } = await apiClient(baseUrl, token).post<{ slug: string }>('/api/project/publish', {
    project_id: projectId,
  })
  return new URL(`/p/${slug}`, baseUrl).toString()
}

/**
 * The windows the pages are compared in: the pixel checks' (the preview's sections 1200 px wide), a
 * tablet's and a phone's, upright (the preview's sections as wide as the window).
 */
export const PUBLISHED_WINDOWS = [
  PIXEL_WINDOW,
  { width: 820, height: 1180 },
  { width: 390, height: 844 },
] as const

/** Receives a type's published, preview and difference images. */
export type SaveDiff = (
  type: BlockType,
  window: number,
  images: { published: Buffer; preview: Buffer; diff: Buffer },
) => void

/**
 * Publishes the project (made by `pixelProject`), then in each window: shows each block in the
 * editor's preview (the page is signed in), opens the public page in another tab of the same
 * browser at a width that draws its sections as wide as the preview's, and compares each block's
 * pixels there with the preview's (`windows`: all of PUBLISHED_WINDOWS, `types`: every block
 * type, unless fewer are asked for). `saveDiff` receives each type's images.
 */
export async function comparePublishedPixels(
  page: Page,
  baseUrl: string,
  token: string,
  projectId: number,
  saveDiff?: SaveDiff,
  windows: readonly { width: number; height: number }[] = PUBLISHED_WINDOWS,
  types: readonly BlockType[] = BLOCK_TYPES,
): Promise<PublishedPixels[]> {
  const url = await publishProject(baseUrl, token, projectId)
  const signedIn = page.viewportSize()!
  const results: PublishedPixels[] = []
  try {
    for (const window of windows) {
      await page.setViewportSize(window)
      const preview = await previewShots(page, baseUrl, projectId, types)
      const visitor = await page.context().newPage()
      try {
        await visitor.setViewportSize({
          width: Math.round(preview.sectionWidth),
          height: window.height,
        })
        await visitor.goto(url)
        // A landing's sections are as wide as the window beside its scroll bar.
        const bar = await visitor.evaluate(() => innerWidth - document.documentElement.clientWidth)
        await visitor.setViewportSize({
          width: Math.round(preview.sectionWidth) + bar,
          height: window.height,
        })
        const main = visitor.locator('main')
        const sectionWidth = (await main.locator('section').first().boundingBox())!.width
        if (sectionWidth !== preview.sectionWidth)
          throw new Error(`sections ${sectionWidth} px wide, the preview's ${preview.sectionWidth}`)
        await fontsLoaded(visitor)
        const shots = await shootBlocks(visitor, main, types)
        for (const type of types) {
          results.push(
            await compared(
              type,
              window.width,
              shots.get(type)!,
              preview.shots.get(type)!,
              saveDiff,
            ),
          )
        }
      } finally {
        await visitor.close()
      }
    }
  } finally {
    await page.setViewportSize(signedIn)
  }
  return results
}

/** One block's shots on the public page (`ours`) and in the preview, compared. */
async function compared(
  type: BlockType,
  window: number,
  ours: BlockShot,
  theirs: BlockShot,
  saveDiff?: SaveDiff,
): Promise<PublishedPixels> {
  // Both clips must cut the block alike: its corner at the same fraction of a pixel.
  for (const side of ['left', 'top'] as const)
    if (Math.abs(fraction(ours.box[side]) - fraction(theirs.box[side])) > 0.01)
      throw new Error(
        `${type}: ${side} at ${ours.box[side]} px published, ${theirs.box[side]} px in the preview`,
      )
  const sizes = {
    preview: { width: theirs.box.width, height: theirs.box.height },
    published: { width: ours.box.width, height: ours.box.height },
  }
  const clip = clipOf(ours.box)
  const previewClip = clipOf(theirs.box)
  if (clip.width !== previewClip.width || clip.height !== previewClip.height)
    return { type, window, mismatchPct: 100, ...sizes }
  const { pct, diff } = await mismatchOf(ours.png, theirs.png, clip)
  saveDiff?.(type, window, { published: ours.png, preview: theirs.png, diff })
  return { type, window, mismatchPct: pct, ...sizes }
}

/**
 * A «Сторис» project (made by `pixelProject` with type 2: one slide per block type) published,
 * compared slide by slide in `screen`: the preview's phone frame shows one slide at a time (the
 * arrow keys move it); the public page, with its script, shows the slide its address names
 * (`#n`), in a window as wide as the preview's slide, so its slide is as wide.
 */
export async function compareStoriesPixels(
  page: Page,
  baseUrl: string,
  token: string,
  projectId: number,
  screen: { width: number; height: number },
  saveDiff?: SaveDiff,
  types: readonly BlockType[] = BLOCK_TYPES,
): Promise<PublishedPixels[]> {
  const url = await publishProject(baseUrl, token, projectId)
  const signedIn = page.viewportSize()!
  const results: PublishedPixels[] = []
  try {
    await page.setViewportSize(screen)
    await page.goto(new URL(`/projects/${projectId}/edit/type-2`, baseUrl).toString())
    // The story editor draws one slide at a time; the preview waits for each slide's block.
    await page.getByRole('button', { name: 'Предпросмотр' }).waitFor()
    await fontsLoaded(page)
    await page.getByRole('button', { name: 'Предпросмотр' }).click()
    const preview = page.locator('[data-testid="stories-preview"]')
    await preview.waitFor()
    await fontsLoaded(page)
    const theirs = new Map<BlockType, BlockShot>()
    let slide = { x: 0, y: 0, width: 0 }
    for (const [i, type] of BLOCK_TYPES.entries()) {
      if (i > 0) await page.keyboard.press('ArrowRight')
      if (!types.includes(type)) continue
      await preview.locator(`[data-block-type="${type}"]`).waitFor()
      slide = (await preview.locator('section').first().boundingBox())!
      theirs.set(type, (await shootBlocks(page, preview, [type])).get(type)!)
    }
    const slideWidth = slide.width
    await page.keyboard.press('Escape')
    await preview.waitFor({ state: 'detached' })
    if (slideWidth !== Math.round(slideWidth))
      throw new Error(`the preview's slide is ${slideWidth} px wide: no window draws it so`)
    const visitor = await page.context().newPage()
    try {
      // Taller than the slide: it is as wide as the window.
      await visitor.setViewportSize({
        width: slideWidth,
        height: Math.ceil((slideWidth * 16) / 9) + 40,
      })
      for (const [i, type] of BLOCK_TYPES.entries()) {
        if (!types.includes(type)) continue
        await visitor.goto(`${url}#${i + 1}`)
        const main = visitor.locator('main')
        const shown = main.locator('section:not([hidden])')
        const box = (await shown.boundingBox())!
        if (box.width !== slideWidth)
          throw new Error(`slide ${i + 1} ${box.width} px wide, the preview's ${slideWidth}`)
        // The slide moved by less than a pixel, to the same fraction of one as the preview's
        // (the page centres it in the window, the preview in its frame): the same pixel grid.
        const nudge = (ours: number, preview: number) =>
          (((fraction(preview) - fraction(ours)) % 1) + 1) % 1
        await shown.evaluate(
          (el, { left, top }) => Object.assign(el.style, { left: `${left}px`, top: `${top}px` }),
          { left: nudge(box.x, slide.x), top: nudge(box.y, slide.y) },
        )
        // A hidden slide's faces are not asked for until it shows: ask for them all.
        await visitor.evaluate(
          (faces) => Promise.all(faces.map((f) => document.fonts.load(f, 'Ая'))),
          PIXEL_FACES,
        )
        await fontsLoaded(visitor)
        const ours = (await shootBlocks(visitor, main, [type])).get(type)!
        results.push(await compared(type, screen.width, ours, theirs.get(type)!, saveDiff))
      }
    } finally {
      await visitor.close()
    }
  } finally {
    await page.setViewportSize(signedIn)
  }
  return results
}

/** Each type's largest share of differing pixels over the windows, per cent. */
export function largestByType(results: readonly PublishedPixels[]): Map<BlockType, number> {
  const largest = new Map<BlockType, number>()
  for (const r of results) largest.set(r.type, Math.max(largest.get(r.type) ?? 0, r.mismatchPct))
  return largest
}
