import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from 'playwright-core'

export const CHROMIUM_PATH = '/usr/bin/chromium'

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--enable-unsafe-swiftshader',
]

/** Debian's Chromium with no profile of its own: visitors, each in a fresh context. */
export function launchVisitorBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS })
}

/** A visitor's phone (390×844, touch, Russian), nothing of the editor's; `options` add to it. */
export async function phoneContext(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'ru-RU',
    ...options,
  })
  context.setDefaultTimeout(15_000)
  return context
}

export interface BrowserSession {
  context: BrowserContext
  page: Page
  /** The browser's profile directory (its processes carry it on their command line). */
  profile: string
  /** Closes the browser and deletes its profile directory. */
  close: () => Promise<void>
}

/**
 * Launches Debian's Chromium (never a downloaded browser) with a fresh profile, so service worker,
 * IndexedDB and localStorage start empty for every test file.
 */
export async function launchBrowser(
  options: { viewport?: { width: number; height: number }; locale?: string; timeout?: number } = {},
): Promise<BrowserSession> {
  const profile = await mkdtemp(join(tmpdir(), 'promo-e2e-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: options.viewport ?? { width: 1280, height: 800 },
    locale: options.locale ?? 'ru-RU',
  })
  // Fail a step in seconds, not Playwright's 30 s: the whole stage must stay within minutes.
  context.setDefaultTimeout(options.timeout ?? 15_000)
  const page = context.pages()[0] ?? (await context.newPage())
  let closed = false
  return {
    context,
    page,
    profile,
    close: async () => {
      if (closed) return
      closed = true
      await context.close().catch(() => undefined)
      await rm(profile, { recursive: true, force: true }).catch(() => undefined)
    },
  }
}
