import type { Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  appUrl,
  demoAccount,
  expectShell,
  navLink,
  pathOf,
  resetBrowserState,
  signIn,
  submitLogin,
} from './helpers/app.ts'
import { launchBrowser, type BrowserSession } from './helpers/browser.ts'

let browser: BrowserSession
let page: Page

beforeAll(async () => {
  browser = await launchBrowser()
  page = browser.page
})

afterAll(async () => {
  await browser?.close()
})

beforeEach(async () => {
  await resetBrowserState(page)
})

const storedToken = () => page.evaluate(() => localStorage.getItem('access_token'))

describe('signing in', () => {
  it('with the demo account lands on the projects, in Russian', async () => {
    await page.goto(appUrl('/'))
    await page.waitForURL((url) => url.pathname === '/pages/login')
    await submitLogin(page, demoAccount('admin'))
    await page.waitForURL((url) => url.pathname === '/projects')
    await expectShell(page, 'Проекты')
    expect(await page.locator('html').getAttribute('lang')).toBe('ru')
    expect(await storedToken()).toMatch(/\S{16,}/)
    expect(await page.evaluate(() => localStorage.getItem('userRole'))).toBe('admin')
  })

  it('returns to the page that was asked for while signed out', async () => {
    await page.goto(appUrl('/department/'))
    await page.waitForURL((url) => url.pathname === '/pages/login')
    expect(new URL(page.url()).searchParams.get('to')).toMatch(/^\/department\/?$/)
    await submitLogin(page, demoAccount('admin'))
    await page.waitForURL((url) => /^\/department\/?$/.test(url.pathname))
    await expectShell(page, 'Отделения')
  })

  it('with a wrong password shows the red «Ошибка» notice with the server message', async () => {
    await page.goto(appUrl('/pages/login'))
    await submitLogin(page, { email: demoAccount('admin').email, password: 'wrong-password-1' })
    const notice = page.getByRole('alert').filter({ hasText: 'Ошибка' })
    await notice.waitFor()
    expect(await notice.textContent()).toContain('Неверный адрес почты или пароль')
    // Mantine paints the notice with its colour variable: the danger colour.
    expect(await notice.getAttribute('style')).toMatch(
      /--notification-color:\s*var\(--mantine-color-red/,
    )
    expect(pathOf(page)).toBe('/pages/login')
    expect(await storedToken()).toBeNull()
  })
})

describe('routes and roles', () => {
  it('sends an unknown path to the 404 page', async () => {
    await page.goto(appUrl('/no/such/page'))
    await page.waitForURL((url) => url.pathname === '/pages/error-404')
    await page.getByText('404').first().waitFor()
  })

  it('lets the editor-role account open the product pages', async () => {
    const editor = demoAccount('editor')
    await signIn(page, editor)
    await expectShell(page, 'Проекты')
    expect(await page.evaluate(() => localStorage.getItem('userRole'))).toBe('editor')
    for (const [path, section] of [
      ['/specialist', 'Специалисты'],
      ['/integrations', 'Интеграции'],
      ['/locations', 'Локации'],
    ] as const) {
      await navLink(page, section).click()
      await page.waitForURL((url) => url.pathname.startsWith(path))
      await expectShell(page, section)
    }
  })
})

describe('leaving and coming back', () => {
  it('after a navigation the overlay is hidden and the page is scrolled to the top', async () => {
    await page.setViewportSize({ width: 1280, height: 320 })
    try {
      await signIn(page, demoAccount('admin'))
      await page.goto(appUrl('/specialist/'))
      await expectShell(page, 'Специалисты')
      await page.getByText('Иванова Анна Сергеевна').waitFor()
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0)
      await navLink(page, 'Локации').click()
      await expectShell(page, 'Локации')
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0)
      expect(await page.getByTestId('loading-overlay').isVisible()).toBe(false)
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 })
    }
  })

  it('signs out from the user menu and forgets the token', async () => {
    await signIn(page, demoAccount('admin'))
    await expectShell(page, 'Проекты')
    await page.getByRole('button', { name: 'Меню пользователя' }).click()
    await page.getByRole('menuitem', { name: 'Выйти' }).click()
    await page.waitForURL((url) => url.pathname === '/pages/login')
    expect(await storedToken()).toBeNull()
    // The product is closed again.
    await page.goto(appUrl('/projects'))
    await page.waitForURL((url) => url.pathname === '/pages/login')
  })

  it('the lock screen signs the stored user back in and keeps local data', async () => {
    const admin = demoAccount('admin')
    await signIn(page, admin)
    await expectShell(page, 'Проекты')
    // The token runs out; the user and something local stay.
    await page.evaluate(() => {
      localStorage.setItem('tokenExpiry', String(Date.now() - 60_000))
      localStorage.setItem('e2e-local-marker', 'kept')
    })
    await page.goto(appUrl('/pages/lock-screen?to=%2Flocations'))
    await page.getByText(admin.email).waitFor()
    await page.locator('input[name="password"]').fill(admin.password)
    await page.getByRole('button', { name: 'Разблокировать' }).click()
    await page.waitForURL((url) => url.pathname === '/locations')
    await expectShell(page, 'Локации')
    const expiry = await page.evaluate(() => Number(localStorage.getItem('tokenExpiry')))
    expect(expiry).toBeGreaterThan(Date.now())
    expect(await page.evaluate(() => localStorage.getItem('e2e-local-marker'))).toBe('kept')
  })
})
