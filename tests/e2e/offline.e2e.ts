import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  appUrl,
  demoAccount,
  expectShell,
  goOffline,
  goOnline,
  navLink,
  signIn,
  waitForServiceWorker,
} from './helpers/app.ts'
import { launchBrowser, type BrowserSession } from './helpers/browser.ts'
import { api, signInFreshUser } from './helpers/user.ts'

// One browser for the file: the journeys build on the first online visit, as a user's would.
let browser: BrowserSession
let page: Page

beforeAll(async () => {
  browser = await launchBrowser()
  page = browser.page
  await signIn(page, demoAccount('admin'))
  await expectShell(page, 'Проекты')
  await waitForServiceWorker(page)
})

afterAll(async () => {
  await browser?.close()
})

/** Runs `steps` with the network cut, and always restores it. */
async function offline(steps: () => Promise<void>): Promise<void> {
  await goOffline(browser.context)
  try {
    await steps()
  } finally {
    await goOnline(browser.context)
  }
}

describe('installable app', () => {
  it('passes Chromium installability checks', async () => {
    const cdp = await browser.context.newCDPSession(page)
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[]
    }
    expect(installabilityErrors).toEqual([])
    await cdp.detach()
  })

  it('serves the manifest icons as PNG', async () => {
    const types = await page.evaluate(async () => {
      const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]')
      const manifest = (await (await fetch(link!.href)).json()) as { icons: { src: string }[] }
      return Promise.all(
        manifest.icons.map(async (icon) => (await fetch(icon.src)).headers.get('content-type')),
      )
    })
    expect(types).toEqual(['image/png', 'image/png', 'image/png'])
  })
})

describe('offline', () => {
  it('a reload with no network still shows the signed-in shell, and other routes open', async () => {
    await page.goto(appUrl('/projects'))
    await expectShell(page, 'Проекты')
    await offline(async () => {
      await page.reload()
      await expectShell(page, 'Проекты')
      expect(new URL(page.url()).pathname).toBe('/projects')
      // A route chunk not loaded yet in this page comes from the precache.
      await navLink(page, 'Специалисты').click()
      await page.waitForURL((url) => url.pathname === '/specialist')
      await expectShell(page, 'Специалисты')
      // Opening a client route by its address is answered with the precached shell.
      await page.goto(appUrl('/department'))
      await expectShell(page, 'Отделения')
    })
  })

  it('a start on a link that connects but never answers paints the projects from the device', async () => {
    await page.goto(appUrl('/projects'))
    const firstRow = page.getByRole('list', { name: 'Проекты' }).getByRole('listitem').first()
    await firstRow.waitFor()
    const name = await firstRow.textContent()
    // Lie-fi: every API request is accepted and never answered (check_auth's own timeout is 10 s).
    let hanging = 0
    await browser.context.route('**/api/**', () => {
      hanging += 1
    })
    try {
      await page.reload()
      // Well before check_auth's 10 s timeout: the guard waits about 1 s, then paints from the
      // mirror (a bound on correctness, not a speed goal: the figure is in the benchmarks).
      await firstRow.waitFor({ timeout: 6000 })
      expect(await firstRow.textContent()).toBe(name)
      expect(hanging).toBeGreaterThan(0)
    } finally {
      await browser.context.unroute('**/api/**')
    }
  })

  it('keeps uploaded images for offline use, and never answers the API from a cache', async () => {
    const image = '/uploads/seed-landing-spring.svg'
    const fetchStatus = (url: string) =>
      page.evaluate(async (u) => {
        try {
          return (await fetch(u)).status
        } catch {
          return 'network-error'
        }
      }, url)
    expect(await fetchStatus(image)).toBe(200)
    // Stored by the service worker's runtime cache, not only by the browser's HTTP cache.
    // (The worker writes the copy after answering, so wait for it.)
    await expect
      .poll(() =>
        page.evaluate(async (url) => {
          const response = await (await caches.open('uploads')).match(url)
          return response?.status ?? null
        }, image),
      )
      .toBe(200)
    await offline(async () => {
      expect(await fetchStatus(image)).toBe(200)
      expect(await fetchStatus('/api/check_auth')).toBe('network-error')
    })
  })

  it('does not answer API or upload addresses with the app shell', async () => {
    const api = await page.goto(appUrl('/api/check_auth'))
    expect(api?.status()).toBe(401)
    expect(api?.headers()['content-type']).toContain('application/json')
    const missing = await page.goto(appUrl('/uploads/missing.png'))
    expect(missing?.status()).toBe(404)
  })
})

describe('the API out of reach while the browser reports a network', () => {
  it('the header says «Сервер не отвечает» over the queued changes, and «Всё сохранено» once they reached the server', async () => {
    const user = await signInFreshUser(page)
    await waitForServiceWorker(page)
    const status = page.getByTestId('sync-status')
    await expect.poll(() => status.getAttribute('data-state')).toBe('saved')
    // Every API request fails without an answer; navigator.onLine stays true.
    await browser.context.route('**/api/**', (route) => route.abort('connectionrefused'))
    try {
      await page.getByRole('button', { name: 'Новый проект' }).first().click()
      await page.getByLabel('Название нового проекта').fill('Проект без связи')
      await page.getByRole('button', { name: 'Создать', exact: true }).click()
      await page.waitForURL((url) => /^\/project\/-\d+\/type$/.test(url.pathname))
      await page.goto(appUrl('/projects'))
      expect(await page.evaluate(() => navigator.onLine)).toBe(true)
      await page
        .getByRole('button', { name: 'Синхронизация: Сервер не отвечает · ждут: 1' })
        .waitFor()
    } finally {
      await browser.context.unroute('**/api/**')
    }
    // The replay's next try gets through: the status follows the answer and the emptied outbox.
    await page.getByRole('button', { name: 'Синхронизация: Всё сохранено' }).waitFor({
      timeout: 40_000,
    })
    const names = (
      await api<{ name: string }[]>(user.token, `project/list?workspace_id=${user.workspaceId}`)
    ).map((project) => project.name)
    expect(names).toEqual(['Проект без связи'])
  }, 90_000)
})
