import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../server/start.ts'
import { FakeCrm, type AmoAccount } from '../support/fake-crm.ts'
import { addBackgroundApi } from './helpers/user.ts'
import { BUILD_DIRS } from './global-setup.ts'
import { submitLogin } from './helpers/app.ts'
import { seriousAccessibilityProblems } from './helpers/axe.ts'
import { launchVisitorBrowser, phoneContext } from './helpers/browser.ts'

/**
 * A visitor's request from a published page to the editor's «Обращения» and the workspace's
 * amoCRM (docs/requests.md, "The app"): a phone sends the subscribe form; the list already open
 * in the editor's browser shows it without a reload; the fake amoCRM holds the lead.
 *
 * A server of its own: its outbound calls go to the fake CRMs (OUTBOUND_TEST_ORIGIN), and its clock
 * can be moved on, so the form is not judged sent «within 3 s of being served» (spam) without the
 * test waiting those seconds.
 */
let fake: FakeCrm
let server: RunningServer
let dataDir = ''
let browser: Browser
const skew = { ms: 0 }
let account: AmoAccount
let pageUrl = ''
let blockId = 0
let editorToken = ''
let workspaceId = 0
let amoId = 0
const editor = {
  name: 'Редактор',
  email: `appeals-${randomUUID().slice(0, 8)}@example.com`,
  password: 'password-appeals-1',
}
const visitor = { name: 'Анна Смирнова', phone: '8 (912) 345-67-89' }

async function call<T>(token: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}/api/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

