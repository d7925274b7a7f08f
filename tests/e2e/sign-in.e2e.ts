import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  appUrl,
  demoAccount,
  expectShell,
  navLink,
  pathOf,
  resetBrowserState,
  goOffline,
  goOnline,
  signIn,
  submitLogin,
  waitForServiceWorker,
} from './helpers/app.ts'
import { launchBrowser, type BrowserSession } from './helpers/browser.ts'
import { api, registerUser, type FreshUser } from './helpers/user.ts'

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

/** Entries waiting in the mirror's outbox (IndexedDB `promo-builder`). */
const outboxSize = () =>
  page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('promo-builder')
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const count = open.result.transaction('outbox').objectStore('outbox').count()
          count.onsuccess = () => {
            open.result.close()
            resolve(count.result)
          }
          count.onerror = () => reject(count.error)
        }
      }),
  )

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

describe('another person in the same tab', () => {
  afterEach(() => goOnline(browser.context))

  /** Two fresh accounts whose workspaces have names of their own. */
  async function twoPeople(): Promise<[FreshUser, FreshUser]> {
    const first = await registerUser()
    const second = await registerUser()
    await api(first.token, 'workspace/update', { id: first.workspaceId, name: 'Пространство А' })
    await api(second.token, 'workspace/update', { id: second.workspaceId, name: 'Пространство Б' })
    return [first, second]
  }

  /** Every API request the page, its worker or the service worker sends with this text in it. */
  function requestsCarrying(text: string): { url: string; authorization: string }[] {
    const seen: { url: string; authorization: string }[] = []
    browser.context.on('request', (request) => {
      if (request.url().includes('/api/') && (request.postData() ?? '').includes(text))
        seen.push({ url: request.url(), authorization: request.headers()['authorization'] ?? '' })
    })
    return seen
  }

  /** Creates a project while offline: it waits in the outbox. */
  async function queueProjectOffline(name: string) {
    // Offline, the service worker serves the app's files; the workspace is on the device.
    await waitForServiceWorker(page)
    await expect
      .poll(() => page.getByTestId('workspace-switcher').locator('option:checked').textContent())
      .toBe('Пространство А')
    await goOffline(browser.context)
    await page.getByRole('button', { name: 'Новый проект' }).first().click()
    await page.getByLabel('Название нового проекта').fill(name)
    await page.getByRole('button', { name: 'Создать', exact: true }).click()
    await page.waitForURL((url) => /^\/project\/-\d+\/type$/.test(url.pathname))
    await page.getByRole('button', { name: 'Синхронизация: Нет сети · ждут: 1' }).waitFor()
  }

  /** From now on, records whether the page ever shows any of `texts` (the first person's data). */
  async function watchForTexts(texts: string[]) {
    await page.evaluate((watched) => {
      const seen: string[] = []
      Object.assign(window, { __seenTexts: seen })
      const look = () => {
        const shown =
          document.body.innerText +
          Array.from(document.querySelectorAll('option'), (o) => o.textContent).join(' ')
        for (const text of watched)
          if (shown.includes(text) && !seen.includes(text)) seen.push(text)
      }
      new MutationObserver(look).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
      })
    }, texts)
  }
  const seenTexts = () => page.evaluate(() => (window as { __seenTexts?: string[] }).__seenTexts)

  /** The second person's shell: their workspace at once, no «Войти снова», nothing of the first. */
  async function expectSecondPersonsShell(queued: string) {
    await expectShell(page, 'Проекты')
    const switcher = page.getByTestId('workspace-switcher')
    await expect
      .poll(() => switcher.locator('option:checked').textContent(), { timeout: 5_000 })
      .toBe('Пространство Б')
    expect(await switcher.locator('option').allTextContents()).toEqual(['Пространство Б'])
    expect(await page.getByText('Нет рабочего пространства').count()).toBe(0)
    await expect
      .poll(() => page.getByTestId('sync-status').getAttribute('data-state'))
      .toBe('saved')
    expect(await page.getByText(queued).count()).toBe(0)
    // Not even for a moment while the new session was being applied.
    expect(await seenTexts()).toEqual([])
  }

  it('signing out with a queued change and in as someone else shows their workspace at once and never sends the change', async () => {
    const [first, second] = await twoPeople()
    const queued = `Проект А ${first.email}`
    const sent = requestsCarrying(queued)
    await signIn(page, first)
    await expectShell(page, 'Проекты')
    await queueProjectOffline(queued)

    await page.getByRole('button', { name: 'Меню пользователя' }).click()
    await page.getByRole('menuitem', { name: 'Выйти' }).click()
    await page.getByText('Изменений, ещё не отправленных на сервер: 1', { exact: false }).waitFor()
    await page.getByRole('button', { name: 'Выйти всё равно' }).click()
    await page.waitForURL((url) => url.pathname === '/pages/login')
    await goOnline(browser.context)

    await watchForTexts(['Пространство А', queued])
    await submitLogin(page, second)
    await page.waitForURL((url) => url.pathname === '/projects')
    await expectSecondPersonsShell(queued)
    // A new project of the second person's goes to their server workspace; the first person's
    // change was never sent, under either token.
    await page.getByRole('button', { name: 'Новый проект' }).first().click()
    await page.getByLabel('Название нового проекта').fill('Проект Б')
    await page.getByRole('button', { name: 'Создать', exact: true }).click()
    await page.waitForURL((url) => /^\/project\/\d+\/type$/.test(url.pathname))
    const names = async (user: FreshUser) =>
      (
        await api<{ name: string }[]>(user.token, `project/list?workspace_id=${user.workspaceId}`)
      ).map((project) => project.name)
    await expect.poll(() => names(second), { timeout: 10_000 }).toEqual(['Проект Б'])
    expect(await names(first)).toEqual([])
    expect(sent).toEqual([])
  })

  it('the lock screen after a 401, then someone else signing in, shows their workspace at once', async () => {
    const [first, second] = await twoPeople()
    const queued = `Проект А ${first.email}`
    const sent = requestsCarrying(queued)
    await signIn(page, first)
    await expectShell(page, 'Проекты')
    await queueProjectOffline(queued)
    // The server no longer knows the token (a password reset on another device): a 401.
    await page.evaluate(() => localStorage.setItem('access_token', 'revoked-elsewhere-0000000000'))
    await goOnline(browser.context)
    await page.goto(appUrl('/projects'))
    await page.waitForURL(
      (url) => url.pathname === '/pages/login' || url.pathname === '/pages/lock-screen',
    )
    if (new URL(page.url()).pathname === '/pages/login') {
      await page.goto(appUrl('/pages/lock-screen'))
    }
    await page.getByText(first.email).waitFor()
    await page.getByRole('link', { name: 'Войти под другим аккаунтом' }).click()
    await page.waitForURL((url) => url.pathname === '/pages/login')
    await watchForTexts(['Пространство А', queued])
    await submitLogin(page, second)
    await page.waitForURL((url) => url.pathname === '/projects')
    await expectSecondPersonsShell(queued)
    const secondToken = await storedToken()
    expect(sent.filter((request) => request.authorization === `Bearer ${secondToken}`)).toEqual([])
    await expect.poll(() => outboxSize()).toBe(0)
  })
})
