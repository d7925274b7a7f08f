import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  appUrl,
  expectShell,
  goOffline,
  goOnline,
  signIn,
  waitForServiceWorker,
} from './helpers/app.ts'
import { launchBrowser, type BrowserSession } from './helpers/browser.ts'
import {
  addBlockButton,
  apiGet,
  BLOCK_BUTTONS,
  createProjectThroughUi,
  layerItems,
  makePng,
  mirrorBlocks,
  mirrorOutboxSize,
  registerUser,
  uploadBackground,
  type TestUser,
} from './helpers/editor.ts'

// A fresh account per file: the journeys see only what they make, never the demo data.
let browser: BrowserSession
let page: Page
let user: TestUser

/** What the editor places on a landing section at 100% zoom, and where fit() puts it. */
const LANDING_WORLD_WIDTH = 1200
const FIT_MARGIN = 40
/** The uploaded landing background: 16:9. */
const BG = { width: 320, height: 180 }

type ServerBlock = Record<string, unknown> & { id: number; type: string; x: number; y: number }
interface ServerProject {
  backgrounds: { id: number }[]
}

beforeAll(async () => {
  user = await registerUser('editor')
  browser = await launchBrowser()
  page = browser.page
  await signIn(page, user)
  await expectShell(page, 'Проекты')
  await waitForServiceWorker(page)
})

afterAll(async () => {
  await browser?.close()
})

async function backgroundsOf(projectId: number): Promise<number[]> {
  const project = await apiGet<ServerProject>(user, `/api/project/get?project_id=${projectId}`)
  return project.backgrounds.map((bg) => bg.id)
}

function serverBlocks(bgId: number): Promise<ServerBlock[]> {
  return apiGet<ServerBlock[]>(user, `/api/project/get_items?bg_id=${bgId}`)
}

/** Waits for the Pixi stage and returns the renderer it runs. */
async function canvasRenderer(): Promise<string> {
  const canvas = page.locator('[data-testid="editor-canvas"][data-renderer]')
  await canvas.waitFor()
  return (await canvas.getAttribute('data-renderer')) ?? ''
}

/** The font files the service worker has cached (runtime cache, never the precache). */
function cachedFonts(): Promise<string[]> {
  return page.evaluate(async () => {
    const cache = await caches.open('fonts')
    return (await cache.keys()).map((r) => new URL(r.url).pathname)
  })
}

