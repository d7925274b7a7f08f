import type { Locator, Page } from 'playwright-core'
import { expect, inject } from 'vitest'
import {
  faultOnce,
  randomPolicy,
  seededRandom,
  startFaultProxy,
  type Fault,
  type FaultPolicy,
  type FaultProxy,
} from '../../support/fault-proxy.ts'
import { submitLogin } from './app.ts'
import { outboxEmptied } from './editor.ts'

/**
 * The browser on a flaky network: a fault proxy (tests/support/fault-proxy.ts) in front of the e2e
 * server, and the browser pointed at the proxy. Only the API's writes are faulted (the app's files
 * and every read pass), at a moderate rate drawn from a seed (`FAULT_SEED`, default 1).
 */
export const BROWSER_FAULTS: Partial<Record<Exclude<Fault, 'pass'>, number>> = {
  'drop-request': 0.04,
  'drop-response': 0.05,
  'status-500': 0.02,
  'status-502': 0.02,
  'status-429': 0.02,
  duplicate: 0.03,
  'stale-duplicate': 0.04,
  delay: 0.02,
  truncated: 0.02,
  'html-200': 0.01,
  'wrong-type': 0.01,
}

export const isWrite = (r: { method: string; path: string }) =>
  r.path.startsWith('/api/') && r.method !== 'GET' && r.method !== 'HEAD'

export interface BrowserFaults {
  proxy: FaultProxy
  /** A URL of the app through the proxy (the origin the browser uses). */
  url(path: string): string
  /**
   * Faults on from now: the first write's first try loses its answer (so every journey meets at
   * least one fault), then the seeded rates. Returns how many faults fired since.
   */
  storm(): () => number
  calm(): void
}

export async function startBrowserFaults(): Promise<BrowserFaults> {
  const seed = Number(process.env.FAULT_SEED ?? 1)
  const random = seededRandom(seed)
  const proxy = await startFaultProxy(inject('baseUrl'), () => 'pass', { delayMs: 300 })
  const faultsFired = () =>
    Object.entries(proxy.stats)
      .filter(([name]) => !['pass', 'forwarded', 'offline', 'stale-redelivered'].includes(name))
      .reduce((sum, [, count]) => sum + count, 0)
  return {
    proxy,
    url: (path) => new URL(path, proxy.url).toString(),
    storm() {
      const rates: FaultPolicy = randomPolicy(random, BROWSER_FAULTS, { mutationsOnly: true })
      proxy.setPolicy(faultOnce('drop-response', isWrite, rates))
      const before = faultsFired()
      return () => faultsFired() - before
    },
    calm() {
      proxy.setPolicy(() => 'pass')
    },
  }
}

/** Signs in on the proxy's origin and waits until the app has left the sign-in page. */
export async function signInThrough(
  faults: BrowserFaults,
  page: Page,
  account: { email: string; password: string },
) {
  await page.goto(faults.url('/pages/login'))
  await submitLogin(page, account)
  await page.waitForURL((url) => !url.pathname.startsWith('/pages/login'))
}

/**
 * Waits until the outbox is empty (read from IndexedDB: every change was answered) and the
 * header says «Всё сохранено».
 */
export async function allSaved(page: Page, timeout = 45_000): Promise<void> {
  await outboxEmptied(page, timeout)
  await page.getByText('Всё сохранено').first().waitFor({ timeout })
}

/**
 * Everything is saved (see `allSaved`, on each page given); then the writes the proxy held back
 * (`stale-duplicate`) arrive late, after all the rest: they must change nothing on the server, and
 * each must be answered as the first time.
 */
export async function settled(faults: BrowserFaults, ...pages: Page[]): Promise<void> {
  for (const page of pages) await allSaved(page)
  await faults.proxy.redeliverHeld()
  expect(faults.proxy.anomalies).toEqual([])
}

/** A row of a visible list, found by the text it shows. */
export function listRow(page: Page, list: string, text: string): Locator {
  return page.getByRole('list', { name: list }).getByRole('listitem').filter({ hasText: text })
}

/** The form's field by its name attribute. */
export function formField(page: Page, name: string): Locator {
  return page.locator(`form [name="${name}"]:not([type="hidden"])`)
}
