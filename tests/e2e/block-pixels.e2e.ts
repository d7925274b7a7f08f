import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { inject } from 'vitest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BrowserSession } from './helpers/browser.ts'
import type { TestUser } from './helpers/editor.ts'
import { pixelSession } from './helpers/pixel-session.ts'
import {
  compareBlockPixels,
  MAX_MISMATCH_PCT,
  pixelProject,
  type BlockPixels,
  type Placement,
} from './helpers/block-pixels.ts'

let browser: BrowserSession
let user: TestUser

beforeAll(async () => {
  const session = await pixelSession('pixels')
  browser = session.browser
  user = session.user
})

afterAll(async () => {
  await browser?.close()
})

/** Compares every block type placed so, prints the figures and checks them. */
async function expectAlike(placement: Placement): Promise<void> {
  const projectId = await pixelProject(inject('baseUrl'), user.token, placement)
  // PIXEL_DIFF_DIR=<dir> keeps each type's canvas, preview and difference images.
  const dir = process.env.PIXEL_DIFF_DIR
  const results: BlockPixels[] = await compareBlockPixels(
    browser.page,
    inject('baseUrl'),
    projectId,
    dir
      ? (type, images) => {
          mkdirSync(dir, { recursive: true })
          for (const [name, png] of Object.entries(images))
            writeFileSync(join(dir, `${placement}-${type}-${name}.png`), png)
        }
      : undefined,
  )
  console.table(
    results.map((r) => ({
      placement,
      type: r.type,
      mismatch_pct: Number(r.mismatchPct.toFixed(2)),
      canvas: `${r.canvas.width.toFixed(1)}×${r.canvas.height.toFixed(1)}`,
      preview: `${r.preview.width.toFixed(1)}×${r.preview.height.toFixed(1)}`,
    })),
  )
  expect(results.map((r) => r.type)).toHaveLength(7)
  for (const r of results) {
    expect(Math.abs(r.canvas.width - r.preview.width), `${r.type} width`).toBeLessThan(1)
    expect(Math.abs(r.canvas.height - r.preview.height), `${r.type} height`).toBeLessThan(1)
    expect(r.mismatchPct, `${r.type} differing pixels, %`).toBeLessThanOrEqual(MAX_MISMATCH_PCT)
  }
}

describe('the canvas and the preview draw a block alike', () => {
  it('every block type, centred on a whole pixel, is drawn at the same size and differs in at most 2% of its pixels', async () => {
    await expectAlike('whole')
  }, 360_000)

  it('every block type a fraction of a pixel off, as a drag leaves it, differs in at most 2% of its pixels', async () => {
    await expectAlike('fractional')
  }, 360_000)
})
