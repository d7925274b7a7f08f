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
})
