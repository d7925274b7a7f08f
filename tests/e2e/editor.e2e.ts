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
  apiPost,
  BLOCK_BUTTONS,
  createProjectThroughUi,
  dragOnCanvas,
  drawnBlocks,
  layerItems,
  makePng,
  mirrorBlocks,
  mirrorOutboxSize,
  outboxEmptied,
  registerUser,
  uploadBackground,
  videoClip,
  type DrawnBlock,
  type TestUser,
} from './helpers/editor.ts'
import { pngPixels } from '../support/png.ts'
import { textBlockBody } from '../support/text-block.ts'

// A fresh account per file: the journeys see only what they make, never the demo data.
let browser: BrowserSession
let page: Page
let user: TestUser

/** What the editor places on a background at 100% zoom, and where fit() puts it. */
const LANDING_WORLD_WIDTH = 1200
const STORY_WORLD_WIDTH = 360
const FIT_MARGIN = 40
/** The uploaded landing background: 16:9; the story slide: 9:16. */
const BG = { width: 320, height: 180 }
const SLIDE = { width: 90, height: 160 }
const ALL_TYPES = ['text', 'button', 'image', 'video', 'gift', 'price', 'subscribe']

type ServerBlock = Record<string, unknown> & { id: number; type: string; x: number; y: number }

/**
 * Where the editor puts the k-th block added to an empty background: the first in the middle, each
 * next one 8 units down and right of it, so none hides the one before (docs/editor.md).
 */
const placedAt = (type: string) => ALL_TYPES.indexOf(type) * 8
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

/** The canvas's blocks once every one of `count` has its server id (saved and reconciled). */
async function savedDrawnBlocks(count: number): Promise<DrawnBlock[]> {
  await expect
    .poll(
      async () => {
        const drawn = await drawnBlocks(page)
        return drawn.length === count && drawn.every((b) => b.id !== null && b.id > 0)
      },
      { timeout: 15_000 },
    )
    .toBe(true)
  return drawnBlocks(page)
}

/**
 * The journey's core check: the server's `get_items` holds, on the 200-unit basis, exactly where
 * the canvas draws each block; after a reload every block is drawn at the same place on the page
 * and at the same stored position. Resolves with the blocks as drawn after the reload.
 */
async function expectSamePlaceAfterReload(bgId: number, count: number): Promise<DrawnBlock[]> {
  const before = await savedDrawnBlocks(count)
  const server = await serverBlocks(bgId)
  expect(server).toHaveLength(count)
  for (const drawn of before) {
    const stored = server.find((b) => b.id === drawn.id)
    expect(stored, `${drawn.type} ${drawn.id} is on the server`).toBeDefined()
    // Stored precision: four decimals (src/domain/geometry.ts).
    expect(stored!.x, `${drawn.type} x`).toBeCloseTo(drawn.x, 4)
    expect(stored!.y, `${drawn.type} y`).toBeCloseTo(drawn.y, 4)
  }

  await page.reload()
  expect(await canvasRenderer()).toBe('webgl')
  const after = await savedDrawnBlocks(count)
  for (const was of before) {
    const now = after.find((b) => b.id === was.id)
    expect(now, `${was.type} ${was.id} is drawn after the reload`).toBeDefined()
    expect(Math.abs(now!.clientX - was.clientX), `${was.type} left/right`).toBeLessThan(0.5)
    expect(Math.abs(now!.clientY - was.clientY), `${was.type} up/down`).toBeLessThan(0.5)
    expect(now!.x).toBeCloseTo(was.x, 6)
    expect(now!.y).toBeCloseTo(was.y, 6)
  }
  return after
}

/** The zoom fit() chooses for a frame of `frame` world px in the canvas `box`. */
function fitZoom(
  box: { width: number; height: number },
  frame: { width: number; height: number },
  kind: 'landing' | 'stories',
): number {
  const across = (box.width - 2 * FIT_MARGIN) / frame.width
  return kind === 'landing'
    ? across
    : Math.min(across, (box.height - 2 * FIT_MARGIN) / frame.height)
}

