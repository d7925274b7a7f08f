import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appUrl, demoAccount, resetBrowserState, signIn } from './helpers/app.ts'
import { seriousAccessibilityProblems } from './helpers/axe.ts'
import { launchBrowser, type BrowserSession } from './helpers/browser.ts'
import {
  addBlockButton,
  BLOCK_BUTTONS,
  createProjectThroughUi,
  layerItems,
  makePng,
  uploadBackground,
} from './helpers/editor.ts'
import { signInFreshUser } from './helpers/user.ts'

/**
 * Every screen passes axe-core's WCAG 2.2 AA checks with no serious or critical finding: contrast,
 * names that match what is shown, labels, landmarks, focusable controls. Screens are checked once
 * their content is drawn (a heading or the list), in a landscape and a portrait tablet.
 */
let browser: BrowserSession
let page: Page

beforeAll(async () => {
  browser = await launchBrowser()
  page = browser.page
})
afterAll(async () => {
  await browser?.close()
})

async function expectAccessible(label: string) {
  const problems = await seriousAccessibilityProblems(page)
  expect(problems, `${label}:\n${JSON.stringify(problems, null, 2)}`).toEqual([])
}

async function visit(path: string, ready: (page: Page) => Promise<unknown>) {
  await page.goto(appUrl(path))
  await ready(page)
  await expectAccessible(path)
}

const heading = (name: string | RegExp) => (p: Page) =>
  p.getByRole('heading', { level: 1, name }).waitFor()

/** Signs in as the admin and checks every list and every new record's form. */
async function visitEveryScreen(): Promise<void> {
  await resetBrowserState(page)
  await signIn(page, demoAccount('admin'))
  await page.getByRole('heading', { level: 1, name: 'Проекты' }).waitFor()
  const list = (name: string) => (p: Page) =>
    p.getByRole('list', { name }).getByRole('listitem').first().waitFor()
  await visit('/projects', list('Проекты'))
  await visit('/department', list('Отделения'))
  await visit('/department/add', heading('Новое отделение'))
  await visit('/locations', list('Локации'))
  await visit('/locations/add', heading('Новая локация'))
  await visit('/specialist', list('Специалисты'))
  await visit('/specialist/add', heading('Новый специалист'))
  await visit('/integrations', heading('Интеграции'))
  await visit('/integrations/amo', heading(/amoCRM/))
  await visit('/integrations/add?kind=bitrix', heading(/Bitrix24/))
  await visit('/analytics', heading('Аналитика'))
  await visit('/appeal', heading('Обращения'))
}

describe('accessibility of every screen', () => {
  it('signed out: sign-in, registration, password recovery and reset', async () => {
    await resetBrowserState(page)
    await visit('/pages/login', heading('Вход'))
    await visit('/pages/register', heading('Регистрация'))
    await visit('/pages/forgot-password', heading('Восстановление пароля'))
    await visit('/pages/reset-password?token=abc', heading('Новый пароль'))
    await visit('/no-such-page', (p) => p.getByRole('heading', { level: 1 }).first().waitFor())
  })

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 800, height: 1280 },
  ]) {
    it(`signed in, ${viewport.width}×${viewport.height}: lists, forms, dialogs and menus`, async () => {
      await page.setViewportSize(viewport)
      await visitEveryScreen()

      // A record's form, its delete confirmation, the user menu and the workspaces dialog.
      await page.goto(appUrl('/department'))
      await page
        .getByRole('list', { name: 'Отделения' })
        .getByRole('listitem')
        .first()
        .getByRole('button')
        .first()
        .click()
      await page.getByRole('button', { name: 'Удалить', exact: true }).waitFor()
      await expectAccessible('a department form')
      await page.getByRole('button', { name: 'Удалить', exact: true }).click()
      await page.getByRole('dialog').waitFor()
      await expectAccessible('the delete confirmation')
      await page.keyboard.press('Escape')
      await page.getByRole('button', { name: /меню пользователя/i }).click()
      await page.getByRole('menuitem', { name: 'Выйти' }).waitFor()
      await expectAccessible('the user menu')
      await page.keyboard.press('Escape')
      await page.getByRole('button', { name: 'Управлять пространствами' }).click()
      await page.getByRole('dialog', { name: 'Рабочие пространства' }).waitFor()
      await expectAccessible('the workspaces dialog')
      await page.keyboard.press('Escape')
    })
  }

  it('signed in on a phone, 390×844: the header keeps whole targets on every list and form', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    await visitEveryScreen()
  })

  it('the editor with a background and every block type, and the project type choice', async () => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await signInFreshUser(page)
    await page.goto(appUrl('/projects'))
    await page.getByRole('button', { name: 'Новый проект' }).first().waitFor()
    await expectAccessible('an empty projects list')
    await createProjectThroughUi(page, 'Доступность', 1)
    await page.getByText('Добавьте первую секцию').waitFor()
    await expectAccessible('an empty editor')
    await uploadBackground(page, makePng(400, 300))
    for (const label of BLOCK_BUTTONS) await addBlockButton(page, label).click()
    await expect.poll(() => layerItems(page).count()).toBe(BLOCK_BUTTONS.length)
    await expectAccessible('the editor with a block selected')
    // The publish dialog, before and after publishing (its QR code and its links).
    await page
      .getByTestId('editor-toolbar')
      .getByRole('button', { name: 'Опубликовать', exact: true })
      .click()
    const publish = page.getByRole('dialog', { name: 'Публикация страницы' })
    await publish.getByRole('textbox', { name: 'Адрес страницы' }).waitFor()
    await expectAccessible('the publish dialog of a project not published')
    await publish.getByRole('button', { name: 'Опубликовать', exact: true }).click()
    await publish.getByRole('img', { name: 'QR-код адреса страницы' }).waitFor()
    await expectAccessible('the publish dialog of a published project')
    await page.keyboard.press('Escape')
    await publish.waitFor({ state: 'detached' })
  })

  it('the dialog that fits a story picture to 9:16, both ways', async () => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await signInFreshUser(page)
    // A tablet in portrait, where the dialog is used with a finger.
    await page.setViewportSize({ width: 800, height: 1280 })
    await createProjectThroughUi(page, 'Доступность сторис', 2)
    await page.getByText('Добавьте первый слайд').waitFor()
    await expectAccessible('an empty story editor')
    await uploadBackground(page, makePng(400, 300))
    const dialog = page.getByRole('dialog', { name: 'Слайд должен быть 9:16' })
    await dialog.getByRole('slider').waitFor()
    await expectAccessible('the story fit dialog, cropping')
    await dialog.getByText('Вписать с полями').click()
    await dialog.getByLabel('Цвет полей').waitFor()
    await expectAccessible('the story fit dialog, fitting')
    await dialog.getByRole('button', { name: 'Отмена' }).click()
    await dialog.waitFor({ state: 'detached' })
    await page.getByText('Добавьте первый слайд').waitFor()
  })
})
