import { inject } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import type { DemoAccount } from '../global-setup.ts'

/** Absolute URL of a path on the server under test. */
export function appUrl(path: string): string {
  return new URL(path, inject('baseUrl')).toString()
}

export function demoAccount(role: DemoAccount['role']): DemoAccount {
  const account = inject('accounts').find((a) => a.role === role)
  if (!account) throw new Error(`no demo account with role ${role}`)
  return account
}

/** The path and query of the page's URL, e.g. "/pages/login?to=%2Fdepartment". */
export function pathOf(page: Page): string {
  const url = new URL(page.url())
  return url.pathname + url.search
}

/** Fills the sign-in form already on screen and submits it with the keyboard. */
export async function submitLogin(page: Page, account: { email: string; password: string }) {
  await page.locator('input[name="email"]').fill(account.email)
  await page.locator('input[name="password"]').fill(account.password)
  await page.getByRole('button', { name: 'Войти' }).click()
}

/** Signs in through the login page and waits until the app has left it. */
export async function signIn(page: Page, account: { email: string; password: string }) {
  await page.goto(appUrl('/pages/login'))
  await submitLogin(page, account)
  await page.waitForURL((url) => !url.pathname.startsWith('/pages/login'))
}

/** Forgets the session and the local data of the origin (the service worker stays). */
export async function resetBrowserState(page: Page): Promise<void> {
  if (!page.url().startsWith(inject('baseUrl'))) await page.goto(appUrl('/pages/login'))
  await page.evaluate(async () => {
    localStorage.clear()
    sessionStorage.clear()
    // The service worker's own databases (workbox-expiration, behind the uploads and fonts caches)
    // stay with it: it keeps them open, so a delete would wait behind the previous one forever.
    const dbs = ((await indexedDB.databases?.()) ?? []).filter(
      (db) => !db.name?.startsWith('workbox-'),
    )
    await Promise.all(
      dbs.map(
        (db) =>
          new Promise<void>((resolve) => {
            if (!db.name) return resolve()
            const request = indexedDB.deleteDatabase(db.name)
            request.onsuccess = request.onerror = request.onblocked = () => resolve()
          }),
      ),
    )
  })
}

/** The sidebar link of a section; `aria-current="page"` marks the open one. */
export function navLink(page: Page, name: string) {
  return page.getByRole('navigation').getByRole('link', { name, exact: true })
}

/** Waits for the main layout with `section` open: the signed-in shell is on screen. */
export async function expectShell(page: Page, section: string): Promise<void> {
  await page.locator(`nav a[aria-current="page"]`, { hasText: section }).waitFor()
}

export async function goOffline(context: BrowserContext): Promise<void> {
  await context.setOffline(true)
}

export async function goOnline(context: BrowserContext): Promise<void> {
  await context.setOffline(false)
}

/**
 * Waits until the service worker is active and controls the page (the precache is then complete,
 * since activation follows a successful install).
 */
export async function waitForServiceWorker(page: Page, timeoutMs = 30_000): Promise<void> {
  // page.evaluate has no timeout of its own: race the wait against one.
  await page.evaluate(async (ms) => {
    const controlled = (async () => {
      await navigator.serviceWorker.ready
      if (navigator.serviceWorker.controller) return
      await new Promise<void>((resolve) => {
        navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), {
          once: true,
        })
      })
    })()
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`no service worker controls the page after ${ms} ms`)), ms),
    )
    await Promise.race([controlled, timeout])
  }, timeoutMs)
}
