/**
 * The first load of /projects as it crosses the wire (docs/performance.md): headless Chromium opens
 * the app through a proxy that adds 150 ms per request and shares 1.6 Mbit/s across all responses
 * (tests/support/wire-proxy.ts), for a signed-in user with 300 projects. Each round makes four
 * visits, in this order: cold (HTTP cache, service worker, caches and the mirror cleared, the token
 * kept), repeat (everything warm), offline (no network) and lie-fi (connections accepted, API calls
 * never answered). Medians and spreads of 5 rounds.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureBuilt } from '../e2e/global-setup.ts'
import { launchBrowser } from '../e2e/helpers/browser.ts'
import { startServer } from '../../server/start.ts'
import {
  coldVisit,
  medianAndSpread,
  serviceWorkerInControl,
  visit,
  watchFirstRow,
  type Visit,
} from '../support/first-load.ts'
import { WireProxy } from '../support/wire-proxy.ts'

const ROUNDS = Number(process.env.FIRSTLOAD_ROUNDS ?? 5)
const PROJECTS = 300
const root = join(import.meta.dirname, '../..')

export async function runFirstLoadBench(): Promise<Record<string, number>> {
  ensureBuilt()
  const dataDir = await mkdtemp(join(tmpdir(), 'firstload-bench-'))
  const server = await startServer({
    port: 0,
    staticDir: join(root, 'dist'),
    dataDir,
    loginLimit: { attempts: 1000, windowMs: 60_000 },
  })
  const proxy = new WireProxy({ target: server.url })
  await proxy.start()
  const browser = await launchBrowser({ timeout: 60_000 })
  try {
    const account = await seedAccount(server.url, PROJECTS)
    await watchFirstRow(browser.context)
    proxy.throttled = false
    await signInThrough(browser.page, proxy.url, account)
    await visit(browser.page, proxy)
    proxy.throttled = true

    const runs: Record<string, number[]> = {}
    const note = (key: string, value: number) => (runs[key] ??= []).push(value)
    for (let round = 1; round <= ROUNDS; round++) {
      const cold = await coldVisit(browser.page, proxy)
      note('cold_js_kib_before_first_row', cold.jsKiB)
      note('cold_css_kib_before_first_row', cold.cssKiB)
      note('cold_requests_before_first_row', cold.requests)
      note('cold_first_row_ms', cold.firstRowMs)
      if (round === 1) printResponses(cold)
      await serviceWorkerInControl(browser.page)
      await settle(proxy)

      const repeat = await visit(browser.page, proxy)
      note('repeat_first_row_ms', repeat.firstRowMs)
      note('repeat_kib_before_first_row', repeat.jsKiB + repeat.cssKiB + repeat.otherKiB)
      await settle(proxy)

      proxy.setMode('offline')
      await browser.context.setOffline(true)
      note('offline_first_row_ms', (await visit(browser.page, proxy)).firstRowMs)
      await browser.context.setOffline(false)

      proxy.setMode('liefi')
      note('liefi_first_row_ms', (await visit(browser.page, proxy)).firstRowMs)
      proxy.setMode('online')
      console.log(
        `round ${round}: cold ${cold.jsKiB.toFixed(1)} KiB JS, ${cold.cssKiB.toFixed(1)} KiB CSS, ` +
          `${cold.requests} requests, first row ${fmt(cold.firstRowMs)}; repeat ` +
          `${fmt(repeat.firstRowMs)}; offline ${fmt(runs.offline_first_row_ms!.at(-1)!)}; ` +
          `lie-fi ${fmt(runs.liefi_first_row_ms!.at(-1)!)}`,
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
    await rm(dataDir, { recursive: true, force: true })
  }
}

const fmt = (ms: number) => `${ms.toFixed(0)} ms`

/** Waits until nothing is crossing the wire for a while (the precache, the mirror's refresh). */
async function settle(proxy: WireProxy): Promise<void> {
  let last = -1
  for (;;) {
    const count = proxy.responses.filter((r) => r.doneAt == null).length + proxy.responses.length
    if (count === last) return
    last = count
    await new Promise((resolve) => setTimeout(resolve, 1_000))
  }
}

function printResponses(cold: Visit): void {
  console.log('cold visit, what crossed before the first row:')
  for (const r of cold.responses) {
    if (r.bytes === 0 && r.type === 'other') continue
    console.log(`  ${(r.bytes / 1024).toFixed(1).padStart(6)} KiB  ${r.type.padEnd(5)} ${r.path}`)
  }
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

async function signInThrough(
  page: Awaited<ReturnType<typeof launchBrowser>>['page'],
  origin: string,
  account: Account,
): Promise<void> {
  await page.goto(new URL('/pages/login', origin).toString())
  await page.locator('input[name="email"]').fill(account.email)
  await page.locator('input[name="password"]').fill(account.password)
  await page.getByRole('button', { name: 'Войти' }).click()
  await page.waitForURL((url) => !url.pathname.startsWith('/pages/login'))
}
