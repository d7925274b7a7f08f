import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  appUrl,
  expectShell,
  goOffline,
  goOnline,
  signIn,
  waitForServiceWorker,
} from './helpers/app.ts'
import {
  launchBrowser,
  launchVisitorBrowser,
  phoneContext,
  type BrowserSession,
} from './helpers/browser.ts'
import {
  addBlockButton,
  apiGet,
  apiPost,
  createProjectThroughUi,
  layerItems,
  makePng,
  mirrorOutboxSize,
  outboxEmptied,
  registerUser,
  uploadBackground,
  type TestUser,
} from './helpers/editor.ts'

/**
 * Publishing (docs/screens.md "Publishing", docs/SYNC.md "Publishing"): an editor publishes from
 * the editor's toolbar and the page opens on a phone with no sign-in; a publish pressed offline
 * goes once the network is back, after the edit made before it, and the page shows that edit.
 */

let browser: BrowserSession
let page: Page
let user: TestUser
/** A second browser, a visitor's phone: 390×844, touch, nothing of the editor's. */
let phone: Browser

beforeAll(async () => {
  // Another business already has a page under the address the project's name reads as.
  const other = await registerUser('publish-other')
  const [space] = await apiGet<{ id: number }[]>(other, '/api/workspace/list')
  const taken = await apiPost<{ id: number }>(other, '/api/project/add', {
    workspace_id: space!.id,
    name: 'Весенняя акция',
  })
  await apiPost(other, '/api/project/publish', { project_id: taken.id })
  user = await registerUser('publish')
  browser = await launchBrowser()
  page = browser.page
  await signIn(page, user)
  await expectShell(page, 'Проекты')
  await waitForServiceWorker(page)
  phone = await launchVisitorBrowser()
})

afterAll(async () => {
  await phone?.close()
  await browser?.close()
})

/** The public page as a visitor's phone opens it (a fresh context every time). */
async function openOnPhone(url: string): Promise<{ status: number; text: string; path: string }> {
  const context = await phoneContext(phone, { deviceScaleFactor: 3 })
  try {
    const visitor = await context.newPage()
    const response = await visitor.goto(url)
    return {
      status: response?.status() ?? 0,
      text: await visitor.locator('body').innerText(),
      path: new URL(visitor.url()).pathname,
    }
  } finally {
    await context.close()
  }
}

/** The page as the server serves it now, from the test process. */
async function served(url: string): Promise<string> {
  const response = await fetch(url)
  return response.ok ? response.text() : `${response.status}`
}

async function setText(value: string) {
  await layerItems(page).first().getByRole('button').first().click()
  const field = page.getByRole('textbox', { name: 'Текст', exact: true })
  await field.fill(value)
  await field.blur()
}

const publishButton = () =>
  page.getByTestId('editor-toolbar').getByRole('button', { name: 'Опубликовать', exact: true })
const dialog = () => page.getByRole('dialog', { name: 'Публикация страницы' })

describe('publishing', () => {
  let url = ''

  it('an editor publishes from the editor; the page opens on a phone with no sign-in', async () => {
    await createProjectThroughUi(page, 'Весенняя акция', 1)
    await uploadBackground(page, makePng(320, 180))
    await addBlockButton(page, 'Текст').click()
    await expect.poll(() => layerItems(page).count()).toBe(1)
    await setText('Весна: скидка 25%')
    await expect
      .poll(() => page.getByTestId('editor-toolbar').getByText('Не опубликован').count())
      .toBe(1)

    await publishButton().click()
    const field = dialog().getByRole('textbox', { name: 'Адрес страницы' })
    await expect.poll(() => field.inputValue()).toBe('vesennyaya-akciya')
    await dialog().getByRole('button', { name: 'Опубликовать', exact: true }).click()
    // Sent: nothing waits, and the dialog shows the server's address, the name's with a suffix
    // (nobody chose it, and another page holds it).
    await outboxEmptied(page, 20_000)
    const link = dialog().getByTestId('page-url')
    await link.waitFor()
    url = (await link.getAttribute('href'))!
    const path = new URL(url).pathname
    expect(path).toMatch(/^\/p\/vesennyaya-akciya-[a-z0-9]+$/)
    await expect.poll(() => dialog().getByTestId('publish-state').textContent()).toBe('Опубликован')
    await dialog().getByRole('img', { name: 'QR-код адреса страницы' }).waitFor()

    const visit = await openOnPhone(url)
    expect(visit.status).toBe(200)
    expect(visit.path).toBe(path)
    expect(visit.text).toContain('Весна: скидка 25%')
    await page.keyboard.press('Escape')
    await dialog().waitFor({ state: 'detached' })
  })

  it('a publish pressed offline goes once online, after the edit before it: the page shows it', async () => {
    expect(url).not.toBe('')
    await goOffline(browser.context)
    try {
      await setText('Только офлайн: скидка 40%')
      // The edit marks the page changed at once (docs/SYNC.md "Publishing").
      await expect
        .poll(() =>
          page.getByTestId('editor-toolbar').getByText('Есть неопубликованные изменения').count(),
        )
        .toBe(1)
      await publishButton().click()
      await dialog().getByRole('button', { name: 'Опубликовать изменения' }).click()
      await expect
        .poll(() => dialog().getByTestId('publish-progress').textContent())
        .toBe('Опубликуется, когда появится связь')
      expect(await mirrorOutboxSize(page)).toBeGreaterThan(0)
      expect(await served(url)).toContain('Весна: скидка 25%')
      expect(await served(url)).not.toContain('Только офлайн: скидка 40%')
    } finally {
      await goOnline(browser.context)
    }
    await outboxEmptied(page, 30_000)
    await expect
      .poll(() => dialog().getByTestId('publish-state').textContent(), { timeout: 15_000 })
      .toBe('Опубликован')
    const visit = await openOnPhone(url)
    expect(visit.text).toContain('Только офлайн: скидка 40%')
    expect(visit.text).not.toContain('Весна: скидка 25%')

    // The projects list says the same.
    await page.keyboard.press('Escape')
    await page.goto(appUrl('/projects'))
    const row = page.getByRole('listitem').filter({ hasText: 'Весенняя акция' })
    await expect.poll(() => row.getByText('Опубликован', { exact: true }).count()).toBe(1)
  })
})