beforeAll(async () => {
  fake = await new FakeCrm({ amoPerSecond: 70, bitrixDrainPerSecond: 70 }).start()
  dataDir = await mkdtemp(join(tmpdir(), 'promo-e2e-appeals-'))
  server = await startServer({
    port: 0,
    staticDir: BUILD_DIRS.test,
    dataDir,
    pageRenderer: 'built',
    now: () => Date.now() + skew.ms,
    delivery: {
      testOrigin: fake.origin,
      timeoutMs: 2_000,
      pollMs: 50,
      backoff: { baseMs: 50, capMs: 500 },
    },
  })
  const registered = await fetch(`${server.url}/api/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(editor),
  })
  const { access_token: token } = (await registered.json()) as { access_token: string }
  editorToken = token
  const [workspace] = await call<{ id: number }[]>(token, 'workspace/list')
  workspaceId = workspace!.id

  account = fake.addAmo('clinic-e2e')
  const amo = await call<{ id: number }>(token, 'amo/add', {
    workspace_id: workspaceId,
    name: 'Основная воронка',
    subdomain: account.subdomain,
    client_id: account.clientId,
    client_secret: account.clientSecret,
    redirect_uri: account.redirectUri,
    long_lived_token: fake.amoLongLivedToken(account),
  })
  amoId = amo.id

  const { id: projectId } = await call<{ id: number }>(token, 'project/add', {
    workspace_id: workspaceId,
    name: 'Запись к стоматологу',
  })
  await call(token, 'project/set_type', { project_id: projectId, type: 1 })
  const bgId = await addBackgroundApi(token, projectId, 160, 240, server.url)
  blockId = (
    await call<{ id: number }>(token, 'subscribe/add', {
      bg_id: bgId,
      x: 50,
      y: 50,
      zindex: 1,
      rotation: 0,
      specialist_id: null,
      date: '2030-05-01',
      action: 'Записаться',
    })
  ).id
  pageUrl = (await call<{ url: string }>(token, 'project/publish', { project_id: projectId })).url

  browser = await launchVisitorBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await fake?.close()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

describe('a visitor’s request', () => {
  it('reaches the editor’s open «Обращения» without a reload, and amoCRM', async () => {
    const office = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const phone = await phoneContext(browser)
    office.setDefaultTimeout(20_000)
    try {
      // The editor signs in and opens «Обращения»: nothing yet.
      const app = await office.newPage()
      await app.goto(`${server.url}/pages/login`)
      await submitLogin(app, editor)
      await app.waitForURL((url) => !url.pathname.startsWith('/pages/login'))
      await app.getByRole('navigation').getByRole('link', { name: 'Обращения' }).click()
      await app.getByText('Обращений пока нет').waitFor()
      // Gone if the page were loaded again.
      await app.evaluate(() => Object.assign(window, { __sameDocument: true }))
      const sameDocument = () =>
        app.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument === true)

      // A visitor on a phone opens the published page and sends the subscribe form.
      const site = await phone.newPage()
      await site.goto(pageUrl)
      await site.locator(`a[href="#form-${blockId}"]`).first().tap()
      const sheet = site.locator(`#form-${blockId}`)
      await sheet.waitFor({ state: 'visible' })
      await sheet.getByLabel('Ваше имя').fill(visitor.name)
      await sheet.getByLabel('Телефон').fill(visitor.phone)
      await sheet.getByLabel('Комментарий (необязательно)').fill('Лучше после обеда')
      await sheet.locator('input[name="consent"]').check()
      // The form has been open long enough not to be taken for a robot's.
      skew.ms += 5_000
      await sheet.getByRole('button', { name: 'Записаться' }).tap()
      await sheet.getByText('Спасибо! Заявка отправлена').waitFor()

      // The editor's list shows it, live, with its number in the navigation.
      const row = app.getByRole('listitem').filter({ hasText: visitor.name })
      await row.waitFor()
      expect(await row.textContent()).toContain('+7 912 345-67-89')
      expect(await row.getByTestId('row-status').textContent()).toBe('Новое')
      await app.getByTestId('nav-badge').filter({ hasText: '1' }).waitFor()
      expect(await sameDocument()).toBe(true)

      // amoCRM has the lead, and the request's page says it was delivered.
      await expect
        .poll(() => account.leads.map((lead) => lead.contacts[0]?.name), { timeout: 20_000 })
        .toEqual([visitor.name])
      await row.getByRole('button').first().click()
      const detail = app.getByTestId('appeal-detail')
      await detail.getByText('Лучше после обеда').waitFor()
      await detail.getByTestId('delivery').filter({ hasText: 'Доставлено' }).waitFor()
      // The list with a request open passes axe (WCAG 2.2 AA), as every screen does.
      expect(await seriousAccessibilityProblems(app)).toEqual([])

      // «В работе» goes through the outbox to the server; the badge empties.
      await detail.getByRole('button', { name: 'В работе' }).click()
      await expect
        .poll(async () => {
          const list = await call<{ status: string }[]>(
            editorToken,
            `appeal/list?workspace_id=${workspaceId}`,
          )
          return list[0]?.status
        })
        .toBe('in_work')
      await app.getByTestId('nav-badge').waitFor({ state: 'detached' })
      expect(await sameDocument()).toBe(true)
    } finally {
      await office.close()
      await phone.close()
    }
  })

  it('the amoCRM page shows its state and counts, checks it, and says what amoCRM’s redirect brought', async () => {
    const office = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    office.setDefaultTimeout(20_000)
    try {
      const app = await office.newPage()
      await app.goto(`${server.url}/pages/login`)
      await submitLogin(app, editor)
      await app.waitForURL((url) => !url.pathname.startsWith('/pages/login'))
      // As amoCRM sends the person back after they refused access.
      await app.goto(`${server.url}/integrations/amo/${amoId}?amo_oauth=denied`)
      const notice = app.getByTestId('amo-oauth-notice')
      await notice
        .getByText('Вы отказались предоставить доступ в amoCRM', { exact: false })
        .waitFor()
      await expect.poll(() => new URL(app.url()).search).toBe('')
      const state = app.getByTestId('integration-state')
      await state.getByTestId('integration-state-badge').filter({ hasText: 'Подключено' }).waitFor()
      await state.getByText('Доставлено: 1 · В очереди: 0 · Не доставлено: 0').waitFor()
      await state.getByRole('button', { name: 'Проверить' }).click()
      await state
        .getByTestId('integration-check')
        .getByText(account.name, { exact: false })
        .waitFor()
      expect(await seriousAccessibilityProblems(app)).toEqual([])
    } finally {
      await office.close()
    }
  })
})
