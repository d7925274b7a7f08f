import type { Browser, BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchVisitorBrowser, phoneContext } from './helpers/browser.ts'
import { addBackgroundApi, api, registerUser, type FreshUser } from './helpers/user.ts'
import { MIN_FILL_SECONDS } from '../../src/domain/visitor-request.ts'

/**
 * Published pages as visitors meet them (docs/publishing.md): a phone with no account, stories
 * moved by swipes, taps and keys, and a browser with JavaScript off that still shows every block.
 */
let browser: Browser
let user: FreshUser
let landing = ''
let stories = ''
let secondBg = 0
let giftId = 0

const addBackground = (projectId: number, width: number, height: number) =>
  addBackgroundApi(user.token, projectId, width, height)

const text = (bgId: number, words: string, y = 30) => ({
  bg_id: bgId,
  x: 50,
  y,
  zindex: 1,
  rotation: 0,
  width: 80,
  fontSize: 6,
  font: 'Roboto',
  align: 'center',
  color: '#111111',
  text: words,
  background: 'transparent',
  name: '',
})

async function project(name: string, type: 1 | 2) {
  const { id } = await api<{ id: number }>(user.token, 'project/add', {
    workspace_id: user.workspaceId,
    name,
  })
  await api(user.token, 'project/set_type', { project_id: id, type })
  return id
}

beforeAll(async () => {
  user = await registerUser()
  const land = await project('Весенняя акция', 1)
  const first = await addBackground(land, 160, 240)
  secondBg = await addBackground(land, 160, 240)
  await api(user.token, 'text/add', text(first, 'Скидка на чистку зубов'))
  await api(user.token, 'button/add', {
    bg_id: first,
    x: 50,
    y: 70,
    zindex: 2,
    rotation: 0,
    width: 40,
    height: 12,
    btn_type: 'target',
    btn_type_value: String(secondBg),
    name: '',
    border_width: 0,
    border_color: '#000000',
    fontSize: 4,
    font: 'Roboto',
    align: 'center',
    color: '#ffffff',
    background: '#1c7ed6',
    text: 'Подробнее',
  })
  await api(user.token, 'text/add', text(secondBg, 'Наши врачи'))
  giftId = (
    await api<{ id: number }>(user.token, 'gift/add', {
      bg_id: secondBg,
      x: 50,
      y: 60,
      zindex: 2,
      rotation: 0,
      color: '#e64980',
      text: 'Консультация в подарок',
      name: '',
      button_url: '',
      button_hook_url: '',
    })
  ).id
  landing = (await api<{ url: string }>(user.token, 'project/publish', { project_id: land })).url

  const story = await project('Сторис акции', 2)
  for (const n of [1, 2, 3]) {
    const bg = await addBackground(story, 90, 160)
    await api(user.token, 'text/add', text(bg, `Слайд номер ${n}`))
  }
  stories = (await api<{ url: string }>(user.token, 'project/publish', { project_id: story })).url
  browser = await launchVisitorBrowser()
})

afterAll(async () => {
  await browser?.close()
})

function phone(options: { javaScriptEnabled?: boolean } = {}): Promise<BrowserContext> {
  return phoneContext(browser, options)
}

