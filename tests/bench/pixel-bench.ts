/**
 * How alike the canvas and the preview draw each block type (docs/editor.md «Canvas and preview,
 * pixel for pixel»): `preview_canvas_mismatch_pct_<type>`, the share of a block's pixels that
 * differ, and the largest of them, with each block centred on a whole pixel; and the same with the
 * blocks a fraction of a pixel off (`preview_canvas_mismatch_pct_fractional_<type>`), as a drag
 * leaves them. The same scenes and comparison as tests/e2e/block-pixels.e2e.ts, against the built
 * app and the reference server started in this process.
 *
 * And how alike the published page and the preview draw them (docs/publishing.md «The public page
 * and the preview, pixel for pixel»): the centred scene published and compared in a desktop's, a
 * tablet's and a phone's window, `published_preview_mismatch_pct_<type>` (the largest of its
 * windows) and the largest of all, `published_preview_mismatch_pct`, as
 * tests/e2e/published-pixels.e2e.ts checks.
 *
 * `BENCH_SMOKE=1` (or `{ smoke: true }`): the text and the picture blocks alone, the published page
 * in the phone's window alone (the browser journeys compare every type in CI).
 */
import { BLOCK_TYPES, type BlockType } from '../../src/domain/block.ts'
import { ensureBuilt } from '../e2e/global-setup.ts'
import { compareBlockPixels, PIXEL_WINDOW, pixelProject } from '../e2e/helpers/block-pixels.ts'
import {
  comparePublishedPixels,
  compareStoriesPixels,
  largestByType,
  PUBLISHED_WINDOWS,
} from '../e2e/helpers/published-pixels.ts'
import { launchBrowser } from '../e2e/helpers/browser.ts'
import { benchServer } from './bench-server.ts'
import { isSmoke, type BenchOptions } from './smoke.ts'

const PASSWORD = 'Пароль-надёжный-123'

/** `canvas`: the canvas against the preview; `published`: the public page against the preview. */
export type PixelComparison = 'canvas' | 'published'

export interface PixelBenchOptions extends BenchOptions {
  /** A reference server already serving the test build (benchServer), instead of one of its own. */
  baseUrl?: string
}

export async function runPixelBench(
  comparisons: readonly PixelComparison[] = ['canvas', 'published'],
  options: PixelBenchOptions = {},
): Promise<Record<string, number>> {
  const smoke = isSmoke(options)
  const windows = smoke ? PUBLISHED_WINDOWS.slice(-1) : PUBLISHED_WINDOWS
  const types: readonly BlockType[] = smoke ? ['text', 'image'] : BLOCK_TYPES
  // The page renderer (dist-page/) comes with the production build.
  if (comparisons.includes('published') && !options.baseUrl) ensureBuilt('production')
  // The canvas's frame count and probe are in the test build only.
  const server = await benchServer('test', 'pixel', options.baseUrl)
  const browser = await launchBrowser({ viewport: PIXEL_WINDOW, timeout: 60_000 })
  try {
    const email = `pixels-${Date.now()}@example.test`
    const response = await fetch(new URL('/api/register', server.url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Замер', email, password: PASSWORD }),
    })
    if (!response.ok) throw new Error(`register: ${response.status} ${await response.text()}`)
    const { access_token: token } = (await response.json()) as { access_token: string }
    const page = browser.page
    await page.goto(new URL('/pages/login', server.url).toString())
    await page.locator('input[name="email"]').fill(email)
    await page.locator('input[name="password"]').fill(PASSWORD)
    await page.getByRole('button', { name: 'Войти' }).click()
    await page.waitForURL((url) => !url.pathname.startsWith('/pages/login'))
    const out: Record<string, number> = {}
    if (comparisons.includes('published')) {
      // Blocks as placed and turned by 7°: the figure is the larger.
      const results = []
      for (const placement of ['whole', 'rotated'] as const) {
        const projectId = await pixelProject(server.url, token, placement)
        const placed = await comparePublishedPixels(
          page,
          server.url,
          token,
          projectId,
          undefined,
          windows,
          types,
        )
        for (const [type, pct] of largestByType(placed))
          out[`published_preview_mismatch_pct_${placement === 'whole' ? '' : 'rotated_'}${type}`] =
            pct
        results.push(...placed)
      }
      // A «Сторис» project's slides, one by one, in the phone's window.
      const stories = await compareStoriesPixels(
        page,
        server.url,
        token,
        await pixelProject(server.url, token, 'whole', 2),
        windows[windows.length - 1]!,
        undefined,
        types,
      )
      for (const r of stories)
        out[`published_preview_mismatch_pct_stories_${r.type}`] = r.mismatchPct
      results.push(...stories)
      out.published_preview_mismatch_pct = Math.max(...results.map((r) => r.mismatchPct))
    }
    if (!comparisons.includes('canvas')) return out
    for (const placement of ['whole', 'fractional'] as const) {
      const projectId = await pixelProject(server.url, token, placement)
      const results = await compareBlockPixels(page, server.url, projectId, undefined, types)
      const name =
        placement === 'whole'
          ? 'preview_canvas_mismatch_pct'
          : 'preview_canvas_mismatch_pct_fractional'
      for (const r of results) out[`${name}_${r.type}`] = r.mismatchPct
      out[`${name}_max`] = Math.max(...results.map((r) => r.mismatchPct))
    }
    return out
  } finally {
    await browser.close()
    await server.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await runPixelBench())
}
