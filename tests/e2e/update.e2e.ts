import { appendFile, cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../server/start.ts'
import { demoAccount, expectShell, submitLogin, waitForServiceWorker } from './helpers/app.ts'
import { launchBrowser, type BrowserSession } from './helpers/browser.ts'

// A server of its own over a copy of dist/, so this file can "deploy" a new version.
const DIST = new URL('../../dist/', import.meta.url).pathname
let site: string
let server: RunningServer
let browser: BrowserSession
let page: Page

beforeAll(async () => {
  site = await mkdtemp(join(tmpdir(), 'promo-e2e-site-'))
  await cp(DIST, site, { recursive: true })
  server = await startServer({ port: 0, staticDir: site, dataDir: 'memory', seed: true })
  browser = await launchBrowser()
  page = browser.page
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await rm(site, { recursive: true, force: true })
})

/** How many departments of the demo workspace the server holds under this name. */
let apiToken: string | null = null
async function departmentsNamed(name: string): Promise<number> {
  if (!apiToken) {
    const { email, password } = demoAccount('admin')
    const login = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password }),
    })
    apiToken = ((await login.json()) as { access_token: string }).access_token
  }
  const auth = { Authorization: `Bearer ${apiToken}` }
  const workspaces = (await (
    await fetch(`${server.url}/api/workspace/list`, { headers: auth })
  ).json()) as { id: number }[]
  let count = 0
  for (const workspace of workspaces) {
    const rows = (await (
      await fetch(`${server.url}/api/department/list?workspace_id=${workspace.id}`, {
        headers: auth,
      })
    ).json()) as { name: string }[]
    count += rows.filter((row) => row.name === name).length
  }
  return count
}

const workerState = () =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration()
    return { waiting: Boolean(registration?.waiting), active: Boolean(registration?.active) }
  })

describe('a new version', () => {
  it('waits for the user, and «Обновить» reloads the page under the new version', async () => {
    await page.goto(`${server.url}/pages/login`)
    await submitLogin(page, demoAccount('admin'))
    await expectShell(page, 'Проекты')
    await waitForServiceWorker(page)
    await page.evaluate(() => {
      ;(window as unknown as { oldPage: boolean }).oldPage = true
    })

    // Deploy: any byte change of sw.js is a new version for the browser.
    await appendFile(join(site, 'sw.js'), `\n// deployed ${Date.now()}\n`)
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update()
    })

    const prompt = page.getByRole('alert').filter({ hasText: 'Доступна новая версия' })
    await prompt.waitFor()
    // Prompt strategy: the new worker waits, the page keeps running the old one.
    expect(await workerState()).toEqual({ waiting: true, active: true })
    expect(await page.evaluate(() => 'oldPage' in window)).toBe(true)

    await Promise.all([
      page.waitForEvent('load'),
      prompt.getByRole('button', { name: 'Обновить' }).click(),
    ])
    await expectShell(page, 'Проекты')
    expect(await page.evaluate(() => 'oldPage' in window)).toBe(false)
    expect(await workerState()).toEqual({ waiting: false, active: true })
    // The session survived the update.
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeTruthy()
  })

  it('accepting an update while changes wait loses none of them', async () => {
    await expectShell(page, 'Проекты')
    await waitForServiceWorker(page)
    // The department's add cannot get through (a dead link for that call only), so the change is
    // still waiting in the outbox when the user accepts the new version.
    const blocked = '**/api/department/add'
    await browser.context.route(blocked, (route) => route.abort('internetdisconnected'))
    await page.goto(`${server.url}/department/add`)
    await page.locator('form [name="name"]').fill('Отделение до обновления')
    await page.locator('form').getByRole('button', { name: 'Добавить', exact: true }).click()
    await page
      .getByRole('list', { name: 'Отделения' })
      .getByRole('listitem')
      .filter({ hasText: 'Отделение до обновления' })
      .locator('[data-sync-mark="pending"]')
      .waitFor()

    await appendFile(join(site, 'sw.js'), `\n// deployed again ${Date.now()}\n`)
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update()
    })
    const prompt = page.getByRole('alert').filter({ hasText: 'Доступна новая версия' })
    await prompt.waitFor()
    await Promise.all([
      page.waitForEvent('load', { timeout: 30_000 }),
      prompt.getByRole('button', { name: 'Обновить' }).click(),
    ])
    expect(await workerState()).toEqual({ waiting: false, active: true })
    expect(await departmentsNamed('Отделение до обновления')).toBe(0)

    // The link is back: the new version replays what the old one queued, exactly once.
    await browser.context.unroute(blocked)
    await page.evaluate(() => window.dispatchEvent(new Event('online')))
    await expect
      .poll(() => departmentsNamed('Отделение до обновления'), { timeout: 30_000 })
      .toBe(1)
    await page.waitForTimeout(1500)
    expect(await departmentsNamed('Отделение до обновления')).toBe(1)
  })
})