describe('a published page', () => {
  it('opens on a phone with no account, shows every block, sets no cookie, and a target button scrolls', async () => {
    const context = await phone()
    try {
      const page = await context.newPage()
      const errors: string[] = []
      page.on('pageerror', (error) => errors.push(String(error)))
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text())
      })
      const response = await page.goto(landing)
      expect(response?.status()).toBe(200)
      await expect.poll(() => page.title()).toBe('Весенняя акция')
      await page.getByText('Скидка на чистку зубов').waitFor()
      expect(await page.locator('section').getByText('Консультация в подарок').isVisible()).toBe(
        true,
      )
      expect(await context.cookies()).toEqual([])
      // The page fills the phone's width.
      const width = await page
        .locator('section')
        .first()
        .evaluate((el) => el.getBoundingClientRect().width)
      expect(width).toBe(390)
      await page.getByText('Подробнее').tap()
      await expect.poll(() => page.evaluate(() => location.hash)).toBe(`#bg-${secondBg}`)
      // Scrolled as far as the page goes towards the section: all of it in view.
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0)
      const box = await page
        .locator(`#bg-${secondBg}`)
        .evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect)
      expect(box.top).toBeGreaterThanOrEqual(0)
      expect(box.bottom).toBeLessThanOrEqual(844)
      expect(errors).toEqual([])
    } finally {
      await context.close()
    }
  })

  it('stories: one slide at a time, moved by a swipe, a tap and the arrow keys, its number in the address', async () => {
    const context = await phone()
    try {
      const page = await context.newPage()
      await page.goto(stories)
      const visible = () =>
        page.evaluate(() =>
          Array.from(document.querySelectorAll('section'), (s) => !s.hidden).indexOf(true),
        )
      await expect.poll(visible).toBe(0)
      expect(await page.locator('section:visible').count()).toBe(1)
      expect(await page.locator('[data-mark].on').count()).toBe(1)
      // A swipe to the left: the next slide.
      await page.mouse.move(300, 400)
      await page.mouse.down()
      await page.mouse.move(200, 405, { steps: 4 })
      await page.mouse.move(80, 410, { steps: 4 })
      await page.mouse.up()
      await expect.poll(visible).toBe(1)
      expect(await page.evaluate(() => location.hash)).toBe('#2')
      await page.getByText('Слайд номер 2').waitFor()
      // A tap on the right: the next one; on the left: back.
      await page.mouse.click(360, 420)
      await expect.poll(visible).toBe(2)
      await page.mouse.click(30, 420)
      await expect.poll(visible).toBe(1)
      await page.keyboard.press('ArrowRight')
      await expect.poll(visible).toBe(2)
      expect(await page.evaluate(() => location.hash)).toBe('#3')
      expect(await page.locator('[data-mark].on').count()).toBe(3)
      // Opened at its address, a slide is shown at once.
      await page.goto(`${stories}#2`)
      await expect.poll(visible).toBe(1)
    } finally {
      await context.close()
    }
  })

  it('with JavaScript off still shows every block, opens a request form and sends it', async () => {
    const context = await phone({ javaScriptEnabled: false })
    try {
      const page = await context.newPage()
      await page.goto(stories)
      for (const n of [1, 2, 3]) {
        expect(await page.getByText(`Слайд номер ${n}`).isVisible(), `slide ${n}`).toBe(true)
      }
      await page.goto(landing)
      expect(await page.getByText('Скидка на чистку зубов').isVisible()).toBe(true)
      expect(await page.getByText('Наши врачи').isVisible()).toBe(true)
      const form = page.locator(`#form-${giftId}`)
      expect(await form.isVisible()).toBe(false)
      await page.locator(`a[href="#form-${giftId}"]`).click()
      await form.waitFor({ state: 'visible' })
      expect(await form.getByLabel('Телефон').isVisible()).toBe(true)
      expect(await form.getByRole('button', { name: 'Получить подарок' }).isVisible()).toBe(true)

      // Sent as a plain form: its token and submission id, at the page's end, go with it.
      await form.getByLabel('Ваше имя').fill('Ольга без скриптов')
      await form.getByLabel('Телефон').fill('+7 912 000-11-22')
      await form.getByLabel(/Согласен/).check()
      const token = await page
        .locator(`input[form="form-${giftId}-form"][name="form_token"]`)
        .inputValue()
      // A form sent sooner than a person fills one is kept as spam, never delivered.
      const left = (Number(token.split('.')[0]) + MIN_FILL_SECONDS) * 1000 + 300 - Date.now()
      if (left > 0) await page.waitForTimeout(left)
      await form.getByRole('button', { name: 'Получить подарок' }).click()
      await page.getByText('Спасибо! Заявка отправлена').waitFor()
      const appeals = await api<{ name: string; phone: string; status: string }[]>(
        user.token,
        `appeal/list?workspace_id=${user.workspaceId}`,
      )
      expect(appeals.find((a) => a.name === 'Ольга без скриптов')).toMatchObject({
        phone: '+79120001122',
        status: 'new',
      })
    } finally {
      await context.close()
    }
  })
})
