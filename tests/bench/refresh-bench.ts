/**
 * Mirror refresh of 10,000 rows in headless Chromium, against the reference server in this
 * process: the built app, signed in, opens the specialists screen of a workspace holding 10,000
 * specialists. The sync worker fetches the list and writes it into IndexedDB in one bulk
 * transaction; the screen's live query then shows it. Figures:
 *
 * - rows per second from opening the screen to all rows in the mirror (first fill, then a refresh
 *   in which the server changed every row);
 * - the longest main-thread task (Long Tasks API, which reports tasks of 50 ms and more; 0 means
 *   none) and the longest frame (gap between animation frames) over the same window plus the time
 *   the screen takes to render the result.
 *
 * The same refresh with 100 rows gives the baseline: opening the screen costs a main-thread task of
 * its own whatever the list's size (the Long Tasks API floor is 50 ms, used when it reports none).
 *
 * Compare them with each other, not with other machines (2 cores, no GPU). Run: `npm run bench refresh`.
 * `REFRESH_BENCH_ROWS` changes the 10,000 (the figures keep their names); `BENCH_SMOKE=1` (or
 * `{ smoke: true }`) refreshes 300 rows and leaves the screen 0.3 s to render them (seconds).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { openDatabase } from '../../server/db/database.ts'
import { DEMO_ACCOUNTS } from '../../server/seed.ts'
import { startServer } from '../../server/start.ts'
import { launchBrowser } from '../e2e/helpers/browser.ts'
import { ensureBuilt } from '../e2e/global-setup.ts'
import { isSmoke, type BenchOptions } from './smoke.ts'

/** How long after the mirror is full the window stays open, for the screen to render the rows. */
const RENDER_TAIL_MS = 1500

interface RefreshFigures {
  ms: number
  longestTaskMs: number
  longestFrameMs: number
}

declare global {
  interface Window {
    refreshBench: { longTasks: { start: number; duration: number }[]; frames: number[] }
  }
}

/** Recorded in every page from its first script: long tasks and the time of every frame. */
const RECORDER = `(() => {
  window.refreshBench = { longTasks: [], frames: [] }
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.refreshBench.longTasks.push({ start: e.startTime, duration: e.duration })
  }).observe({ type: 'longtask', buffered: true })
  const tick = (now) => { window.refreshBench.frames.push(now); requestAnimationFrame(tick) }
  requestAnimationFrame(tick)
})()`

export async function runRefreshBench(options: BenchOptions = {}): Promise<Record<string, number>> {
  const smoke = isSmoke(options)
  const rows = smoke ? 300 : Number(process.env.REFRESH_BENCH_ROWS ?? 10_000)
  const renderTailMs = smoke ? 300 : RENDER_TAIL_MS
  ensureBuilt()
  const dataDir = await mkdtemp(join(tmpdir(), 'refresh-bench-'))
  // A smoke run's database in memory: opened from a template, without initdb.
  const db = await openDatabase({ dataDir: smoke ? 'memory' : dataDir })
  const server = await startServer({
    port: 0,
    db,
    // The demo's pictures there too (not in ./data).
    dataDir: smoke ? 'memory' : dataDir,
    staticDir: join(import.meta.dirname, '../../dist'),
    seed: true,
  })
  const workspaceId = server.ready.seeded?.workspaceId
  if (!workspaceId) throw new Error('the demo workspace was not seeded')
  const browser = await launchBrowser({ viewport: { width: 1180, height: 820 }, timeout: 120_000 })
  const out: Record<string, number> = {}
  try {
    const { page } = browser
    await page.addInitScript(RECORDER)
    const account = DEMO_ACCOUNTS[0]!
    await page.goto(`${server.url}/pages/login`)
    await page.locator('input[name="email"]').fill(account.email)
    await page.locator('input[name="password"]').fill(account.password)
    await page.getByRole('button', { name: 'Войти' }).click()
    await page.waitForURL((url) => url.pathname.startsWith('/projects'))

    // A warm-up visit while the workspace has only the demo's few specialists: the screen's code is loaded and
    // rendered once, so the figures below are the refresh's, not a first visit's.
    await openSpecialists(page, await countOnServer(), null, renderTailMs)
    await leaveSpecialists(page)
    await db.query(
      `INSERT INTO specialists (workspace_id, name, position, phone)
       SELECT $1, 'Специалист ' || lpad(i::text, 5, '0'), 'Терапевт', '+7 900 000-00-00'
       FROM generate_series(1, $2) AS i`,
      [workspaceId, rows],
    )
    const total = await countOnServer()

    const fill = await openSpecialists(page, total, 'Терапевт', renderTailMs)
    report('new rows', total, fill)
    out.mirror_refresh_10k_fill_rows_per_s = total / (fill.ms / 1000)
    out.mirror_refresh_10k_fill_longest_task_ms = fill.longestTaskMs
    out.mirror_refresh_10k_fill_longest_frame_ms = fill.longestFrameMs

    // Every row changes on the server; leaving and opening the screen again refreshes it.
    await db.query(`UPDATE specialists SET position = 'Хирург' WHERE workspace_id = $1`, [
      workspaceId,
    ])
    await leaveSpecialists(page)
    const again = await openSpecialists(page, total, 'Хирург', renderTailMs)
    report('refresh of changed rows', total, again)
    out.mirror_refresh_10k_rows_per_s = total / (again.ms / 1000)
    out.mirror_refresh_10k_longest_task_ms = again.longestTaskMs
    out.mirror_refresh_10k_longest_frame_ms = again.longestFrameMs

    // The server deletes all but 100 of them; the refresh reflects the deletions.
    await db.query(
      `DELETE FROM specialists WHERE workspace_id = $1 AND id NOT IN
         (SELECT id FROM specialists WHERE workspace_id = $1 ORDER BY id DESC LIMIT 100)`,
      [workspaceId],
    )
    await leaveSpecialists(page)
    const removed = await openSpecialists(page, 100, 'Хирург', renderTailMs)
    report('deletions down to 100 rows', total - 100, removed)
    out.mirror_refresh_deleted_rows_per_s = (total - 100) / (removed.ms / 1000)

    // The baseline: the same refresh of changed rows with 100 of them.
    await db.query(`UPDATE specialists SET position = 'Кардиолог' WHERE workspace_id = $1`, [
      workspaceId,
    ])
    await leaveSpecialists(page)
    const small = await openSpecialists(page, 100, 'Кардиолог', renderTailMs)
    report('refresh of 100 changed rows', 100, small)
    out.mirror_refresh_100_longest_task_ms = small.longestTaskMs
    out.mirror_refresh_longest_task_ratio_10k_vs_100 =
      again.longestTaskMs / Math.max(small.longestTaskMs, 50)
  } finally {
    await browser.close()
    await server.close()
    await db.close()
    await rm(dataDir, { recursive: true, force: true })
  }
  return out

  async function countOnServer(): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM specialists WHERE workspace_id = $1',
      [workspaceId],
    )
    return rows[0]!.n
  }
}

