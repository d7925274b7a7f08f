/**
 * The first load of /projects as it crosses the wire (docs/performance.md): headless Chromium opens
 * the app through a proxy that adds 150 ms per request and shares 1.6 Mbit/s across all responses
 * (tests/support/wire-proxy.ts), for a signed-in user with 300 projects. Each round makes four
 * visits, in this order: cold (HTTP cache, service worker, caches and the mirror cleared, the token
 * kept), repeat (everything warm), offline (no network) and lie-fi (connections accepted, API calls
 * never answered); then a cold visit of a new account with one project. Both cold visits are also
 * counted to the first screen's end (the link idle for 500 ms after the first row, the header
 * drawn). Medians and spreads of 5 rounds (`FIRSTLOAD_ROUNDS`). `BENCH_SMOKE=1` (or
 * `{ smoke: true }`): one round, 20 projects, the link 10 ms and 100 Mbit/s (seconds).
 */
import type { Page } from 'playwright-core'
import { launchBrowser } from '../e2e/helpers/browser.ts'
import {
  coldVisit,
  medianAndSpread,
  serviceWorkerInControl,
  visit,
  watchFirstRow,
  type FirstScreen,
  type Visit,
} from '../support/first-load.ts'
import { WireProxy } from '../support/wire-proxy.ts'
import { benchServer } from './bench-server.ts'
import { isSmoke, type BenchOptions } from './smoke.ts'

export interface FirstLoadBenchOptions extends BenchOptions {
  /**
   * A reference server already serving the test build (benchServer), instead of one of its own
   * over the shipped build (the bytes differ by the editor's test hooks, none of them loaded here).
   */
  baseUrl?: string
}

export async function runFirstLoadBench(
  options: FirstLoadBenchOptions = {},
): Promise<Record<string, number>> {
  const smoke = isSmoke(options)
  const rounds = smoke ? 1 : Number(process.env.FIRSTLOAD_ROUNDS ?? 5)
  const projects = smoke ? 20 : 300
  // How often the link is looked at until nothing crosses it.
  const settleStepMs = smoke ? 250 : 1_000
  const server = await benchServer('production', 'firstload', options.baseUrl)
  const proxy = new WireProxy({
    target: server.url,
    ...(smoke ? { latencyMs: 10, bitsPerSecond: 100e6 } : {}),
  })
  await proxy.start()
  const browser = await launchBrowser({ timeout: 60_000 })
  try {
    const account = await seedAccount(server.url, projects)
    const newcomer = await seedAccount(server.url, 1)
    await watchFirstRow(browser.context)
    proxy.throttled = false
    // Each account signed in once; its stored session is put back before each of its visits.
    await signInThrough(browser.page, proxy.url, newcomer)
    await visit(browser.page, proxy)
    const newcomerSession = await storedSession(browser.page)
    await clearStoredSession(browser.page)
    await signInThrough(browser.page, proxy.url, account)
    await visit(browser.page, proxy)
    const accountSession = await storedSession(browser.page)
    proxy.throttled = true

    const runs: Record<string, number[]> = {}
    const note = (key: string, value: number) => (runs[key] ??= []).push(value)
    for (let round = 1; round <= rounds; round++) {
      await restoreSession(browser.page, proxy, accountSession)
      const cold = await coldVisit(browser.page, proxy, '/projects', { toFirstScreenEnd: true })
      note('cold_js_kib_before_first_row', cold.jsKiB)
      note('cold_css_kib_before_first_row', cold.cssKiB)
      note('cold_requests_before_first_row', cold.requests)
      note('cold_first_row_ms', cold.firstRowMs)
      const screen = counted(cold.firstScreen, `${projects} projects`)
      note('cold_js_kib_first_screen', screen.jsKiB)
      note('cold_css_kib_first_screen', screen.cssKiB)
      note('cold_requests_first_screen', screen.requests)
      note('cold_first_screen_ms', screen.ms)
      if (round === 1) printResponses(cold)
      await serviceWorkerInControl(browser.page)
      await settle(proxy, settleStepMs)

      const repeat = await visit(browser.page, proxy)
      note('repeat_first_row_ms', repeat.firstRowMs)
      note('repeat_kib_before_first_row', repeat.jsKiB + repeat.cssKiB + repeat.otherKiB)
      await settle(proxy, settleStepMs)

      proxy.setMode('offline')
      await browser.context.setOffline(true)
      note('offline_first_row_ms', (await visit(browser.page, proxy)).firstRowMs)
      await browser.context.setOffline(false)

      proxy.setMode('liefi')
      note('liefi_first_row_ms', (await visit(browser.page, proxy)).firstRowMs)
      proxy.setMode('online')

      // A new account with one project, cold: its first screen to its end.
      await restoreSession(browser.page, proxy, newcomerSession)
      const fresh = await coldVisit(browser.page, proxy, '/projects', { toFirstScreenEnd: true })
      const freshScreen = counted(fresh.firstScreen, 'one project')
      note('cold_first_row_ms_one_project', fresh.firstRowMs)
      note('cold_js_kib_first_screen_one_project', freshScreen.jsKiB)
      note('cold_css_kib_first_screen_one_project', freshScreen.cssKiB)
      note('cold_first_screen_ms_one_project', freshScreen.ms)
      if (round === 1) printResponses(fresh)
      console.log(
        `round ${round}: cold ${cold.jsKiB.toFixed(1)} KiB JS, ${cold.cssKiB.toFixed(1)} KiB CSS, ` +
          `${cold.requests} requests, first row ${fmt(cold.firstRowMs)}; first screen ` +
          `${screen.jsKiB.toFixed(1)} KiB JS, ${screen.cssKiB.toFixed(1)} KiB CSS at ` +
          `${fmt(screen.ms)}; repeat ${fmt(repeat.firstRowMs)}; offline ` +
          `${fmt(runs.offline_first_row_ms!.at(-1)!)}; lie-fi ` +
          `${fmt(runs.liefi_first_row_ms!.at(-1)!)}; one project: first row ` +
          `${fmt(fresh.firstRowMs)}, first screen ${freshScreen.jsKiB.toFixed(1)} KiB JS, ` +
          `${freshScreen.cssKiB.toFixed(1)} KiB CSS at ${fmt(freshScreen.ms)}`,
      )
    }
    const out: Record<string, number> = {}
    for (const [key, values] of Object.entries(runs)) {
      const { median, spread } = medianAndSpread(values)
      out[key] = median
      console.log(`${key}: median ${median.toFixed(1)}, spread ${spread.toFixed(1)}`)
    }
    out.liefi_vs_offline_ratio = out.liefi_first_row_ms! / out.offline_first_row_ms!
    return out
  } finally {
    await browser.close()
    await proxy.close()
    await server.close()
  }
}