describe('landing editor (type 1)', () => {
  let projectId = 0
  let bgId = 0

  it('builds a page with every block type and an uploaded video, drags one, reloads, and finds it where it was left, as the server holds it', async () => {
    projectId = await createProjectThroughUi(page, 'Акция на чистку зубов', 1)
    await page.getByText('Добавьте первую секцию').waitFor()
    await uploadBackground(page, makePng(BG.width, BG.height))
    expect(await canvasRenderer()).toBe('webgl')

    for (const label of BLOCK_BUTTONS) await addBlockButton(page, label).click()
    await expect.poll(() => layerItems(page).count()).toBe(BLOCK_BUTTONS.length)

    // The video block takes a file: kept on the device first, then uploaded, then its URL saved.
    await layerItems(page).filter({ hasText: 'Видео' }).getByRole('button').first().click()
    await page.locator('label', { hasText: /^Файл$/ }).click()
    await page
      .locator('input[type="file"][accept="video/mp4,video/webm"]')
      .setInputFiles({ name: 'clip.webm', mimeType: 'video/webm', buffer: videoClip() })
    await page.getByLabel('Загруженное видео').waitFor()

    // The first block sits in the middle of the section, each next one a step down and right; the
    // last one added is in front.
    const box = (await page.locator('[data-testid="editor-canvas"]').boundingBox())!
    const zoom = fitZoom(box, { width: LANDING_WORLD_WIDTH, height: 0 }, 'landing')
    const front = (await drawnBlocks(page)).find((b) => b.type === 'subscribe')!
    const start = placedAt('subscribe')
    for (const axis of [front.x, front.y]) expect(axis).toBeCloseTo(start, 6)
    const frameHeight = (LANDING_WORLD_WIDTH * BG.height) / BG.width
    const pxPerUnit = LANDING_WORLD_WIDTH / 200
    expect(front.clientX).toBeCloseTo(box.x + box.width / 2 + start * pxPerUnit * zoom, 0)
    expect(front.clientY).toBeCloseTo(
      box.y + FIT_MARGIN + (frameHeight / 2 + start * pxPerUnit) * zoom,
      0,
    )
    // 240 × 120 world px up and left: whole grid cells, so snapping keeps the distance.
    const from = { x: front.clientX, y: front.clientY }
    await dragOnCanvas(page, from, { x: from.x - 240 * zoom, y: from.y - 120 * zoom })

    await page.getByRole('button', { name: 'Сохранить', exact: true }).click()
    await expect.poll(() => backgroundsOf(projectId), { timeout: 15_000 }).toHaveLength(1)
    bgId = (await backgroundsOf(projectId))[0]!
    await expect
      .poll(async () => (await serverBlocks(bgId)).length, { timeout: 15_000 })
      .toBe(BLOCK_BUTTONS.length)
    // 240 world px of a 1200 px section = 40 units of the 200-unit basis, 120 px up = 20; the
    // grid snaps the box's edges (up to half a 20 px cell) and alignment guides may pull it up to
    // 6 screen px further, so the centre lands within that distance.
    const tolerance = (20 / 2 + 6 / zoom) * (200 / LANDING_WORLD_WIDTH)
    const draggedOff = async () => {
      const b = (await serverBlocks(bgId)).find((block) => block.type === 'subscribe')
      return b ? Math.max(Math.abs(b.x - (start - 40)), Math.abs(b.y - (start - 20))) : Infinity
    }
    await expect.poll(draggedOff, { timeout: 15_000 }).toBeLessThanOrEqual(tolerance)
    const videoSrc = async () =>
      String((await serverBlocks(bgId)).find((b) => b.type === 'video')?.video_src ?? '')
    await expect.poll(videoSrc, { timeout: 20_000 }).toMatch(/^\/uploads\/[0-9a-f]{32}\.webm$/)
    await outboxEmptied(page, 15_000)

    const blocks = await serverBlocks(bgId)
    expect(new Set(blocks.map((b) => b.type))).toEqual(new Set(ALL_TYPES))
    const dragged = blocks.find((b) => b.type === 'subscribe')!
    for (const other of blocks.filter((b) => b !== dragged))
      for (const axis of [other.x, other.y]) expect(axis).toBeCloseTo(placedAt(other.type), 6)

    // The server keeps the clip as sent and serves it as WebM, in ranges for the player.
    const url = await videoSrc()
    const clip = await fetch(appUrl(url))
    expect(clip.headers.get('Content-Type')).toBe('video/webm')
    expect(Buffer.from(await clip.arrayBuffer()).equals(videoClip())).toBe(true)
    const head = await fetch(appUrl(url), { headers: { Range: 'bytes=0-3' } })
    expect(head.status).toBe(206)
    expect([...new Uint8Array(await head.arrayBuffer())]).toEqual([0x1a, 0x45, 0xdf, 0xa3])

    const after = await expectSamePlaceAfterReload(bgId, BLOCK_BUTTONS.length)
    const moved = after.find((b) => b.type === 'subscribe')!
    expect(
      Math.max(Math.abs(moved.x - (start - 40)), Math.abs(moved.y - (start - 20))),
    ).toBeLessThanOrEqual(tolerance)

    // The preview plays the uploaded clip from the server.
    await page.getByRole('button', { name: 'Предпросмотр' }).click()
    const player = page.locator('[data-testid="landing-preview"] video')
    await player.waitFor()
    expect(await player.getAttribute('src')).toBe(url)
    await player.evaluate(async (video: HTMLVideoElement) => {
      video.muted = true
      await video.play()
    })
    await expect
      .poll(() => player.evaluate((video: HTMLVideoElement) => video.currentTime), {
        timeout: 10_000,
      })
      .toBeGreaterThan(0)
    await page.keyboard.press('Escape')
    await page.locator('[data-testid="landing-preview"]').waitFor({ state: 'detached' })
  }, 150_000)

  it('offline edits and a new video survive a reload and reach the server exactly once back online', async () => {
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
    const firstClip = String(
      (await serverBlocks(bgId)).find((b) => b.type === 'video')?.video_src ?? '',
    )
    expect(firstClip).toMatch(/^\/uploads\//)
    const videoFile = page.locator('input[type="file"][accept="video/mp4,video/webm"]')
    const waiting = page.getByText('Файл сохранён на устройстве и ждёт отправки на сервер.')
    const player = page.getByLabel('Загруженное видео')
    const mirrorVideoSrc = async () =>
      String((await mirrorBlocks(page, bgId)).find((b) => b.type === 'video')?.video_src ?? '')
    await goOffline(browser.context)
    try {
      await layerItems(page).filter({ hasText: 'Новый текст' }).getByRole('button').first().click()
      const textField = page.getByRole('textbox', { name: 'Текст', exact: true })
      await textField.fill('Скидка 20% до конца месяца')
      await textField.blur()
      await addBlockButton(page, 'Кнопка').click()
      await expect.poll(() => layerItems(page).count()).toBe(BLOCK_BUTTONS.length + 1)
      // Another clip for the video block: it waits in IndexedDB and plays from there meanwhile.
      await layerItems(page).filter({ hasText: 'Видео' }).getByRole('button').first().click()
      await videoFile.setInputFiles({
        name: 'clip-2.webm',
        mimeType: 'video/webm',
        buffer: videoClip(),
      })
      await waiting.waitFor()
      await expect.poll(() => player.getAttribute('src')).toMatch(/^blob:/)
      await expect.poll(mirrorVideoSrc, { timeout: 10_000 }).toMatch(/^local-file:\d+$/)
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
      // After the reload, still offline, the clip plays from the device.
      await layerItems(page).filter({ hasText: 'Видео' }).getByRole('button').first().click()
      await waiting.waitFor()
      await expect.poll(() => player.getAttribute('src')).toMatch(/^blob:/)
      await expect
        .poll(() => player.evaluate((video: HTMLVideoElement) => video.readyState))
        .toBeGreaterThanOrEqual(1)
    } finally {
      await goOnline(browser.context)
    }

    await page.getByRole('button', { name: 'Сохранить', exact: true }).click()
    await outboxEmptied(page, 20_000)
    const server = await serverBlocks(bgId)
    const local = await mirrorBlocks(page, bgId)
    expect(server).toHaveLength(BLOCK_BUTTONS.length + 1)
    expect(local).toHaveLength(server.length)
    expect(server.filter((b) => b.type === 'button')).toHaveLength(2)
    expect(server.find((b) => b.type === 'text')?.text).toBe('Скидка 20% до конца месяца')
    // The clip was uploaded once back online and the block took the server's URL.
    const clip = String(server.find((b) => b.type === 'video')?.video_src ?? '')
    expect(clip).toMatch(/^\/uploads\/[0-9a-f]{32}\.webm$/)
    expect(clip).not.toBe(firstClip)
    await expect.poll(() => player.getAttribute('src')).toBe(clip)
    await expect.poll(() => waiting.count(), { timeout: 10_000 }).toBe(0)
    for (const block of server) {
      const mine = local.find((b) => b.id === block.id)
      expect(mine, `block ${block.id} (${block.type}) is in the mirror`).toBeDefined()
      const { server: theirs, local: ours } = sharedFields(block, mine!)
      expect(ours).toEqual(theirs)
    }
  }, 120_000)
})

describe('a project made offline', () => {
  it('keeps its editor open, undo history and all, while the project gets its server id', async () => {
    await page.goto(appUrl('/projects'))
    await expectShell(page, 'Проекты')
    await goOffline(browser.context)
    try {
      await page.getByRole('button', { name: 'Новый проект' }).first().click()
      await page.getByLabel('Название нового проекта').fill('Сделан без сети')
      await page.getByRole('button', { name: 'Создать', exact: true }).click()
      await page.waitForURL((url) => /^\/project\/-\d+\/type$/.test(url.pathname))
      await page.locator('[data-testid="type-1"]').click()
      await page.waitForURL((url) => /^\/projects\/-\d+\/edit\/type-1$/.test(url.pathname))
      await uploadBackground(page, makePng(BG.width, BG.height))
      await addBlockButton(page, 'Текст').click()
      await addBlockButton(page, 'Кнопка').click()
      await expect.poll(() => layerItems(page).count()).toBe(2)
    } finally {
      await goOnline(browser.context)
    }
    await page.getByRole('button', { name: 'Сохранить', exact: true }).click()
    // The project's create replays: the address follows it to the server id…
    await page.waitForURL((url) => /^\/projects\/\d+\/edit\/type-1$/.test(url.pathname), {
      timeout: 30_000,
    })
    // …and it is the same editor: its history still holds the blocks it added.
    await page.getByRole('button', { name: 'Отменить', exact: true }).click()
    await expect.poll(() => layerItems(page).count()).toBe(1)
  }, 60_000)
})

describe('a block moved on two devices (docs/SYNC.md "Conflicts")', () => {
  it('along x here offline and along y there is one conflict of its place, shown in per cent and decided in the inspector', async () => {
    const projectId = await createProjectThroughUi(page, 'Место блока', 1)
    await uploadBackground(page, makePng(BG.width, BG.height))
    await addBlockButton(page, 'Текст').click()
    await expect.poll(() => layerItems(page).count()).toBe(1)
    await expect.poll(() => backgroundsOf(projectId), { timeout: 20_000 }).toHaveLength(1)
    const [bgId] = await backgroundsOf(projectId)
    await expect.poll(() => serverBlocks(bgId!), { timeout: 20_000 }).toHaveLength(1)
    await outboxEmptied(page, 20_000)
    const [block] = await serverBlocks(bgId!)
    await layerItems(page).first().getByRole('button').first().click()
    await goOffline(browser.context)
    try {
      // Here: moved to 30 % across, nothing else.
      const x = page.getByRole('textbox', { name: 'X', exact: true })
      await x.fill('30')
      await x.blur()
      await expect.poll(() => mirrorOutboxSize(page)).toBeGreaterThan(0)
      // There, meanwhile: a colleague moves it down.
      await apiPost(user, '/api/text/add', { id: block!.id, y: block!.y + 20 })
    } finally {
      await goOnline(browser.context)
    }
    const parked = page.getByTestId('editor-parked')
    await expect.poll(() => parked.textContent(), { timeout: 20_000 }).toBe('Конфликты: 1')
    // The colleague's place is kept whole meanwhile: never x from here and y from there.
    expect(await serverBlocks(bgId!)).toMatchObject([{ x: block!.x, y: block!.y + 20 }])

    // The inspector shows it above the block's fields, as one place in per cent.
    const notice = page.getByTestId('conflict-notice')
    const place = notice.locator('[data-field="place"]')
    expect(await place.getByTestId('conflict-mine').textContent()).toMatch(/^X 30 %, Y \d/)
    expect(await place.getByTestId('conflict-theirs').textContent()).toMatch(/^X 50 %, Y \d/)
    // The toolbar's «Конфликты: 1» opens the header's panel with the same choice.
    await parked.click()
    const entry = page.getByTestId('conflict-entry')
    await entry.waitFor()
    expect(await entry.locator('[data-field="place"]').count()).toBe(1)
    await page.getByRole('button', { name: 'Синхронизация: Конфликты: 1' }).click()
    await entry.waitFor({ state: 'hidden' })

    // «Оставить моё»: this device's place, both coordinates.
    await notice.getByRole('button', { name: 'Оставить моё' }).click()
    await outboxEmptied(page, 20_000)
    expect(await serverBlocks(bgId!)).toMatchObject([{ x: -40, y: block!.y }])
    await notice.waitFor({ state: 'detached' })
  }, 90_000)
})

describe('a subscribe block («Запись»)', () => {
  it('draws its specialist by name on the canvas after a reload, as the server, the inspector and the preview hold it', async () => {
    const [workspace] = await apiGet<{ id: number }[]>(user, '/api/workspace/list')
    const specialist = await apiPost<{ id: number; name: string }>(user, '/api/specialist/add', {
      workspace_id: workspace!.id,
      name: 'Анна Смирнова',
      position: 'Стоматолог',
      department_id: null,
      location_id: null,
      phone: '',
      email: '',
      photo_url: '',
      description: '',
      enabled: true,
    })
    const projectId = await createProjectThroughUi(page, 'Запись к стоматологу', 1)
    await page.getByText('Добавьте первую секцию').waitFor()
    await uploadBackground(page, makePng(BG.width, BG.height))
    expect(await canvasRenderer()).toBe('webgl')
    await addBlockButton(page, 'Запись').click()
    await layerItems(page).filter({ hasText: 'Запись' }).getByRole('button').first().click()
    const choice = page.getByRole('combobox', { name: 'Специалист', exact: true })
    await expect.poll(() => choice.locator('option').allTextContents()).toContain(specialist.name)
    await choice.selectOption({ label: specialist.name })
    const drawnTitle = async () =>
      (await drawnBlocks(page)).find((b) => b.type === 'subscribe')?.texts[0] ?? null
    await expect.poll(drawnTitle).toBe(specialist.name)

    await page.getByRole('button', { name: 'Сохранить', exact: true }).click()
    await expect.poll(() => backgroundsOf(projectId), { timeout: 15_000 }).toHaveLength(1)
    const subscribeBgId = (await backgroundsOf(projectId))[0]!
    await expect
      .poll(
        async () =>
          (await serverBlocks(subscribeBgId)).find((b) => b.type === 'subscribe')?.specialist_id,
        { timeout: 15_000 },
      )
      .toBe(specialist.id)
    await outboxEmptied(page, 15_000)

    await page.reload()
    expect(await canvasRenderer()).toBe('webgl')
    await savedDrawnBlocks(1)
    // The specialists come from the mirror a moment after the blocks, while the stage may still
    // be starting (a unit test pins that order: tests/unit/editor-canvas-init.test.tsx).
    await expect.poll(drawnTitle, { timeout: 10_000 }).toBe(specialist.name)
    await layerItems(page).filter({ hasText: 'Запись' }).getByRole('button').first().click()
    expect(await choice.inputValue()).toBe(String(specialist.id))
    await page.getByRole('button', { name: 'Предпросмотр' }).click()
    const preview = page.locator('[data-testid="landing-preview"]')
    await preview.getByText(specialist.name).waitFor()
    await page.keyboard.press('Escape')
    await preview.waitFor({ state: 'detached' })
  }, 90_000)
})

describe('edits made just before the page goes away', () => {
  it('a block added and another moved a moment before a reload are there after it, and reach the server', async () => {
    const projectId = await createProjectThroughUi(page, 'Перед перезагрузкой', 1)
    await page.getByText('Добавьте первую секцию').waitFor()
    await uploadBackground(page, makePng(BG.width, BG.height))
    expect(await canvasRenderer()).toBe('webgl')
    await addBlockButton(page, 'Текст').click()
    await page.getByRole('button', { name: 'Сохранить', exact: true }).click()
    await expect.poll(() => backgroundsOf(projectId), { timeout: 15_000 }).toHaveLength(1)
    const bgId = (await backgroundsOf(projectId))[0]!
    await expect.poll(async () => (await serverBlocks(bgId)).length, { timeout: 15_000 }).toBe(1)
    await outboxEmptied(page, 15_000)
    const [saved] = await savedDrawnBlocks(1)

    // Within the autosave's pause: the page is reloaded before the editor hands anything over.
    // The saved block is moved 30 px right from the keyboard (no hit on the canvas to miss).
    await layerItems(page).filter({ hasText: 'Текст' }).getByRole('button').first().click()
    // Each press is waited for on the canvas, so `moved` is where all three left it (a poll on the
    // first change alone could read the block between presses).
    const movedX = async () => (await drawnBlocks(page)).find((b) => b.id === saved!.id)!.x
    for (let i = 0, x = saved!.x; i < 3; i += 1) {
      await page.keyboard.press('Shift+ArrowRight')
      await expect.poll(movedX).toBeGreaterThan(x + 1e-6)
      x = await movedX()
    }
    const moved = (await drawnBlocks(page)).find((b) => b.id === saved!.id)!
    await addBlockButton(page, 'Кнопка').click()
    await expect.poll(async () => (await drawnBlocks(page)).length).toBe(2)
    await page.reload()

    expect(await canvasRenderer()).toBe('webgl')
    const after = await savedDrawnBlocks(2)
    expect(after.map((b) => b.type).sort()).toEqual(['button', 'text'])
    expect(after.find((b) => b.id === saved!.id)!.x).toBeCloseTo(moved.x, 6)
    await outboxEmptied(page, 15_000)
    const server = await serverBlocks(bgId)
    expect(server.map((b) => b.type).sort()).toEqual(['button', 'text'])
    expect(server.find((b) => b.id === saved!.id)!.x).toBeCloseTo(moved.x, 4)
  }, 90_000)
})

/** The test build's canvas hook (`CanvasTestHook`, editor-canvas.tsx), as far as these use it. */
interface CanvasHook {
  __promoEditorCanvas: {
    limitedFrames(): number
    drawWhole(): void
    settled(): boolean
    panPictures(): { copied: number; strips: number; kept: number }
    lookAt(key: string, zoom: number): void
  }
}

/**
 * The canvas's own pixels (the page's notices may lie over it), read once nothing waits to be
 * drawn (a paragraph is drawn again for a new place once the view has rested), kept in the page
 * as `name`; with `against`, how many of them differ from that one's (by more than `tolerance`
 * levels in a channel).
 */
const canvasPixels = async (name: string, against?: string, tolerance = 0) => {
  await expect
    .poll(() =>
      page.evaluate(() => (window as unknown as CanvasHook).__promoEditorCanvas.settled()),
    )
    .toBe(true)
  return page.evaluate(
    async ([name, against, tolerance]) => {
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
      const gl = document.querySelector<HTMLCanvasElement>('[data-testid="editor-canvas"] canvas')!
      const copy = document.createElement('canvas')
      copy.width = gl.width
      copy.height = gl.height
      const ctx = copy.getContext('2d')!
      ctx.drawImage(gl, 0, 0)
      const kept = window as unknown as Record<string, Uint32Array>
      const pixels = new Uint32Array(ctx.getImageData(0, 0, copy.width, copy.height).data.buffer)
      kept[name] = pixels
      if (!against) return 0
      const other = kept[against]!
      if (other.length !== pixels.length) return -1
      let unlike = 0
      for (let i = 0; i < pixels.length; i += 1) {
        const a = pixels[i]!
        const b = other[i]!
        if (a === b) continue
        for (let shift = 0; shift < 32; shift += 8)
          if (Math.abs(((a >>> shift) & 255) - ((b >>> shift) & 255)) > tolerance) {
            unlike += 1
            break
          }
      }
      return unlike
    },
    [name, against, tolerance] as const,
  )
}

describe('dragging a block (docs/editor.md «Drawing»)', () => {
  /** A screenshot of `clip` once two in a row, a frame apart, are the same. */
  const settledShot = async (clip: { x: number; y: number; width: number; height: number }) => {
    let last = await page.screenshot({ clip })
    for (;;) {
      await page.evaluate(
        () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
      )
      const next = await page.screenshot({ clip })
      if (next.equals(last)) return next
      last = next
    }
  }
  // The layer lives in a frame of its own over the canvas (docs/editor.md «Drawing»).
  const layer = () =>
    page.frameLocator('[data-testid="drag-layer-frame"]').locator('[data-testid="drag-layer"]')
  const layers = () => layer().count()

  it('shows the moving block on its own layer as the canvas draws it, and leaves a block under another to the canvas', async () => {
    await createProjectThroughUi(page, 'Перетаскивание', 1)
    await page.getByText('Добавьте первую секцию').waitFor()
    await uploadBackground(page, makePng(BG.width, BG.height))
    expect(await canvasRenderer()).toBe('webgl')
    await addBlockButton(page, 'Кнопка').click()
    await expect.poll(async () => (await drawnBlocks(page)).length).toBe(1)
    // Without the grid the block comes back exactly where it was (the guides hold it there too).
    await page.getByLabel('Сетка', { exact: true }).uncheck()
    // Read once the canvas reports it drawn (its hook may be read between two renders).
    let lower: Awaited<ReturnType<typeof drawnBlocks>>[number] | undefined
    await expect
      .poll(async () => {
        ;[lower] = await drawnBlocks(page)
        return lower !== undefined
      })
      .toBe(true)
    // Left alone, the editor asks the browser for no animation frames: Pixi's own frame loop
    // (its renderers' housekeeping) ran 60 a second for nothing (docs/editor.md «Drawing»).
    await settledShot({ x: 0, y: 0, width: 10, height: 10 })
    const idleFrameRequests = await page.evaluate(async () => {
      const asked = window.requestAnimationFrame
      let calls = 0
      window.requestAnimationFrame = (cb) => {
        calls += 1
        return asked.call(window, cb)
      }
      await new Promise((resolve) => setTimeout(resolve, 1000))
      window.requestAnimationFrame = asked
      return calls
    })
    expect(idleFrameRequests).toBeLessThan(10)
    const clip = {
      x: Math.floor(lower!.clientX - lower!.width / 2 - 40),
      y: Math.floor(lower!.clientY - lower!.height / 2 - 50),
      width: Math.ceil(lower!.width + 80),
      height: Math.ceil(lower!.height + 100),
    }
    // Pressed: selected and drawn by the canvas.
    await page.mouse.move(lower!.clientX, lower!.clientY)
    await page.mouse.down()
    const still = await pngPixels(await settledShot(clip))
    // Moved: the block and its selection are on the drag layer; back where it started, the layer
    // shows them as the canvas did. Besides the guides (red lines) only antialiased edge pixels
    // differ (the layer's texture is multisampled apart from the screen): 1.5% of this box.
    // docs/editor.md «Drawing».
    const layerBox = async () => {
      await page.evaluate(
        () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
      )
      return (await layer().boundingBox())!
    }
    await page.mouse.move(lower!.clientX + 30, lower!.clientY + 20, { steps: 5 })
    expect(await layers()).toBe(1)
    const layerAway = await layerBox()
    await page.mouse.move(lower!.clientX, lower!.clientY, { steps: 5 })
    expect(await layers()).toBe(1)
    // The layer follows the pointer (moved by the compositor, docs/editor.md «Drawing»).
    const back = await layerBox()
    // (The guides may snap it a few pixels along y, as they did here: 15.)
    expect(layerAway.x - back.x).toBeCloseTo(30, 0)
    expect(layerAway.y - back.y).toBeGreaterThan(10)
    const moved = await pngPixels(await settledShot(clip))
    expect(moved.length).toBe(still.length)
    let differ = 0
    let notGuide = 0
    for (let i = 0; i < still.length; i += 4) {
      if (still[i] === moved[i] && still[i + 1] === moved[i + 1] && still[i + 2] === moved[i + 2])
        continue
      differ += 1
      // A guide's red (#f03e3e), over the block or the section.
      const [r, g, b] = [moved[i]!, moved[i + 1]!, moved[i + 2]!]
      if (!(r - Math.max(g, b) > 60)) notGuide += 1
    }
    expect(differ).toBeGreaterThan(0)
    // The guides show (about 330 red pixels here), and little else differs.
    expect(differ - notGuide).toBeGreaterThan(50)
    expect(notGuide / (still.length / 4)).toBeLessThan(0.03)
    await page.mouse.up()
    // The layer goes with the frame that draws the block in the canvas again.
    await expect.poll(layers).toBe(0)

    // A second block lands over the first: dragging the first under it stays with the canvas,
    // which draws the one over it on top (the layer would show it above everything).
    await addBlockButton(page, 'Кнопка').click()
    await expect.poll(async () => (await drawnBlocks(page)).length).toBe(2)
    const under = (await drawnBlocks(page)).find((b) => b.key === lower!.key)!
    const grab = { x: under.clientX - under.width / 2 + 4, y: under.clientY - under.height / 2 + 3 }
    await page.mouse.move(grab.x, grab.y)
    await page.mouse.down()
    await page.mouse.move(grab.x + 30, grab.y + 20, { steps: 5 })
    expect(await layers()).toBe(0)
    await page.mouse.up()
    // Dropped: the canvas shows it where it was let go (once the release is committed).
    const movedBy = async () =>
      (await drawnBlocks(page)).find((b) => b.key === lower!.key)!.clientX - under.clientX
    await expect.poll(movedBy).toBeGreaterThan(20)

    // The upper block moved away on the layer: the place it left shows what is under it (the
    // canvas draws that place again without it, the lower block's edge included), as the canvas
    // draws it once the block is dropped.
    const upper = (await drawnBlocks(page)).find((b) => b.key !== lower!.key)!
    const around = {
      x: Math.floor(upper.clientX - upper.width / 2 - 40),
      y: Math.floor(upper.clientY - upper.height / 2 - 50),
      width: Math.ceil(upper.width + 80),
      height: Math.ceil(upper.height + 100),
    }
    await page.mouse.move(upper.clientX, upper.clientY)
    await page.mouse.down()
    await page.mouse.move(upper.clientX + 30, upper.clientY + 20, { steps: 5 })
    expect(await layers()).toBe(1)
    const away = await pngPixels(await settledShot(around))
    const limitedFrames = () =>
      page.evaluate(() => (window as unknown as CanvasHook).__promoEditorCanvas.limitedFrames())
    const limitedBefore = await limitedFrames()
    await page.mouse.up()
    await expect.poll(layers).toBe(0)
    const dropped = await pngPixels(await settledShot(around))
    let wrong = 0
    for (let i = 0; i < away.length; i += 4) {
      if (
        away[i] === dropped[i] &&
        away[i + 1] === dropped[i + 1] &&
        away[i + 2] === dropped[i + 2]
      )
        continue
      const [r, g, b] = [away[i]!, away[i + 1]!, away[i + 2]!]
      if (!(r - Math.max(g, b) > 60)) wrong += 1
    }
    expect(wrong / (away.length / 4)).toBeLessThan(0.03)

    // The frame after the release drew only where the block was and where it is (the picture is
    // kept between frames), and the canvas shows what a whole frame draws, pixel for pixel.
    expect(await limitedFrames()).toBeGreaterThan(limitedBefore)
    /** How many of the canvas's pixels differ from a whole frame drawn right after. */
    const unlikeWhole = async () => {
      await canvasPixels('__shownPixels')
      await page.evaluate(() => (window as unknown as CanvasHook).__promoEditorCanvas.drawWhole())
      return canvasPixels('__wholePixels', '__shownPixels')
    }
    expect(await unlikeWhole()).toBe(0)

    // Clearing the selection (a click beside the section) draws where it was, the same way.
    const selectedBefore = await limitedFrames()
    const canvasBox = (await page.locator('[data-testid="editor-canvas"]').boundingBox())!
    await page.mouse.click(canvasBox.x + 10, canvasBox.y + 10)
    await expect.poll(limitedFrames).toBeGreaterThan(selectedBefore)
    expect(await unlikeWhole()).toBe(0)

    // So do a selected block's own changes: selected again and nudged with the arrows.
    const upperNow = (await drawnBlocks(page)).find((b) => b.key === upper.key)!
    await page.mouse.click(upperNow.clientX, upperNow.clientY)
    // The selection's own frame drawn first.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    )
    const nudgedBefore = await limitedFrames()

    // Nudged until one of its frames is a limited one (a frame may also hold a change of
    // something else and be drawn whole).
    await expect
      .poll(async () => {
        await page.keyboard.press('Shift+ArrowRight')
        return limitedFrames()
      })
      .toBeGreaterThan(nudgedBefore)
    const upperX = async () => (await drawnBlocks(page)).find((b) => b.key === upper.key)!.clientX
    // At least one step of 10 px at the view's zoom (under 0.5 here when the panels are open).
    await expect.poll(upperX).toBeGreaterThan(upperNow.clientX + 2)
    expect(await unlikeWhole()).toBe(0)
  }, 90_000)
})

describe('panning the view (docs/editor.md «A picture begun from the canvas»)', () => {
  it('begins the picture from the canvas, draws the strips the pan reaches, and ends showing what the live scene draws', async () => {
    const projectId = await createProjectThroughUi(page, 'Панорама', 1)
    await page.getByText('Добавьте первую секцию').waitFor()
    await uploadBackground(page, makePng(BG.width, BG.height))
    expect(await canvasRenderer()).toBe('webgl')
    // Each block lands a step down and right of the one before: close in on the first, the others
    // lie past the screen's right and bottom edges, where the pan reveals them.
    for (let i = 0; i < 4; i += 1) await addBlockButton(page, 'Кнопка').click()
    await expect.poll(async () => (await drawnBlocks(page)).length).toBe(4)
    // A selected block: its outline lies over the world on the canvas, not in the picture.
    const [block] = await drawnBlocks(page)
    // Close in: the section's picture fills the canvas and whatever the pan reveals, so a strip
    // drawn at the wrong place shows.
    await page.evaluate(
      (key) => (window as unknown as CanvasHook).__promoEditorCanvas.lookAt(key, 3),
      block!.key,
    )
    await canvasPixels('__closedIn')
    // Selected just before the pan: its outline lies over the world on the canvas, and the world
    // under it is drawn again into the picture.
    const [closedIn] = await drawnBlocks(page)
    await page.mouse.click(closedIn!.clientX, closedIn!.clientY)
    await canvasPixels('__beforePan')
    const pictures = () =>
      page.evaluate(() => (window as unknown as CanvasHook).__promoEditorCanvas.panPictures())
    const before = await pictures()

    // The middle button pans the view right and down, then left past where it began: the
    // picture's margin is reached on the left, the top and the right, never at the bottom.
    const box = (await page.locator('[data-testid="editor-canvas"]').boundingBox())!
    const from = { x: box.x + box.width / 2, y: box.y + box.height / 2 }
    await page.mouse.move(from.x, from.y)
    await page.mouse.down({ button: 'middle' })
    await page.mouse.move(from.x + 50, from.y + 30, { steps: 5 })
    await page.mouse.move(from.x - 50, from.y + 20, { steps: 10 })
    const during = await pictures()
    expect(during.copied).toBe(before.copied + 1)
    expect(during.strips).toBeGreaterThanOrEqual(before.strips + 3)
    await canvasPixels('__panned')

    // Let go: the canvas already shows the world at this view, so the picture goes without a
    // frame (docs/editor.md «The end of a pan»), and the pixels stay as they are. (On a busy
    // machine the frame the selection left to draw its own place may come only now: drawn from
    // the live scene, it differs from a strip by one level where it reaches into one.)
    await page.mouse.up({ button: 'middle' })
    await expect.poll(async () => (await pictures()).kept).toBe(before.kept + 1)
    expect(await canvasPixels('__ended', '__panned', 1), 'pixels the end of the pan changed').toBe(
      0,
    )
    // The live scene drawn whole at the same view: the strips are drawn into the picture with its
    // margin added to the view, which may move a colour sampled from the background's picture by
    // one level, no more.
    await page.evaluate(() => (window as unknown as CanvasHook).__promoEditorCanvas.drawWhole())
    expect(await canvasPixels('__live', '__ended', 1), 'the ended pan against the live scene').toBe(
      0,
    )
    // (And the view did move: the same comparison with the canvas before the pan fails.)
    expect(await canvasPixels('__live', '__beforePan')).toBeGreaterThan(1000)

    // A colleague moves the selected block while the view is panned: the picture shows it where it
    // was, so the pan ends with the live scene drawn again.
    await page.getByRole('button', { name: 'Сохранить', exact: true }).click()
    await outboxEmptied(page, 20_000)
    const [bgId] = await backgroundsOf(projectId)
    const idOf = async () =>
      (await drawnBlocks(page)).find((b) => b.key === closedIn!.key)?.id ?? null
    await expect.poll(async () => ((await idOf()) ?? 0) > 0, { timeout: 20_000 }).toBe(true)
    const id = (await idOf())!
    const onServerNow = async () => (await serverBlocks(bgId!)).find((b) => b.id === id)
    await expect.poll(onServerNow, { timeout: 20_000 }).toBeDefined()
    const onServer = (await onServerNow())!
    await page.mouse.down({ button: 'middle' })
    try {
      await page.mouse.move(from.x - 30, from.y + 10, { steps: 5 })
      await apiPost(user, '/api/button/add', { id, x: onServer.x + 3 })
      await expect
        .poll(async () => (await drawnBlocks(page)).find((b) => b.id === id)?.x, {
          timeout: 20_000,
        })
        .toBeCloseTo(onServer.x + 3, 3)
      await page.mouse.move(from.x - 40, from.y + 10, { steps: 3 })
    } finally {
      // A failure here must not leave the button held for the journeys after this one.
      await page.mouse.up({ button: 'middle' })
    }
    await canvasPixels('__endedAfterChange')
    expect((await pictures()).kept).toBe(before.kept + 1)
    await page.evaluate(() => (window as unknown as CanvasHook).__promoEditorCanvas.drawWhole())
    expect(
      await canvasPixels('__liveAfterChange', '__endedAfterChange', 1),
      'the pan ended after a change against the live scene',
    ).toBe(0)
  }, 90_000)
})

describe('stories editor (type 2)', () => {
  it('takes a slide and every block type, drags one, reloads, and finds it where it was left, as the server holds it', async () => {
    const projectId = await createProjectThroughUi(page, 'Сторис к открытию', 2)
    await page.getByText('Добавьте первый слайд').waitFor()
    await uploadBackground(page, makePng(SLIDE.width, SLIDE.height))
    expect(await canvasRenderer()).toBe('webgl')
    for (const label of BLOCK_BUTTONS) await addBlockButton(page, label).click()
    await expect.poll(() => layerItems(page).count()).toBe(BLOCK_BUTTONS.length)

    // The slide is fitted whole; 80 × 120 world px are whole grid cells.
    const box = (await page.locator('[data-testid="editor-canvas"]').boundingBox())!
    const frame = {
      width: STORY_WORLD_WIDTH,
      height: (STORY_WORLD_WIDTH * SLIDE.height) / SLIDE.width,
    }
    const zoom = fitZoom(box, frame, 'stories')
    const front = (await drawnBlocks(page)).find((b) => b.type === 'subscribe')!
    const start = placedAt('subscribe')
    for (const axis of [front.x, front.y]) expect(axis).toBeCloseTo(start, 6)
    const pxPerUnit = STORY_WORLD_WIDTH / 200
    expect(front.clientX).toBeCloseTo(box.x + box.width / 2 + start * pxPerUnit * zoom, 0)
    expect(front.clientY).toBeCloseTo(box.y + box.height / 2 + start * pxPerUnit * zoom, 0)
    const from = { x: front.clientX, y: front.clientY }
    await dragOnCanvas(page, from, { x: from.x - 80 * zoom, y: from.y - 120 * zoom })

    await page.getByRole('button', { name: 'Сохранить', exact: true }).click()
    await expect.poll(() => backgroundsOf(projectId), { timeout: 15_000 }).toHaveLength(1)
    const [bgId] = await backgroundsOf(projectId)
    await expect
      .poll(async () => (await serverBlocks(bgId!)).length, { timeout: 15_000 })
      .toBe(BLOCK_BUTTONS.length)
    // 80 world px of a 360 px slide = 44.44 units, 120 px = 66.67; grid and guides as above.
    const unitsPerPx = 200 / STORY_WORLD_WIDTH
    const expected = { x: start - 80 * unitsPerPx, y: start - 120 * unitsPerPx }
    const tolerance = (20 / 2 + 6 / zoom) * unitsPerPx
    const draggedOff = async () => {
      const b = (await serverBlocks(bgId!)).find((block) => block.type === 'subscribe')
      return b ? Math.max(Math.abs(b.x - expected.x), Math.abs(b.y - expected.y)) : Infinity
    }
    await expect.poll(draggedOff, { timeout: 15_000 }).toBeLessThanOrEqual(tolerance)
    await outboxEmptied(page, 15_000)
    const blocks = await serverBlocks(bgId!)
    expect(new Set(blocks.map((b) => b.type))).toEqual(new Set(ALL_TYPES))
    for (const other of blocks.filter((b) => b.type !== 'subscribe'))
      for (const axis of [other.x, other.y]) expect(axis).toBeCloseTo(placedAt(other.type), 6)

    const after = await expectSamePlaceAfterReload(bgId!, BLOCK_BUTTONS.length)
    const moved = after.find((b) => b.type === 'subscribe')!
    expect(Math.max(Math.abs(moved.x - expected.x), Math.abs(moved.y - expected.y))).toBeLessThan(
      tolerance,
    )
    await page.goto(appUrl('/projects'))
    await expectShell(page, 'Проекты')
  }, 120_000)
})

describe('a story slide of another shape (docs/editor.md)', () => {
  interface StoredBackground {
    id: number
    image_url: string
    width: number
    height: number
  }

  /** The stored file's type, pixel size and the colours at the given pixels (RGBA). */
  function storedPicture(url: string, points: [number, number][]) {
    return page.evaluate(
      async ({ src, at }) => {
        const response = await fetch(src)
        const bitmap = await createImageBitmap(await response.blob())
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height)
        const ctx = canvas.getContext('2d')!
        ctx.drawImage(bitmap, 0, 0)
        return {
          type: response.headers.get('content-type'),
          width: bitmap.width,
          height: bitmap.height,
          pixels: at.map(([x, y]) => Array.from(ctx.getImageData(x, y, 1, 1).data)),
        }
      },
      { src: url, at: points },
    )
  }

  async function storedBackgrounds(projectId: number): Promise<StoredBackground[]> {
    const project = await apiGet<{ backgrounds: StoredBackground[] }>(
      user,
      `/api/project/get?project_id=${projectId}`,
    )
    return project.backgrounds
  }

  it('asks about a 16:9 picture, crops it where the person dragged it, and the server stores a 9:16 slide', async () => {
    const projectId = await createProjectThroughUi(page, 'Сторис с широкой картинкой', 2)
    await page.getByText('Добавьте первый слайд').waitFor()
    // 320 × 180: red grows from 0 at the left edge to 255 at the right one (makePng).
    await uploadBackground(page, makePng(320, 180))
    const dialog = page.getByRole('dialog', { name: 'Слайд должен быть 9:16' })
    await dialog.getByText('другие пропорции (320 × 180)').waitFor()
    // The 9:16 window is 101 × 180 picture px and shows 320 px of height: 16/9 preview px a pixel.
    const frame = dialog.getByTestId('story-fit-crop')
    const box = (await frame.boundingBox())!
    expect(box.height).toBeCloseTo(320, 0)
    expect(box.width).toBeCloseTo((101 * 320) / 180, 0)
    // Dragging the picture 100 px to the right shows what lies 56.25 picture px to the left of
    // the centred window (x 110): x 53 of the 219 px the window can move.
    const start = { x: box.x + box.width / 2, y: box.y + box.height / 2 }
    await page.mouse.move(start.x, start.y)
    await page.mouse.down()
    await page.mouse.move(start.x + 50, start.y, { steps: 3 })
    await page.mouse.move(start.x + 100, start.y, { steps: 3 })
    await page.mouse.up()
    await dialog.getByRole('button', { name: 'Добавить слайд' }).click()
    await dialog.waitFor({ state: 'detached' })

    await expect.poll(() => backgroundsOf(projectId), { timeout: 15_000 }).toHaveLength(1)
    await outboxEmptied(page, 15_000)
    const [bg] = await storedBackgrounds(projectId)
    expect({ width: bg!.width, height: bg!.height }).toEqual({ width: 101, height: 180 })
    // The stored file itself is that 9:16 crop, at the picture's own resolution, from x 53.
    const stored = await storedPicture(bg!.image_url, [
      [0, 0],
      [100, 0],
    ])
    expect(stored.type).toBe('image/png')
    expect({ width: stored.width, height: stored.height }).toEqual({ width: 101, height: 180 })
    const redAt = (x: number) => Math.round((255 * x) / 320)
    const [left, right] = stored.pixels
    expect(Math.abs(left![0]! - redAt(53))).toBeLessThanOrEqual(3)
    expect(Math.abs(right![0]! - redAt(53 + 100))).toBeLessThanOrEqual(3)
    expect(left![1]).toBe(180)
    await page.goto(appUrl('/projects'))
    await expectShell(page, 'Проекты')
  }, 90_000)

  it('fits a 16:9 picture with white margins offline, shows the slide at once, and sends it back online', async () => {
    const projectId = await createProjectThroughUi(page, 'Сторис с полями', 2)
    await page.getByText('Добавьте первый слайд').waitFor()
    await goOffline(browser.context)
    try {
      await uploadBackground(page, makePng(320, 180))
      const dialog = page.getByRole('dialog', { name: 'Слайд должен быть 9:16' })
      await dialog.getByText('Вписать с полями').click()
      await dialog.getByLabel('Цвет полей').fill('#ffffff')
      await dialog.getByRole('button', { name: 'Добавить слайд' }).click()
      await dialog.waitFor({ state: 'detached' })
      // The slide is in the strip while the file waits on the device.
      await page.getByRole('list', { name: 'Слайды' }).getByRole('listitem').first().waitFor()
      expect(await mirrorOutboxSize(page)).toBeGreaterThan(0)
    } finally {
      await goOnline(browser.context)
    }
    await expect.poll(() => backgroundsOf(projectId), { timeout: 20_000 }).toHaveLength(1)
    await outboxEmptied(page, 20_000)
    const [bg] = await storedBackgrounds(projectId)
    // 320 wide keeps the picture's resolution: 320 × 569, the picture from y 195 to 374.
    expect({ width: bg!.width, height: bg!.height }).toEqual({ width: 320, height: 569 })
    const stored = await storedPicture(bg!.image_url, [
      [0, 0],
      [319, 568],
      [0, 195],
      [319, 374],
    ])
    expect({ width: stored.width, height: stored.height }).toEqual({ width: 320, height: 569 })
    const [top, bottom, pictureStart, pictureEnd] = stored.pixels
    expect(top).toEqual([255, 255, 255, 255])
    expect(bottom).toEqual([255, 255, 255, 255])
    expect(pictureStart![1]).toBe(180)
    expect(pictureEnd![1]).toBe(180)
    await page.goto(appUrl('/projects'))
    await expectShell(page, 'Проекты')
  }, 90_000)
})