async function leaveSpecialists(page: Page): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name: 'Проекты', exact: true }).click()
  await page.waitForURL((url) => url.pathname.startsWith('/projects'))
}

function report(label: string, rows: number, f: RefreshFigures): void {
  console.log(
    `${label}: ${rows} rows in ${f.ms.toFixed(0)} ms (${((rows / f.ms) * 1000).toFixed(0)} rows/s), ` +
      `longest main-thread task ${f.longestTaskMs.toFixed(0)} ms, longest frame ${f.longestFrameMs.toFixed(0)} ms`,
  )
}

/**
 * Opens the specialists screen from the sidebar and waits until the mirror holds `rows` specialists
 * whose position is `position`, read straight from IndexedDB.
 */
async function openSpecialists(
  page: Page,
  rows: number,
  position: string | null,
  renderTailMs: number,
): Promise<RefreshFigures> {
  const started = await page.evaluate(() => performance.now())
  await page.getByRole('navigation').getByRole('link', { name: 'Специалисты', exact: true }).click()
  // A string, not a function: tsx would wrap named functions in a helper the page does not have.
  const done = (await page.evaluate(`new Promise((resolve, reject) => {
    const open = indexedDB.open('promo-builder')
    open.onerror = () => reject(open.error)
    open.onsuccess = () => {
      const idb = open.result
      // Cheap reads only (a count and the last row), so the polling adds no main-thread work of
      // its own: the worker writes all rows in one transaction, so the last row tells for all.
      const poll = () => {
        const store = idb.transaction('specialist').objectStore('specialist')
        const count = store.count()
        const last = store.openCursor(null, 'prev')
        last.onsuccess = () => {
          const row = last.result && last.result.value
          if (count.result === ${rows} && (${JSON.stringify(position)} === null || (row && row.position === ${JSON.stringify(position)}))) {
            idb.close()
            resolve(performance.now())
          } else setTimeout(poll, 50)
        }
        last.onerror = () => reject(last.error)
      }
      poll()
    }
  })`)) as number
  await page.waitForTimeout(renderTailMs)
  if (rows > 0) await page.getByRole('listitem').first().waitFor()
  const { longTasks, frames } = await page.evaluate(() => window.refreshBench)
  const end = done + renderTailMs
  const longestTaskMs = Math.max(
    0,
    ...longTasks
      .filter((t) => t.start + t.duration >= started && t.start <= end)
      .map((t) => t.duration),
  )
  let longestFrameMs = 0
  const inWindow = frames.filter((f) => f >= started && f <= end)
  for (let i = 1; i < inWindow.length; i += 1)
    longestFrameMs = Math.max(longestFrameMs, inWindow[i]! - inWindow[i - 1]!)
  return { ms: done - started, longestTaskMs, longestFrameMs }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await runRefreshBench())
}