const fmt = (ms: number) => `${ms.toFixed(0)} ms`

/** Waits until nothing is crossing the wire for a while (the precache, the mirror's refresh). */
async function settle(proxy: WireProxy, stepMs: number): Promise<void> {
  let last = -1
  for (;;) {
    const count = proxy.responses.filter((r) => r.doneAt == null).length + proxy.responses.length
    if (count === last) return
    last = count
    await new Promise((resolve) => setTimeout(resolve, stepMs))
  }
}

/** The first screen's count; a count of no JS or no CSS means the bench counted nothing: it stops. */
function counted(screen: FirstScreen | undefined, who: string): FirstScreen {
  if (!screen || screen.jsKiB <= 0 || screen.cssKiB <= 0) {
    throw new Error(
      `the first screen (${who}) counted ${screen?.jsKiB ?? 0} KiB of JS and ` +
        `${screen?.cssKiB ?? 0} KiB of CSS: nothing was counted at the wire`,
    )
  }
  return screen
}

function printResponses(cold: Visit): void {
  const print = (responses: Visit['responses']) => {
    for (const r of responses) {
      if (r.bytes === 0 && r.type === 'other') continue
      const at = `+${r.requestedAt - (responses[0]?.requestedAt ?? 0)} ms`
      console.log(
        `  ${(r.bytes / 1024).toFixed(1).padStart(6)} KiB  ${r.type.padEnd(5)} ${at.padStart(9)}  ${r.path}`,
      )
    }
  }
  console.log('cold visit, what crossed before the first row:')
  print(cold.responses)
  if (cold.firstScreen) {
    console.log('to the first screen’s end:')
    print(cold.firstScreen.responses)
  }
}

type Session = Record<string, string>

/** The signed-in person's localStorage (the token, the user, the role). */
async function storedSession(page: Page): Promise<Session> {
  return page.evaluate(() => ({ ...localStorage }) as Record<string, string>)
}

async function clearStoredSession(page: Page): Promise<void> {
  await page.evaluate(() => localStorage.clear())
}

/** Puts an account's stored session back, from a static file of the app's origin. */
async function restoreSession(page: Page, proxy: WireProxy, session: Session): Promise<void> {
  proxy.throttled = false
  await page.goto(new URL('/favicon.svg', proxy.url).toString())
  await page.evaluate((stored) => {
    localStorage.clear()
    for (const [key, value] of Object.entries(stored)) localStorage.setItem(key, value)
  }, session)
  proxy.throttled = true
}

interface Account {
  email: string
  password: string
}

/** A new account whose workspace holds `projects` projects. */
async function seedAccount(origin: string, projects: number): Promise<Account> {
  const account = {
    name: 'Замер',
    email: `firstload-${Date.now()}@example.com`,
    password: 'firstload-pass-1',
  }
  const call = async (path: string, token?: string, body?: unknown) => {
    const response = await fetch(new URL(`/api/${path}`, origin), {
      method: body ? 'POST' : 'GET',
      headers: {
        'Content-Type': 'application/json',
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    })
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`)
    return response.json() as Promise<Record<string, unknown> & { id: number }[]>
  }
  const { access_token: token } = (await call('register', undefined, account)) as unknown as {
    access_token: string
  }
  const [workspace] = (await call('workspace/list', token)) as { id: number }[]
  for (let i = 1; i <= projects; i++) {
    await call('project/add', token, { workspace_id: workspace!.id, name: `Проект ${i}` })
  }
  return account
}

async function signInThrough(page: Page, origin: string, account: Account): Promise<void> {
  await page.goto(new URL('/pages/login', origin).toString())
  await page.locator('input[name="email"]').fill(account.email)
  await page.locator('input[name="password"]').fill(account.password)
  await page.getByRole('button', { name: 'Войти' }).click()
  await page.waitForURL((url) => !url.pathname.startsWith('/pages/login'))
}
