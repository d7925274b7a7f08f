import { describe, expect, it } from 'vitest'
import { runAnalyticsBench } from '../bench/analytics-bench.ts'
import { runEventsBench } from '../bench/events-bench.ts'
import { runKeptListBench } from '../bench/kept-list-bench.ts'
import { runOutboxBench } from '../bench/outbox-bench.ts'
import { runPublishedBench } from '../bench/published-bench.ts'
import { runRequestsBench } from '../bench/requests-bench.ts'
import { runServerLoadFigures } from '../bench/server-bench.ts'
import { runUploadBench } from '../bench/upload-bench.ts'
import { expectFigures, type FigureRules } from '../support/bench-figures.ts'

/**
 * Each benchmark of the server and the sync engine in its smoke mode (README.md, "Benchmarks"):
 * tiny sizes, seconds. A benchmark that no longer runs, or no longer reports one of its figures, or
 * reports one that says it measured nothing, is seen the day it breaks, not the next time someone
 * measures. The values themselves are not judged here. The browser's benchmarks have theirs in
 * tests/e2e/bench-smoke.e2e.ts.
 */
const positive = (...names: string[]): FigureRules => names.map((name) => [name, 'positive'])

describe('benchmarks still run', () => {
  it('published: a page and its static twin under load, and a page of 200 blocks rendered', async () => {
    const figures = await runPublishedBench({ smoke: true, renderer: 'source' })
    expectFigures(
      figures,
      positive(
        'published_rps_ratio_vs_static',
        'published_render_ms_200_blocks',
        'published_html_kib_200_blocks',
      ),
    )
    expect(figures.published_html_kib_200_blocks).toBeGreaterThan(10)
  }, 120_000)

  it('analytics: views counted under load, a restart, and the summary', async () => {
    const figures = await runAnalyticsBench({ smoke: true })
    expectFigures(figures, [
      ...positive('analytics_views_per_s', 'analytics_api_p50_ratio', 'analytics_summary_ms'),
      // Every view answered is counted, across the restart too (docs/analytics.md).
      ['analytics_views_lost', 'zero'],
    ])
  }, 180_000)

  it('requests: submissions through the page route, delivered to the fake CRMs', async () => {
    const figures = await runRequestsBench({ smoke: true })
    expectFigures(figures, [
      ['load_average_1m', 'nonNegative'],
      ...positive(
        'db_select_1_ms',
        'submit_p99_cold_ms',
        'submit_p50_ms',
        'submit_p99_ms',
        'crm_delivery_ms_p50',
        'crm_delivery_ms_p99',
        'faults_requests',
        'faults_crm_calls',
        // A fifth of some 150 calls fail: none failing means the faults were never made.
        'faults_failed_calls',
      ),
      ['submit_failures', 'zero'],
      ['faults_lost', 'zero'],
      ['faults_duplicated', 'zero'],
    ])
  }, 180_000)

  it('events: streams of a shared workspace and two writers, beside another person’s list', async () => {
    const figures = await runEventsBench({ smoke: true })
    expectFigures(figures, [
      ...positive(
        'events_fanout_p50_ratio_30_streams',
        'events_fanout_idle_p50_ms',
        'events_fanout_writers_p50_ms',
        'events_fanout_loaded_p50_ms',
        'events_fanout_delivered_share',
      ),
      // One round: no spread.
      ['events_fanout_p50_ratio_spread', 'nonNegative'],
    ])
    // Every stream got every event of the writes, once.
    expect(figures.events_fanout_delivered_share).toBe(1)
  }, 180_000)

  it('outbox: edits flushed by the product beside one request per edit, and a live session', async () => {
    const figures = await runOutboxBench({ smoke: true })
    expectFigures(
      figures,
      positive(
        'outbox_requests_200_edits_20_blocks',
        'outbox_requests_200_live_edits_20_blocks',
        'outbox_flush_speedup_vs_naive_150ms',
      ),
    )
    // Two rounds of edits over one block of each type: the product sends fewer requests than edits.
    expect(figures.outbox_requests_200_edits_20_blocks).toBeLessThan(14)
  }, 180_000)

  it('server: the load matrix on PGlite beside the bare handler, closed and open loop', async () => {
    const figures = await runServerLoadFigures({ smoke: true })
    // Each cell's figures, and its errors (none): closed loop at n connections, or open at a share.
    const cell = (at: string, errors: string, names: string[]): FigureRules => [
      ...positive(...names.map((name) => name.replace('@', at))),
      [errors.replace('@', at), 'zero'],
    ]
    const closed = (n: number) =>
      cell(`${n}_pglite`, 'server_errors_@', [
        'server_rps_@',
        'server_rps_ratio_vs_bare_@',
        'server_p50_ms_@',
        'server_p99_ms_@',
        'server_p50_ratio_vs_bare_@',
        'server_p99_ratio_vs_bare_@',
        // The processes' CPU counters moved.
        'server_cpu_ms_per_request_@',
        'bare_cpu_ms_per_request_@',
      ])
    const open = (share: number) =>
      cell(`open_${share}`, 'server_@_errors_pglite', [
        'server_@_offered_rps_pglite',
        'server_@_p50_ms_pglite',
        'server_@_p99_ms_pglite',
        'server_@_p99_over_p50_1_pglite',
        'bare_@_p99_over_p50_1_pglite',
      ])
    expectFigures(figures, [
      ...closed(1),
      ...closed(10),
      ...closed(50),
      ...open(25),
      ...open(50),
      ...positive('server_p99_50_over_p50_1_pglite', 'bare_p99_50_vs_p50_1_pglite'),
    ])
  }, 180_000)

  it('kept-list: a write into a kept list and its gzip, whole and from pieces', async () => {
    const figures = await runKeptListBench({ smoke: true })
    const ways = [
      'write_into_list',
      'whole_sync',
      'whole_async',
      'pieces_first',
      'pieces_after_update',
      'pieces_after_add',
    ]
    expectFigures(
      figures,
      ['departments', 'departments_4000', 'specialists'].flatMap((list) =>
        positive(
          `kept_list_${list}_bytes_whole`,
          `kept_list_${list}_bytes_pieces`,
          `kept_list_${list}_pieces_after_update`,
          ...ways.flatMap((way) => [
            `kept_list_${list}_${way}_cpu_ms`,
            `kept_list_${list}_${way}_thread_ms`,
          ]),
        ),
      ),
    )
  }, 60_000)

  it('uploads: parallel junk refused and videos stored, the server’s memory read', async () => {
    const figures = await runUploadBench({ smoke: true, print: false })
    expectFigures(figures, [
      // Streamed uploads may grow the peak by nothing measurable.
      ['upload_rss_growth_mb_4x95mb', 'nonNegative'],
      ['upload_rss_growth_mb_4x95mb_junk', 'nonNegative'],
      ['upload_rss_growth_mb_4x95mb_video', 'nonNegative'],
      ['upload_mb_per_s_4x95mb_video', 'positive'],
    ])
  }, 120_000)
})
