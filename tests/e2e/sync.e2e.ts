import type { Page, Request } from 'playwright-core'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  appUrl,
  expectShell,
  goOffline,
  goOnline,
  signIn,
  waitForServiceWorker,
} from './helpers/app.ts'
import { launchBrowser, type BrowserSession } from './helpers/browser.ts'

/** Must match SYNC_TAG in src/sync/protocol.ts (the journey checks what the page registers). */
const SYNC_TAG = 'promo-builder-outbox'

interface Department {
  id: number
  name: string
}

// A fresh user per run: the server's departments are then only the ones this file creates.
let browser: BrowserSession | null = null
let credentials: { email: string; password: string }
let token: string
let workspaceId: number

async function api<T>(path: string): Promise<T> {
  const response = await fetch(appUrl(`/api${path}`), {
    headers: { Authorization: `Bearer ${token}` },
  })
  if (!response.ok) throw new Error(`${path}: ${response.status}`)
  return (await response.json()) as T
}

function unwrapList<T>(body: unknown): T[] {
  if (Array.isArray(body)) return body as T[]
  const record = body as Record<string, unknown>
  for (const value of Object.values(record)) if (Array.isArray(value)) return value as T[]
  throw new Error(`not a list: ${JSON.stringify(body).slice(0, 200)}`)
}

async function serverDepartmentNames(): Promise<string[]> {
  const body = await api<unknown>(`/department/list?workspace_id=${workspaceId}`)
  return unwrapList<Department>(body)
    .map((d) => d.name)
    .sort()
}

/** Creates a department through the form, starting on the list (works offline: local first). */
async function addDepartment(page: Page, name: string): Promise<void> {
  await page.getByRole('link', { name: 'Добавить отделение' }).first().click()
  await page.waitForURL((url) => url.pathname === '/department/add')
  await page.getByLabel('Название').fill(name)
  await page.getByRole('button', { name: 'Добавить', exact: true }).click()
  await page.waitForURL((url) => url.pathname === '/department')
  await page.getByText(name, { exact: true }).first().waitFor()
}

function isDepartmentAdd(request: Request): boolean {
  return request.method() === 'POST' && new URL(request.url()).pathname === '/api/department/add'
}

beforeAll(async () => {
  const email = `sync-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`
  const password = 'sync-journey-password'
  const registered = await fetch(appUrl('/api/register'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Синхронизация', email, password }),
  })
  expect(registered.status).toBe(200)
  token = ((await registered.json()) as { access_token: string }).access_token
  workspaceId = unwrapList<{ id: number }>(await api<unknown>('/workspace/list'))[0]!.id
  credentials = { email, password }
})

/**
 * A fresh profile per journey, signed in with the service worker in control: a Background Sync
 * registration left over from one journey (the browser retries a failed one minutes later) must
 * not decide the next.
 */
async function signedInBrowser(): Promise<BrowserSession> {
  browser = await launchBrowser()
  await signIn(browser.page, credentials)
  await waitForServiceWorker(browser.page)
  return browser
}

afterEach(async () => {
  await browser?.close()
  browser = null
})

describe('sync across tabs and the service worker', () => {
  it('two tabs offline: back online, each department reaches the server exactly once', async () => {
    const { context, page: first } = await signedInBrowser()
    await first.goto(appUrl('/department'))
    await expectShell(first, 'Отделения')
    const second = await context.newPage()
    await second.goto(appUrl('/department'))
    await expectShell(second, 'Отделения')

    // Requests from pages and their workers; a page's request passing through the service worker
    // shows up a second time as the worker's own fetch, so those are left out of the count.
    const adds: Request[] = []
    context.on('request', (request) => {
      if (isDepartmentAdd(request)) adds.push(request)
    })

    const names = ['Отделение вкладки 1', 'Отделение вкладки 2']
    await goOffline(context)
    try {
      await addDepartment(first, names[0]!)
      await addDepartment(second, names[1]!)
      // Both tabs see both (one mirror), still unsent.
      await first.getByText(names[1]!, { exact: true }).first().waitFor()
      await second.getByText(names[0]!, { exact: true }).first().waitFor()
      expect(adds).toHaveLength(0)
    } finally {
      await goOnline(context)
    }

    await expect.poll(serverDepartmentNames, { timeout: 20_000 }).toEqual([...names].sort())
    // Give a second replayer the time it would need to send a duplicate, then look again.
    await first.waitForTimeout(3_000)
    expect(await serverDepartmentNames()).toEqual([...names].sort())
    const bodies = adds
      .filter((request) => !request.serviceWorker())
      .map((request) => (request.postDataJSON() as { name: string }).name)
      .sort()
    expect(bodies).toEqual([...names].sort())
    await second.close()
  })

  it('a change made offline is replayed by the service worker after the page is closed', async () => {
    const { context, page } = await signedInBrowser()
    await page.goto(appUrl('/department'))
    await expectShell(page, 'Отделения')
    const name = 'Отделение из фоновой синхронизации'
    const adds: Request[] = []
    context.on('request', (request) => {
      if (isDepartmentAdd(request)) adds.push(request)
    })

    await goOffline(context)
    await addDepartment(page, name)
    // Queueing offline registers the Background Sync tag with the service worker.
    await expect
      .poll(
        () =>
          page.evaluate(async () => {
            const registration = (await navigator.serviceWorker
              .ready) as ServiceWorkerRegistration & {
              sync?: { getTags(): Promise<string[]> }
            }
            return (await registration.sync?.getTags()) ?? null
          }),
        { timeout: 5_000 },
      )
      .toContain(SYNC_TAG)

    // Keep the context (and with it the service worker) open, but no page of the app.
    const blank = await context.newPage()
    await page.close()
    expect(context.pages().every((p) => !p.url().startsWith(appUrl('/')))).toBe(true)
    await goOnline(context)
    // Chromium may have fired `sync` already while the context was only emulated offline; it then
    // retries minutes later. Fire the registered tag now, as DevTools does, so the journey checks
    // the service worker's replay rather than the browser's retry schedule.
    await dispatchSync(blank, SYNC_TAG)

    await expect.poll(serverDepartmentNames, { timeout: 20_000 }).toContain(name)
    expect((await serverDepartmentNames()).filter((n) => n === name)).toHaveLength(1)
    // Sent by the service worker (its `sync` event), since no page of the app was left.
    expect(adds.map((request) => Boolean(request.serviceWorker()))).toEqual([true])
  })
})

/** Fires the service worker's `sync` event for `tag` through the DevTools protocol. */
async function dispatchSync(page: Page, tag: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page)
  const origin = new URL(appUrl('/')).origin
  const registration = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => r.scopeURL.startsWith(origin) && !r.isDeleted)
      if (ours) resolve(ours.registrationId)
    })
  })
  await cdp.send('ServiceWorker.enable')
  const registrationId = await registration
  await cdp.send('ServiceWorker.dispatchSyncEvent', {
    origin,
    registrationId,
    tag,
    lastChance: false,
  })
  await cdp.detach()
}
