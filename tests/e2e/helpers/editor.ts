import { readFileSync } from 'node:fs'
import { inject } from 'vitest'
import type { Page } from 'playwright-core'
import { pngImage } from '../../support/png.ts'
import { appUrl } from './app.ts'
import type { CanvasBlockProbe } from '../../../src/features/editor/canvas/scene-host.ts'

/** Block type buttons of the editor's toolbar, in the order the toolbar shows them. */
export const BLOCK_BUTTONS = [
  'Текст',
  'Кнопка',
  'Изображение',
  'Видео',
  'Подарок',
  'Цена',
  'Запись',
] as const

export interface TestUser {
  name: string
  email: string
  password: string
  token: string
}

/** Registers a new user through the API: a fresh account with its own empty workspace. */
export async function registerUser(label: string): Promise<TestUser> {
  const email = `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`
  const input = { name: `Проверка ${label}`, email, password: 'Пароль-надёжный-123' }
  const response = await fetch(new URL('/api/register', inject('baseUrl')), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(input),
  })
  if (!response.ok) throw new Error(`register failed: ${response.status} ${await response.text()}`)
  const body = (await response.json()) as { access_token: string }
  return { ...input, token: body.access_token }
}

/** GET on the API as `user`, from the test process (never through the browser). */
export async function apiGet<T>(user: TestUser, path: string): Promise<T> {
  const response = await fetch(new URL(path, inject('baseUrl')), {
    headers: { Authorization: `Bearer ${user.token}` },
  })
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`)
  return (await response.json()) as T
}

/** POST on the API as `user`, from the test process (never through the browser). */
export async function apiPost<T>(user: TestUser, path: string, body: unknown): Promise<T> {
  const response = await fetch(new URL(path, inject('baseUrl')), {
    method: 'POST',
    headers: { Authorization: `Bearer ${user.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`)
  return (await response.json()) as T
}

/** A real RGB PNG of `width` × `height` with a diagonal gradient (a background to upload). */
export function makePng(width: number, height: number): Buffer {
  return pngImage(width, height, (x, y) => [
    Math.round((255 * x) / width),
    180,
    Math.round((255 * y) / height),
  ])
}

/** Creates a project from /projects and picks its type; resolves with its id on the editor page. */
export async function createProjectThroughUi(
  page: Page,
  name: string,
  type: 1 | 2,
): Promise<number> {
  await page.goto(appUrl('/projects'))
  await page.getByRole('button', { name: 'Новый проект' }).first().click()
  await page.getByLabel('Название нового проекта').fill(name)
  await page.getByRole('button', { name: 'Создать', exact: true }).click()
  await page.waitForURL((url) => /^\/project\/\d+\/type$/.test(url.pathname))
  await page.locator(`[data-testid="type-${type}"]`).click()
  await page.waitForURL((url) =>
    new RegExp(`^/projects/\\d+/edit/type-${type}$`).test(url.pathname),
  )
  return Number(new URL(page.url()).pathname.split('/')[2])
}

/** Uploads a background through the editor's file picker. */
export async function uploadBackground(page: Page, png: Buffer): Promise<void> {
  await page
    .locator('input[type="file"]')
    .first()
    .setInputFiles({ name: 'background.png', mimeType: 'image/png', buffer: png })
}

/** The toolbar button adding a block of the given label. */
export function addBlockButton(page: Page, label: string) {
  return page
    .getByRole('toolbar', { name: 'Добавить блок' })
    .getByRole('button', { name: label, exact: true })
}

/** The editor's layers list (blocks of the current background, front first). */
export function layerItems(page: Page) {
  return page.getByRole('list', { name: 'Слои' }).getByRole('listitem')
}

/** The blocks of a background in the browser's local mirror (IndexedDB `promo-builder`). */
export function mirrorBlocks(page: Page, bgId: number): Promise<Record<string, unknown>[]> {
  return page.evaluate(
    (bg) =>
      new Promise<Record<string, unknown>[]>((resolve, reject) => {
        const open = indexedDB.open('promo-builder')
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const db = open.result
          const read = db.transaction('blocks').objectStore('blocks').getAll()
          read.onsuccess = () => {
            db.close()
            resolve((read.result as Record<string, unknown>[]).filter((b) => b.bg_id === bg))
          }
          read.onerror = () => reject(read.error)
        }
      }),
    bgId,
  )
}

/** Mirror outbox entries still waiting. */
export function mirrorOutboxSize(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('promo-builder')
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const db = open.result
          const count = db.transaction('outbox').objectStore('outbox').count()
          count.onsuccess = () => {
            db.close()
            resolve(count.result)
          }
          count.onerror = () => reject(count.error)
        }
      }),
  )
}

/** What waits in the outbox, one line per entry (for a failure's message). */
export function describeOutbox(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('promo-builder')
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const db = open.result
          const all = db.transaction('outbox').objectStore('outbox').getAll()
          all.onsuccess = () => {
            db.close()
            const now = Date.now()
            resolve(
              (all.result as Record<string, unknown>[]).map((e) =>
                [
                  `#${String(e.seq)} ${String(e.table)}.${String(e.op)} ${String(e.ck)}`,
                  String(e.state),
                  e.sent ? 'sent' : 'not sent',
                  `attempts ${String(e.attempts)}`,
                  `next in ${Math.max(0, Number(e.nextAttemptAt) - now)} ms`,
                  e.code ? `code ${String(e.code)}` : '',
                  e.message ? `«${String(e.message)}»` : '',
                ]
                  .filter(Boolean)
                  .join(', '),
              ),
            )
          }
          all.onerror = () => reject(all.error)
        }
      }),
  )
}

/** Waits until every queued change reached the server; on time out, says what still waits. */
export async function outboxEmptied(page: Page, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while ((await mirrorOutboxSize(page)) > 0) {
    if (Date.now() > deadline) {
      const waiting = await describeOutbox(page)
      throw new Error(`the outbox did not empty in ${timeoutMs} ms:\n${waiting.join('\n')}`)
    }
    await page.waitForTimeout(100)
  }
}

/** A block as the open canvas draws it (`window.__promoEditorCanvas`, editor-canvas.tsx). */
export type DrawnBlock = CanvasBlockProbe

/** The blocks the canvas draws now ([] while no editor canvas is on screen). */
export function drawnBlocks(page: Page): Promise<DrawnBlock[]> {
  return page.evaluate(() => {
    const hook = (window as { __promoEditorCanvas?: { blocks(): DrawnBlock[] } })
      .__promoEditorCanvas
    return hook?.blocks() ?? []
  })
}

/** Presses at `from` and drags to `to` (page px) in small steps, as a finger or a mouse would. */
export async function dragOnCanvas(
  page: Page,
  from: { x: number; y: number },
  to: { x: number; y: number },
): Promise<void> {
  await page.mouse.move(from.x, from.y)
  await page.mouse.down()
  await page.mouse.move(to.x, to.y, { steps: 12 })
  await page.mouse.up()
}

/** A real VP8 WebM clip of about 3.5 KB (tests/fixtures/README.md). */
export function videoClip(): Buffer {
  return readFileSync(new URL('../../fixtures/clip.webm', import.meta.url))
}