/** Weights of the Roboto faces the document has loaded. */
function loadedRobotoWeights(): Promise<string[]> {
  return page.evaluate(() => {
    const weights: string[] = []
    document.fonts.forEach((f) => {
      if (f.family.replace(/"/g, '') === 'Roboto' && f.status === 'loaded') weights.push(f.weight)
    })
    return weights
  })
}

/** Fields both sides hold, for comparing a server block with the local one. */
function sharedFields(server: ServerBlock, local: Record<string, unknown>) {
  const keys = Object.keys(server).filter((key) => key in local && key !== 'updated_at')
  return {
    server: Object.fromEntries(keys.map((k) => [k, server[k]])),
    local: Object.fromEntries(keys.map((k) => [k, local[k]])),
  }
}

describe('landing editor (type 1)', () => {
  let projectId = 0
  let bgId = 0

  it('builds a page with every block type, drags one, and the server holds it', async () => {
    projectId = await createProjectThroughUi(page, 'Акция на чистку зубов', 1)
    await page.getByText('Добавьте первую секцию').waitFor()
    await uploadBackground(page, makePng(BG.width, BG.height))
    expect(await canvasRenderer()).toBe('webgl')

    for (const label of BLOCK_BUTTONS) await addBlockButton(page, label).click()
    await expect.poll(() => layerItems(page).count()).toBe(BLOCK_BUTTONS.length)

    // Every new block sits in the middle of the section; the last one added is in front.
    const box = (await page.locator('[data-testid="editor-canvas"]').boundingBox())!
    const zoom = (box.width - 2 * FIT_MARGIN) / LANDING_WORLD_WIDTH
    const frameHeight = (LANDING_WORLD_WIDTH * BG.height) / BG.width
    const from = { x: box.x + box.width / 2, y: box.y + FIT_MARGIN + (frameHeight / 2) * zoom }
    // 240 × 120 world px: whole grid cells, so snapping keeps the distance.
    await page.mouse.move(from.x, from.y)
    await page.mouse.down()
    await page.mouse.move(from.x + 240 * zoom, from.y + 120 * zoom, { steps: 12 })
    await page.mouse.up()

    await page.getByRole('button', { name: 'Сохранить', exact: true }).click()
    await expect.poll(() => backgroundsOf(projectId), { timeout: 15_000 }).toHaveLength(1)
    bgId = (await backgroundsOf(projectId))[0]!
    await expect
      .poll(async () => (await serverBlocks(bgId)).length, { timeout: 15_000 })
      .toBe(BLOCK_BUTTONS.length)
    // 240 world px of a 1200 px section = 40 units of the 200-unit basis, 120 px down = 20; the
    // grid snaps the box's edges (up to half a 20 px cell) and alignment guides may pull it up to
    // 6 screen px further, so the centre lands within that distance.
    const tolerance = (20 / 2 + 6 / zoom) * (200 / LANDING_WORLD_WIDTH)
    const draggedOff = async () => {
      const b = (await serverBlocks(bgId)).find((block) => block.type === 'subscribe')
      return b ? Math.max(Math.abs(b.x - 40), Math.abs(b.y - 20)) : Infinity
    }
    await expect.poll(draggedOff, { timeout: 15_000 }).toBeLessThanOrEqual(tolerance)
    const blocks = await serverBlocks(bgId)
    expect(new Set(blocks.map((b) => b.type))).toEqual(
      new Set(['text', 'button', 'image', 'video', 'gift', 'price', 'subscribe']),
    )
    const dragged = blocks.find((b) => b.type === 'subscribe')!
    for (const other of blocks.filter((b) => b !== dragged))
      expect([other.x, other.y]).toEqual([0, 0])
  })

  it('offline edits survive a reload and reach the server exactly once back online', async () => {
    expect(bgId).toBeGreaterThan(0)
    // Text and cards use Roboto: the editor has loaded its files (Cyrillic and Latin, regular and
    // bold) and the service worker cached them as they passed; none of them is precached.
    await expect
      .poll(async () => new Set(await loadedRobotoWeights()), { timeout: 15_000 })
      .toEqual(new Set(['400', '700']))
    await expect
      .poll(async () => (await cachedFonts()).filter((p) => /\/roboto-/.test(p)).length, {
        timeout: 15_000,
      })
      .toBe(4)
    await goOffline(browser.context)
    try {
      await layerItems(page).filter({ hasText: 'Новый текст' }).getByRole('button').first().click()
      const textField = page.getByRole('textbox', { name: 'Текст', exact: true })
      await textField.fill('Скидка 20% до конца месяца')
      await textField.blur()
      await addBlockButton(page, 'Кнопка').click()
      await expect.poll(() => layerItems(page).count()).toBe(BLOCK_BUTTONS.length + 1)
      // The edits reach the mirror (autosave) before the page goes away.
      await expect
        .poll(async () => (await mirrorBlocks(page, bgId)).length, { timeout: 10_000 })
        .toBe(BLOCK_BUTTONS.length + 1)
      await expect
        .poll(async () =>
          (await mirrorBlocks(page, bgId)).some((b) => b.text === 'Скидка 20% до конца месяца'),
        )
        .toBe(true)
      expect(await serverBlocks(bgId)).toHaveLength(BLOCK_BUTTONS.length)

      await page.reload()
      expect(await canvasRenderer()).toBe('webgl')
      // Offline, the fonts come from the service worker's cache.
      await expect
        .poll(async () => new Set(await loadedRobotoWeights()), { timeout: 15_000 })
        .toEqual(new Set(['400', '700']))
      await expect.poll(() => layerItems(page).count()).toBe(BLOCK_BUTTONS.length + 1)
      await layerItems(page)
        .filter({ hasText: 'Скидка 20% до конца месяца' })
        .getByRole('button')
        .first()
        .click()
      await expect
        .poll(() => page.getByRole('textbox', { name: 'Текст', exact: true }).inputValue())
        .toBe('Скидка 20% до конца месяца')
    } finally {
      await goOnline(browser.context)
    }

    await page.getByRole('button', { name: 'Сохранить', exact: true }).click()
    await expect.poll(() => mirrorOutboxSize(page), { timeout: 20_000 }).toBe(0)
    const server = await serverBlocks(bgId)
    const local = await mirrorBlocks(page, bgId)
    expect(server).toHaveLength(BLOCK_BUTTONS.length + 1)
    expect(local).toHaveLength(server.length)
    expect(server.filter((b) => b.type === 'button')).toHaveLength(2)
    expect(server.find((b) => b.type === 'text')?.text).toBe('Скидка 20% до конца месяца')
    for (const block of server) {
      const mine = local.find((b) => b.id === block.id)
      expect(mine, `block ${block.id} (${block.type}) is in the mirror`).toBeDefined()
      const { server: theirs, local: ours } = sharedFields(block, mine!)
      expect(ours).toEqual(theirs)
    }
  })
})

describe('stories editor (type 2)', () => {
  it('opens, takes a slide and a block, and saves them', async () => {
    const projectId = await createProjectThroughUi(page, 'Сторис к открытию', 2)
    await page.getByText('Добавьте первый слайд').waitFor()
    await uploadBackground(page, makePng(90, 160))
    expect(await canvasRenderer()).toBe('webgl')
    await addBlockButton(page, 'Цена').click()
    await page.getByRole('button', { name: 'Сохранить', exact: true }).click()
    await expect.poll(() => backgroundsOf(projectId), { timeout: 15_000 }).toHaveLength(1)
    const [bgId] = await backgroundsOf(projectId)
    await expect
      .poll(async () => (await serverBlocks(bgId!)).map((b) => b.type), { timeout: 15_000 })
      .toEqual(['price'])
    await page.goto(appUrl('/projects'))
    await expectShell(page, 'Проекты')
  })
})
