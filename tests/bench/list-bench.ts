/**
 * Record list figures in headless Chromium, in one run: time from rendering the specialists screen
 * to its first rows, and the longest frame while scrolling it, for 10,000 specialists against 100.
 * The page (tests/bench/list-page) is the real SpecialistsPage over a seeded IndexedDB mirror,
 * built by Vite for production and served by its preview server. Both lists scroll the same way (up
 * and down over the first 6,000 px), so they render the same number of new rows per frame and
 * the figures show what the list's size costs. Compare ratios, not milliseconds (2 cores, no GPU).
 * `BENCH_SMOKE=1` (or `{ smoke: true }`): the same sizes, 30 frames of scrolling (seconds).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build, preview } from 'vite'
import { launchBrowser } from '../e2e/helpers/browser.ts'
import { isSmoke, type BenchOptions } from './smoke.ts'

const root = join(import.meta.dirname, '../..')
const SIZES = [100, 10_000] as const
const SCROLL_FRAMES = 240
const SCROLL_STEP_PX = 300
const SCROLL_RANGE_PX = 6000
/** Frames at the start that include the first paint's leftovers. */
const SETTLE_FRAMES = 5

interface ListFigures {
  firstRowsMs: number
  longestFrameMs: number
  medianFrameMs: number
}

export async function runListBench(options: BenchOptions = {}): Promise<Record<string, number>> {
  const frames = isSmoke(options) ? 30 : SCROLL_FRAMES
  const outDir = await mkdtemp(join(tmpdir(), 'list-bench-'))
  const pageRoot = join(root, 'tests/bench/list-page')
  await build({
    configFile: join(root, 'vitest.config.ts'),
    root: pageRoot,
    logLevel: 'error',
    build: { outDir, emptyOutDir: true },
  })
  const server = await preview({
    configFile: join(root, 'vitest.config.ts'),
    root: pageRoot,
    logLevel: 'error',
    build: { outDir },
    preview: { port: 0, host: '127.0.0.1' },
  })
  const address = server.httpServer?.address()
  const port = typeof address === 'object' && address ? address.port : 4173
  const browser = await launchBrowser({ viewport: { width: 1180, height: 820 } })
  const out: Record<string, number> = {}
  try {
    // A warm-up load, so both sizes find the code in the browser's cache.
    await measure(browser.page, port, 100, frames)
    for (const n of SIZES) {
      const figures = await measure(browser.page, port, n, frames)
      console.log(
        `${n} specialists: first rows ${figures.firstRowsMs.toFixed(0)} ms, longest frame ` +
          `${figures.longestFrameMs.toFixed(1)} ms (median ${figures.medianFrameMs.toFixed(1)} ms)`,
      )
      out[`list_${n}_first_rows_ms`] = figures.firstRowsMs
      out[`list_${n}_longest_frame_ms`] = figures.longestFrameMs
      out[`list_${n}_median_frame_ms`] = figures.medianFrameMs
    }
    out.list_first_rows_ratio_10k_vs_100 =
      out.list_10000_first_rows_ms! / out.list_100_first_rows_ms!
    out.list_longest_frame_ratio_10k_vs_100 =
      out.list_10000_longest_frame_ms! / out.list_100_longest_frame_ms!
  } finally {
    await browser.close()
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()))
    await rm(outDir, { recursive: true, force: true })
  }
  return out
}

async function measure(
  page: Awaited<ReturnType<typeof launchBrowser>>['page'],
  port: number,
  n: number,
  scrollFrames: number,
): Promise<ListFigures> {
  await page.goto(`http://127.0.0.1:${port}/?n=${n}`)
  await page.waitForFunction(() => window.bench?.firstRows != null, null, { timeout: 120_000 })
  const firstRowsMs = await page.evaluate(() => window.bench.firstRows! - window.bench.rendering)
  // A string, not a function: tsx would wrap named functions in a helper the page does not have.
  const frames = (await page.evaluate(`new Promise((resolve) => {
    const deltas = []
    let last = performance.now()
    let i = 0
    const tick = (now) => {
      deltas.push(now - last)
      last = now
      if (i++ >= ${scrollFrames}) return resolve(deltas.slice(${SETTLE_FRAMES}))
      // A triangle wave over the first ${SCROLL_RANGE_PX} px: down, up, down, ...
      const travel = (i * ${SCROLL_STEP_PX}) % (2 * ${SCROLL_RANGE_PX})
      window.scrollTo(0, travel <= ${SCROLL_RANGE_PX} ? travel : 2 * ${SCROLL_RANGE_PX} - travel)
      requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
  })`)) as number[]
  const sorted = [...frames].sort((a, b) => a - b)
  return {
    firstRowsMs,
    longestFrameMs: sorted[sorted.length - 1] ?? 0,
    medianFrameMs: sorted[Math.floor(sorted.length / 2)] ?? 0,
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await runListBench())
}
