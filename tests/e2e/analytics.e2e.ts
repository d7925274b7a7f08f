import type { Browser, BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MIN_FILL_SECONDS } from '../../src/domain/visitor-request.ts'
import { appUrl, expectShell } from './helpers/app.ts'
import {
  launchVisitorBrowser,
  phoneContext,
  launchBrowser,
  type BrowserSession,
} from './helpers/browser.ts'
import { addBackgroundApi, api, signInFreshUser, type FreshUser } from './helpers/user.ts'

/**
 * «Аналитика» as a clinic's marketer meets it (docs/analytics.md): a page is published, two
 * visitors open it on their phones, one of them leaves a request, and the screen says 2 visitors,
 * 1 request, 50 % conversion; offline it shows the same figures with their date.
 */

/** Real phones' browsers: a headless browser's own User-Agent is a robot's and is not counted. */
const PHONES = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; SM-A546B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
]

let editor: BrowserSession
let phones: Browser
let user: FreshUser
let url = ''
let giftId = 0

beforeAll(async () => {
  editor = await launchBrowser()
  user = await signInFreshUser(editor.page)
  const { id } = await api<{ id: number }>(user.token, 'project/add', {
    workspace_id: user.workspaceId,
    name: 'Акция на чистку зубов',
  })
  const bg = await addBackgroundApi(user.token, id, 90, 160)
  giftId = (
    await api<{ id: number }>(user.token, 'gift/add', {
      bg_id: bg,
      x: 50,
      y: 50,
      zindex: 1,
      rotation: 0,
      color: '#e64980',
      text: 'Консультация в подарок',
      name: '',
      button_url: '',
      button_hook_url: '',
    })
  ).id
  url = (await api<{ url: string }>(user.token, 'project/publish', { project_id: id })).url
  phones = await launchVisitorBrowser()
})

afterAll(async () => {
  await phones?.close()
  await editor?.close()
})

async function phone(userAgent: string): Promise<BrowserContext> {
  return phoneContext(phones, { deviceScaleFactor: 1, userAgent })
}

const total = (label: string) => editor.page.getByTestId(`total-${label}`)

describe('«Аналитика»', () => {
  it('counts two phones and one request as 2 visitors, 1 request and 50 % conversion, and keeps them for offline', async () => {
    const [first, second] = await Promise.all(PHONES.map((ua) => phone(ua)))
    try {
      const pages = await Promise.all([first!.newPage(), second!.newPage()])
      for (const page of pages) {
        expect((await page.goto(url))?.status()).toBe(200)
        await page.locator('section').getByText('Консультация в подарок').waitFor()
      }
      const visitor = pages[0]!
      await visitor.locator(`a[href="#form-${giftId}"]`).tap()
      const form = visitor.locator(`#form-${giftId}`)
      await form.getByLabel('Ваше имя').fill('Анна')
      await form.getByLabel('Телефон').fill('8 (912) 345-67-89')
      await form.locator('input[name="consent"]').check()
      // A person spends seconds on a form; one sent sooner is taken for a robot's and not counted.
      // The seconds run from the second the server signed into the form, not from when the test
      // asked for the page: on a loaded machine the page may be served a second later.
      const token = await visitor
        .locator(`input[form="form-${giftId}-form"][name="form_token"]`)
        .inputValue()
      const served = Number(token.split('.')[0])
      expect(served).toBeGreaterThan(0)
      const left = (served + MIN_FILL_SECONDS) * 1000 + 300 - Date.now()
      if (left > 0) await visitor.waitForTimeout(left)
      await form.getByRole('button').click()
      await form.getByText('Ваш подарок: Консультация в подарок').waitFor()
    } finally {
      await first?.close()
      await second?.close()
    }

    // The counts are written in batches each second: the screen gets them once they are.
    await expect
      .poll(
        async () => {
          const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow' }).format(
            new Date(),
          )
          const summary = await api<{ totals: { visitors: number; submissions: number } }>(
            user.token,
            `analytics/summary?workspace_id=${user.workspaceId}&from=${today}&to=${today}`,
          )
          return summary.totals
        },
        { timeout: 10_000 },
      )
      .toMatchObject({ visitors: 2, submissions: 1 })

    const page = editor.page
    await page.goto(appUrl('/analytics'))
    await expectShell(page, 'Аналитика')
    await expect.poll(() => total('Посетители').textContent()).toBe('2')
    expect(await total('Заявки').textContent()).toBe('1')
    expect(await total('Конверсия').textContent()).toBe('50 %')
    expect(await total('Просмотры').textContent()).toBe('2')
    await page.getByRole('cell', { name: 'Акция на чистку зубов' }).waitFor()

    // Offline: to another screen and back, and the figures are there with their date.
    await editor.context.setOffline(true)
    try {
      await page.locator('nav a', { hasText: 'Проекты' }).click()
      await expectShell(page, 'Проекты')
      await page.locator('nav a', { hasText: 'Аналитика' }).click()
      await page.getByRole('status').filter({ hasText: 'Нет связи. Показаны данные на' }).waitFor()
      expect(await total('Посетители').textContent()).toBe('2')
      expect(await total('Конверсия').textContent()).toBe('50 %')
    } finally {
      await editor.context.setOffline(false)
    }
  })
})
