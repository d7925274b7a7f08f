import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { inject } from 'vitest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BrowserSession } from './helpers/browser.ts'
import type { TestUser } from './helpers/editor.ts'
import { pixelSession } from './helpers/pixel-session.ts'
import { pixelProject } from './helpers/block-pixels.ts'
import {
  comparePublishedPixels,
  compareStoriesPixels,
  MAX_PUBLISHED_MISMATCH_PCT,
  PUBLISHED_WINDOWS,
  type PublishedPixels,
} from './helpers/published-pixels.ts'

const PHONE = PUBLISHED_WINDOWS[PUBLISHED_WINDOWS.length - 1]!

let browser: BrowserSession
let user: TestUser

beforeAll(async () => {
  const session = await pixelSession('published-pixels')
  browser = session.browser
  user = session.user
})

afterAll(async () => {
  await browser?.close()
})

/** Prints the figures and holds every type to the goal (docs/publishing.md). */
function expectWithinGoal(results: readonly PublishedPixels[], label: string) {
  console.table(
    results.map((r) => ({
      label,
      window: r.window,
      type: r.type,
      mismatch_pct: Number(r.mismatchPct.toFixed(2)),
      preview: `${r.preview.width.toFixed(1)}×${r.preview.height.toFixed(1)}`,
      published: `${r.published.width.toFixed(1)}×${r.published.height.toFixed(1)}`,
    })),
  )
  expect(results.map((r) => r.type)).toHaveLength(7)
  for (const r of results) {
    const what = `${r.type} (${label}) at ${r.window} px`
    expect(Math.abs(r.published.width - r.preview.width), `${what}: width`).toBeLessThan(0.01)
    expect(Math.abs(r.published.height - r.preview.height), `${what}: height`).toBeLessThan(0.01)
    expect(r.mismatchPct, `${what}: differing pixels, %`).toBeLessThanOrEqual(
      MAX_PUBLISHED_MISMATCH_PCT,
    )
  }
}

describe('the published page draws a block as the preview does', () => {
  // The phone's window, where visitors open the pages and the letters differ most; the benchmark
  // (`npm run bench published-pixels`) compares the desktop's and the tablet's too.
  it.each(['whole', 'rotated'] as const)(
    'every block type (%s), at the same width on a phone, differs in at most 1% of its pixels',
    async (placement) => {
      const projectId = await pixelProject(inject('baseUrl'), user.token, placement)
      // PIXEL_DIFF_DIR=<dir> keeps each type's published, preview and difference images.
      const dir = process.env.PIXEL_DIFF_DIR
      const results = await comparePublishedPixels(
        browser.page,
        inject('baseUrl'),
        user.token,
        projectId,
        dir
          ? (type, window, images) => {
              mkdirSync(dir, { recursive: true })
              for (const [name, png] of Object.entries(images))
                writeFileSync(
                  join(dir, `published-${placement}-${window}-${type}-${name}.png`),
                  png,
                )
            }
          : undefined,
        [PHONE],
      )
      expectWithinGoal(results, placement)
    },
    900_000,
  )

  it('every block type on a «Сторис» slide, on a phone, differs in at most 1% of its pixels', async () => {
    const projectId = await pixelProject(inject('baseUrl'), user.token, 'whole', 2)
    const results = await compareStoriesPixels(
      browser.page,
      inject('baseUrl'),
      user.token,
      projectId,
      PHONE,
    )
    expectWithinGoal(results, 'stories')
  }, 900_000)
})