describe('on a tablet in portrait (800 × 1200)', () => {
  /** Boxes of the visible controls inside `selector`, as the page lays them out. */
  function controlBoxes(selector: string) {
    return page.evaluate((sel) => {
      const root = document.querySelector(sel)
      if (!root) return []
      return Array.from(root.querySelectorAll('button, a[href], input, select, [role="button"]'))
        .map((el) => el.getBoundingClientRect())
        .filter((r) => r.width > 0 && r.height > 0)
        .map((r) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom }))
    }, selector)
  }
  type Box = { left: number; right: number; top: number; bottom: number }
  const overlap = (a: Box, b: Box) =>
    Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1

  it('the header and the editor toolbar fit the screen, no control under another', async () => {
    await page.setViewportSize({ width: 800, height: 1200 })
    try {
      await createProjectThroughUi(page, 'Портретный экран', 1)
      await page.getByTestId('editor-toolbar').waitFor()
      await page
        .getByRole('button', { name: /Всё сохранено|Ждут отправки|Сохраняется|Нет сети|Отклонено/ })
        .waitFor()
      for (const selector of ['header', '[data-testid="editor-toolbar"]']) {
        const boxes = await controlBoxes(selector)
        expect(boxes.length, selector).toBeGreaterThan(3)
        for (const [i, box] of boxes.entries()) {
          expect(box.left, `${selector} control ${i}`).toBeGreaterThanOrEqual(0)
          expect(box.right, `${selector} control ${i}`).toBeLessThanOrEqual(800)
          for (const other of boxes.slice(i + 1))
            expect(overlap(box, other), `${selector} control ${i} overlaps another`).toBe(false)
        }
      }
      // The toolbar keeps its height whatever the status says, at a tablet's widths upright and
      // across: a rewrap would move the canvas under a finger.
      const toolbarHeight = () =>
        page.getByTestId('editor-toolbar').evaluate((el) => el.getBoundingClientRect().height)
      const statusText = () => page.getByTestId('editor-status').textContent()
      for (const width of [768, 800, 834, 1024, 1180]) {
        await page.setViewportSize({ width, height: 1000 })
        await expect.poll(statusText, { timeout: 15_000 }).toMatch(/Всё сохранено/)
        const online = await toolbarHeight()
        await goOffline(browser.context)
        try {
          await expect.poll(statusText, { timeout: 15_000 }).toMatch(/Нет сети/)
          expect(await toolbarHeight(), `toolbar at ${width} px`).toBe(online)
        } finally {
          await goOnline(browser.context)
        }
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 })
    }
  }, 60_000)

  it('the side panels start collapsed, open with their toggle, and the canvas fits the width it has', async () => {
    const shots = process.env.EDITOR_SCREENSHOT_DIR
    const canvas = page.locator('[data-testid="editor-canvas"]')
    const zoomLabel = page.getByLabel('Масштаб', { exact: true })
    const percent = async () => Number((await zoomLabel.textContent())!.replace('%', ''))
    const fitted = async () => {
      const box = (await canvas.boundingBox())!
      return Math.round(fitZoom(box, { width: LANDING_WORLD_WIDTH, height: 0 }, 'landing') * 100)
    }
    const layersToggle = page.getByRole('button', { name: 'Панель секций и слоёв' })
    const inspectorToggle = page.getByRole('button', { name: 'Панель свойств' })
    await page.setViewportSize({ width: 800, height: 1280 })
    try {
      await createProjectThroughUi(page, 'Панели в портрете', 1)
      await page.getByText('Добавьте первую секцию').waitFor()
      await uploadBackground(page, makePng(BG.width, BG.height))
      await canvas.waitFor()
      await addBlockButton(page, 'Текст').click()
      for (const toggle of [layersToggle, inspectorToggle]) {
        expect(await toggle.getAttribute('aria-expanded')).toBe('false')
        const size = (await toggle.boundingBox())!
        expect(Math.min(size.width, size.height)).toBeGreaterThanOrEqual(44)
      }
      // Both panels collapsed: the canvas has all but two 56 px strips of the width.
      const narrow = (await canvas.boundingBox())!.width
      expect(narrow).toBeGreaterThan(800 - 2 * 56 - 60)
      await expect.poll(percent).toBe(await fitted())
      if (shots) await page.screenshot({ path: `${shots}/editor-800x1280-collapsed.png` })

      await layersToggle.click()
      expect(await layersToggle.getAttribute('aria-expanded')).toBe('true')
      await expect.poll(() => layerItems(page).count()).toBe(1)
      const opened = (await canvas.boundingBox())!.width
      expect(opened).toBeLessThan(narrow - 150)
      // The canvas fitted its new width at once (Pixi itself follows only the window's size).
      await expect.poll(percent).toBe(await fitted())
      if (shots) await page.screenshot({ path: `${shots}/editor-800x1280-layers.png` })

      // Remembered on the device: after a reload the layers panel is open, the inspector is not.
      await page.reload()
      await canvas.waitFor()
      expect(await layersToggle.getAttribute('aria-expanded')).toBe('true')
      expect(await inspectorToggle.getAttribute('aria-expanded')).toBe('false')
      await layersToggle.click()
      expect(await layersToggle.getAttribute('aria-expanded')).toBe('false')

      // Landscape has its own choice: both panels open by default, the canvas fitted between them.
      await page.setViewportSize({ width: 1280, height: 800 })
      await expect.poll(() => inspectorToggle.getAttribute('aria-expanded')).toBe('true')
      expect(await layersToggle.getAttribute('aria-expanded')).toBe('true')
      await expect.poll(percent).toBe(await fitted())
      if (shots) await page.screenshot({ path: `${shots}/editor-1280x800.png` })
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 })
    }
  }, 90_000)
})

