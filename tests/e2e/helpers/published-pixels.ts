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
  clipOf,
  type BlockPixels,
  type BoxSize,
  fontsLoaded,
  fraction,
  mismatchOf,
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
  saveDiff?: (
    type: BlockType,
    window: number,
    images: { published: Buffer; preview: Buffer; diff: Buffer },
  ) => void,
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
          const ours = shots.get(type)!
          const theirs = preview.shots.get(type)!
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
          if (clip.width !== previewClip.width || clip.height !== previewClip.height) {
            results.push({ type, window: window.width, mismatchPct: 100, ...sizes })
            continue
          }
          const { pct, diff } = await mismatchOf(ours.png, theirs.png, clip)
          saveDiff?.(type, window.width, { published: ours.png, preview: theirs.png, diff })
          results.push({ type, window: window.width, mismatchPct: pct, ...sizes })
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

/** Each type's largest share of differing pixels over the windows, per cent. */
export function largestByType(results: readonly PublishedPixels[]): Map<BlockType, number> {
  const largest = new Map<BlockType, number>()
  for (const r of results) largest.set(r.type, Math.max(largest.get(r.type) ?? 0, r.mismatchPct))
  return largest
}
