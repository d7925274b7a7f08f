import type { BrowserContext, Page } from 'playwright-core'
import type { WireProxy, WireResponse } from './wire-proxy.ts'

/**
 * Visits of /projects through the wire proxy, for the first-load benchmark and its browser journey
 * (docs/performance.md). A visit records when the first project row entered the DOM (a mutation
 * observer installed before any script of the page runs) and what crossed the wire until then.
 */

declare global {
  interface Window {
    /** performance.now() when the first row of the page's record list entered the DOM. */
    __firstRowMs?: number
  }
}

/** The first row of a list page's record list (src/ui/record-list.tsx, e.g. «Проекты»). */
export const FIRST_ROW_SELECTOR = '[role="list"][aria-label] [role="listitem"]'

/** Installed in every page of the context: notes the first row's arrival, once per document. */
export async function watchFirstRow(context: BrowserContext): Promise<void> {
  await context.addInitScript((selector: string) => {
    if (window.top !== window) return
    const observer = new MutationObserver(() => {
      if (window.__firstRowMs != null || !document.querySelector(selector)) return
      window.__firstRowMs = performance.now()
      observer.disconnect()
    })
    observer.observe(document, { childList: true, subtree: true })
  }, FIRST_ROW_SELECTOR)
}

export interface Visit {
  /** From navigation start to the first row in the DOM. */
  firstRowMs: number
  /** KiB of each type that crossed the wire from navigation start until the first row. */
  jsKiB: number
  cssKiB: number
  otherKiB: number
  requests: number
  /** The responses that had started by the first row, with the bytes of each delivered by then. */
  responses: WireResponse[]
  /** The first screen to its end (`visit`'s `toFirstScreenEnd`), counted the same way. */
  firstScreen?: FirstScreen
}

/**
 * The first screen counted to its end (docs/performance.md): from navigation start until the link
 * has been idle for `FIRST_SCREEN_IDLE_MS` after the first row, with the header drawn (the current
 * workspace's name in the switcher, the sync status and the account menu's button).
 */
export interface FirstScreen {
  /** From navigation start to the last activity on the link before it fell idle. */
  ms: number
  jsKiB: number
  cssKiB: number
  otherKiB: number
  requests: number
  responses: WireResponse[]
}

export const FIRST_SCREEN_IDLE_MS = 500

/** The header drawn with its closed menus: the workspace's name shown, the status, the account. */
function headerDrawn(): boolean {
  const switcher = document.querySelector<HTMLElement>('[data-testid="workspace-switcher"]')
  const name =
    switcher instanceof HTMLSelectElement
      ? switcher.selectedOptions[0]?.textContent
      : switcher?.textContent
  return (
    !!name?.trim() &&
    document.querySelector('header [data-testid="sync-status"]') != null &&
    document.querySelector('header button[aria-haspopup="menu"]') != null
  )
}

/** Waits, after the first row, for the header to be drawn and the link to be idle, then counts. */
async function firstScreenEnd(page: Page, proxy: WireProxy, origin: number): Promise<FirstScreen> {
  const deadline = Date.now() + 60_000
  let drawn = false
  for (;;) {
    if (Date.now() > deadline) throw new Error('the first screen did not end within 60 s')
    drawn ||= await page.evaluate(headerDrawn)
    const idle = proxy.idleSince()
    if (drawn && idle != null && Date.now() - idle >= FIRST_SCREEN_IDLE_MS) {
      const sums = proxy.bytesUntil(idle)
      return {
        ms: idle - origin,
        jsKiB: sums.js / 1024,
        cssKiB: sums.css / 1024,
        otherKiB: sums.other / 1024,
        requests: sums.requests,
        responses: proxy.responsesUntil(idle),
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

export interface VisitOptions {
  /** Also wait for the first screen's end and count it (`Visit.firstScreen`). */
  toFirstScreenEnd?: boolean
}

/** Opens `path` through the proxy and waits for the first row of its list. */
export async function visit(
  page: Page,
  proxy: WireProxy,
  path = '/projects',
  options: VisitOptions = {},
): Promise<Visit> {
  proxy.reset()
  await page.goto(new URL(path, proxy.url).toString(), { waitUntil: 'commit' })
  await page.waitForFunction(() => window.__firstRowMs != null, null, { timeout: 60_000 })
  const { firstRowMs, origin } = await page.evaluate(() => ({
    firstRowMs: window.__firstRowMs!,
    origin: performance.timeOrigin,
  }))
  const until = origin + firstRowMs
  const sums = proxy.bytesUntil(until)
  return {
    firstRowMs,
    jsKiB: sums.js / 1024,
    cssKiB: sums.css / 1024,
    otherKiB: sums.other / 1024,
    requests: sums.requests,
    responses: proxy.responsesUntil(until),
    firstScreen: options.toFirstScreenEnd ? await firstScreenEnd(page, proxy, origin) : undefined,
  }
}

/**
 * A cold visit of a signed-in user: the HTTP cache, the service worker, the caches and IndexedDB
 * (the mirror) of the proxy's origin are cleared, localStorage (the stored token) stays, so the
 * shell comes from the network and the mirror fills from the API.
 */
export async function coldVisit(
  page: Page,
  proxy: WireProxy,
  path = '/projects',
  options: VisitOptions = {},
): Promise<Visit> {
  await page.goto('about:blank')
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.clearBrowserCache')
  await cdp.send('Storage.clearDataForOrigin', {
    origin: proxy.url,
    storageTypes: 'service_workers,cache_storage,indexeddb',
  })
  await cdp.detach()
  return visit(page, proxy, path, options)
}

/** Waits until a service worker is active and controls the page (its precache complete). */
export async function serviceWorkerInControl(page: Page, timeoutMs = 60_000): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, {
    timeout: timeoutMs,
    polling: 100,
  })
}

/** Median and spread (max − min) of some figures. */
export function medianAndSpread(values: number[]): { median: number; spread: number } {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
  return { median, spread: sorted[sorted.length - 1]! - sorted[0]! }
}