describe('the layers list', () => {
  it('a layer dragged by its grip lands where it is dropped, and one undo puts it back', async () => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await createProjectThroughUi(page, 'Порядок слоёв', 1)
    await page.getByText('Добавьте первую секцию').waitFor()
    await uploadBackground(page, makePng(BG.width, BG.height))
    for (const label of ['Текст', 'Кнопка', 'Изображение'])
      await addBlockButton(page, label).click()
    await expect.poll(() => layerItems(page).count()).toBe(3)
    const order = async () =>
      (await layerItems(page).allTextContents()).map((text) =>
        /Изображение/.test(text) ? 'image' : /Кнопка/.test(text) ? 'button' : 'text',
      )
    // Front first: the last one added is on top.
    expect(await order()).toEqual(['image', 'button', 'text'])
    const grip = layerItems(page)
      .first()
      .getByRole('img', { name: /^Перетащить слой/ })
    const from = (await grip.boundingBox())!
    const last = (await layerItems(page).last().boundingBox())!
    expect(Math.min(from.width, from.height)).toBeGreaterThanOrEqual(44)
    expect(await grip.evaluate((el) => getComputedStyle(el).touchAction)).toBe('none')
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2)
    await page.mouse.down()
    await page.mouse.move(from.x + from.width / 2, last.y + last.height - 5, { steps: 8 })
    await page.getByTestId('layer-drop-line').waitFor()
    await page.mouse.up()
    await expect.poll(order).toEqual(['button', 'text', 'image'])
    await page.getByRole('button', { name: 'Отменить', exact: true }).click()
    await expect.poll(order).toEqual(['image', 'button', 'text'])
  }, 60_000)
  it('of a background with hundreds of blocks draws the rows in view, scrolls to the last, and takes a row far down by its grip', async () => {
    await page.setViewportSize({ width: 1280, height: 800 })
    const projectId = await createProjectThroughUi(page, 'Много слоёв', 1)
    await page.getByText('Добавьте первую секцию').waitFor()
    await uploadBackground(page, makePng(BG.width, BG.height))
    await expect.poll(() => backgroundsOf(projectId), { timeout: 15_000 }).toHaveLength(1)
    const [bgId] = await backgroundsOf(projectId)
    const total = 300
    for (let from = 1; from <= total; from += 50)
      await Promise.all(
        Array.from({ length: Math.min(50, total - from + 1) }, (_, k) =>
          apiPost(user, '/api/text/add', textBlockBody(bgId!, from + k)),
        ),
      )
    await page.reload()
    const list = page.getByRole('list', { name: 'Слои' })
    // Front first: the block added last leads the list, which knows how long it is.
    const first = layerItems(page).first()
    await expect.poll(() => first.textContent(), { timeout: 15_000 }).toContain(`Блок ${total}`)
    expect(await first.getAttribute('aria-setsize')).toBe(String(total))
    const drawn = await layerItems(page).count()
    expect(drawn).toBeGreaterThan(5)
    expect(drawn).toBeLessThan(60)
    // Scrolled to its end, the list shows its last row, the block at the back, in its place.
    await list.evaluate((el) => el.parentElement!.scrollTo({ top: el.scrollHeight }))
    const back = layerItems(page).filter({ hasText: /^Блок 1$/ })
    await back.waitFor()
    expect(await back.getAttribute('aria-posinset')).toBe(String(total))
    expect(await back.isVisible()).toBe(true)
    expect(await layerItems(page).count()).toBeLessThan(60)
    // Selecting it there selects the block on the canvas too.
    await back.getByRole('button').first().click()
    await expect
      .poll(() => back.getByRole('button').first().getAttribute('aria-pressed'))
      .toBe('true')

    // A row dragged by its grip to the list's bottom edge scrolls the list far past the rows drawn
    // at first, and lands there: the grip holding the pointer stays in the page all the while.
    const scroller = () => list.evaluate((el) => el.parentElement!.scrollTop)
    await list.evaluate((el) => el.parentElement!.scrollTo({ top: 0 }))
    await expect.poll(scroller).toBe(0)
    const grip = page.getByRole('img', { name: `Перетащить слой «Блок ${total}»` })
    const from = (await grip.boundingBox())!
    const box = await list.evaluate((el) => {
      const r = el.parentElement!.getBoundingClientRect()
      return { bottom: r.bottom, middle: r.left + r.width / 2 }
    })
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2)
    await page.mouse.down()
    // Over the rows' names, not their grips: only the grip that took the pointer follows it.
    await page.mouse.move(box.middle, box.bottom - 4, { steps: 5 })
    // 40 rows down: far past the 8 drawn beyond the view's edge.
    await expect.poll(scroller, { timeout: 20_000 }).toBeGreaterThan(40 * 46)
    await page.mouse.up()
    const moved = layerItems(page).filter({ hasText: new RegExp(`^Блок ${total}$`) })
    await expect
      .poll(async () => Number(await moved.getAttribute('aria-posinset')))
      .toBeGreaterThan(40)
    expect(await page.getByTestId('layer-drop-line').count()).toBe(0)
  }, 90_000)

  it('raises no uncaught error while backgrounds are uploaded one after another, in either editor', async () => {
    // A picture's texture destroyed while a background still showed it stopped the canvas's frames
    // with «Cannot read properties of null (reading 'alphaMode')» (canvas/textures.ts).
    const errors: string[] = []
    const onError = (error: Error) => errors.push(error.message)
    page.on('pageerror', onError)
    try {
      await createProjectThroughUi(page, 'Фоны подряд', 1)
      await uploadBackground(page, makePng(320, 180))
      await addBlockButton(page, 'Текст').click()
      await expect.poll(() => layerItems(page).count()).toBe(1)
      await uploadBackground(page, makePng(640, 360))
      await uploadBackground(page, makePng(640, 1138))
      await outboxEmptied(page, 30_000)
      await createProjectThroughUi(page, 'Слайды подряд', 2)
      await uploadBackground(page, makePng(360, 640))
      await uploadBackground(page, makePng(360, 640))
      await outboxEmptied(page, 30_000)
    } finally {
      page.off('pageerror', onError)
    }
    expect(errors).toEqual([])
  }, 90_000)
})
