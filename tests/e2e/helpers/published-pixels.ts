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
  previewShots,
  shootBlocks,
} from './block-pixels.ts'

/** The most a type may differ, in per cent of its box's pixels (docs/publishing.md). */
export const MAX_PUBLISHED_MISMATCH_PCT = 1

/** As the canvas check's figures, the published page's box in the canvas's stead. */
export type PublishedPixels = Omit<BlockPixels, 'canvas'> & { published: BoxSize }

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
 * Shows each block of the project (made by `pixelProject`) in the editor's preview (the page is
 * signed in), publishes the project, opens its public page in another tab of the same browser at a
 * width that draws its sections as wide as the preview's, and compares each block's pixels there
 * with the preview's. `saveDiff` receives each type's images.
 */
export async function comparePublishedPixels(
  page: Page,
  baseUrl: string,
  token: string,
  projectId: number,
  saveDiff?: (
    type: BlockType,
    images: { published: Buffer; preview: Buffer; diff: Buffer },
  ) => void,
): Promise<PublishedPixels[]> {
  const preview = await previewShots(page, baseUrl, projectId)
  const url = await publishProject(baseUrl, token, projectId)
  const visitor = await page.context().newPage()
  try {
    const { height } = page.viewportSize()!
    await visitor.setViewportSize({ width: Math.round(preview.sectionWidth), height })
    await visitor.goto(url)
    // A landing's sections are as wide as the window beside its scroll bar.
    const bar = await visitor.evaluate(() => innerWidth - document.documentElement.clientWidth)
    await visitor.setViewportSize({ width: Math.round(preview.sectionWidth) + bar, height })
    const main = visitor.locator('main')
    const sectionWidth = (await main.locator('section').first().boundingBox())!.width
    if (sectionWidth !== preview.sectionWidth)
      throw new Error(`sections ${sectionWidth} px wide, the preview's ${preview.sectionWidth}`)
    await fontsLoaded(visitor)
    const shots = await shootBlocks(visitor, main)
    const results: PublishedPixels[] = []
    for (const type of BLOCK_TYPES) {
      const ours = shots.get(type)!
      const theirs = preview.shots.get(type)!
      // Both clips must cut the block alike: its corner at the same fraction of a pixel.
      for (const side of ['left', 'top'] as const)
        if (Math.abs(fraction(ours.box[side]) - fraction(theirs.box[side])) > 0.01)
          throw new Error(
            `${type}: ${side} at ${ours.box[side]} px published, ${theirs.box[side]} px in the preview`,
          )
      const clip = clipOf(ours.box)
      const previewClip = clipOf(theirs.box)
      if (clip.width !== previewClip.width || clip.height !== previewClip.height) {
        results.push({
          type,
          mismatchPct: 100,
          preview: { width: theirs.box.width, height: theirs.box.height },
          published: { width: ours.box.width, height: ours.box.height },
        })
        continue
      }
      const { pct, diff } = await mismatchOf(visitor, ours.png, theirs.png, clip)
      saveDiff?.(type, { published: ours.png, preview: theirs.png, diff })
      results.push({
        type,
        mismatchPct: pct,
        preview: { width: theirs.box.width, height: theirs.box.height },
        published: { width: ours.box.width, height: ours.box.height },
      })
    }
    return results
  } finally {
    await visitor.close()
  }
}
