import { describe, expect } from 'vitest'
import { runAnalyticsBench } from '../bench/analytics-bench.ts'
import { runEventsBench } from '../bench/events-bench.ts'
import { runKeptListBench } from '../bench/kept-list-bench.ts'
import { runOutboxBench } from '../bench/outbox-bench.ts'
import { runPublishedBench } from '../bench/published-bench.ts'
import { runRequestsBench } from '../bench/requests-bench.ts'
import { runServerLoadFigures } from '../bench/server-bench.ts'
import { runUploadBench } from '../bench/upload-bench.ts'
import { all, smokeRuns, type FigureRules } from '../support/bench-figures.ts'

/**
 * Each benchmark of the server and the sync engine in its smoke mode (README.md, "Benchmarks"):
 * tiny sizes, seconds. A benchmark that no longer runs, or no longer reports one of its figures, or
 * reports one that says it measured nothing, is seen the day it breaks, not the next time someone
 * measures. The values themselves are not judged here. The browser's benchmarks have theirs in
 * tests/e2e/bench-smoke.e2e.ts.
 */

/** A cell of the load matrix: its figures (`@` where the cell's name goes) and its errors (none). */
const cell = (at: string, errors: string, names: string[]): FigureRules => [
  ...all('positive', ...names.map((name) => name.replace('@', at))),
  [errors.replace('@', at), 'zero'],
]
const closedLoop = (connections: number) =>
  cell(`${connections}_pglite`, 'server_errors_@', [
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
const openLoop = (share: number) =>
  cell(`open_${share}`, 'server_@_errors_pglite', [
    'server_@_offered_rps_pglite',
    'server_@_p50_ms_pglite',
    'server_@_p99_ms_pglite',
    'server_@_p99_over_p50_1_pglite',
    'bare_@_p99_over_p50_1_pglite',
  ])

const KEPT_LISTS = ['departments', 'departments_4000', 'specialists']
const KEPT_LIST_WAYS = [
  'write_into_list',
  'whole_sync',
  'whole_async',
  'pieces_first',
  'pieces_after_update',
  'pieces_after_add',
]

describe('benchmarks still run', () => {
  smokeRuns([
    {
      title: 'published: a page and its static twin under load, and a page of 200 blocks rendered',
      run: () => runPublishedBench({ smoke: true, renderer: 'source' }),
      figures: all(
        'positive',
        'published_rps_ratio_vs_static',
        'published_render_ms_200_blocks',
        'published_html_kib_200_blocks',
      ),
      check: (figures) => expect(figures.published_html_kib_200_blocks).toBeGreaterThan(10),
    },
    {
      title: 'analytics: views counted under load, a restart, and the summary',
      run: () => runAnalyticsBench({ smoke: true }),
      figures: [
        ...all(
          'positive',
          'analytics_views_per_s',
          'analytics_api_p50_ratio',
          'analytics_api_p50_ratio_vs_uncounted',
          'analytics_summary_ms',
        ),
        // Every view answered is counted, across the restart too (docs/analytics.md).
        ['analytics_views_lost', 'zero'],
      ],
    },
    {
      title: 'requests: submissions through the page route, delivered to the fake CRMs',
      run: () => runRequestsBench({ smoke: true }),
      figures: [
        ['load_average_1m', 'nonNegative'],
        ...all(
          'positive',
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
        ...all('zero', 'submit_failures', 'faults_lost', 'faults_duplicated'),
      ],
    },
    {
      title: 'events: streams of a shared workspace and two writers, beside another person’s list',
      run: () => runEventsBench({ smoke: true }),
      figures: [
        ...all(
          'positive',
          'events_fanout_p50_ratio_30_streams',
          'events_fanout_idle_p50_ms',
          'events_fanout_writers_p50_ms',
          'events_fanout_loaded_p50_ms',
          'events_fanout_delivered_share',
        ),
        // One round: no spread.
        ['events_fanout_p50_ratio_spread', 'nonNegative'],
      ],
      // Every stream got every event of the writes, once.
      check: (figures) => expect(figures.events_fanout_delivered_share).toBe(1),
    },
    {
      title: 'outbox: edits flushed by the product beside one request per edit, and a live session',
      run: () => runOutboxBench({ smoke: true }),
      figures: all(
        'positive',
        'outbox_requests_200_edits_20_blocks',
        'outbox_requests_200_live_edits_20_blocks',
        'outbox_flush_speedup_vs_naive_150ms',
      ),
      // Two rounds of edits over one block of each type: the product sends fewer requests than
      // edits.
      check: (figures) => expect(figures.outbox_requests_200_edits_20_blocks).toBeLessThan(14),
    },
    {
      title: 'server: the load matrix on PGlite beside the bare handler, closed and open loop',
      run: () => runServerLoadFigures({ smoke: true }),
      figures: [
        ...closedLoop(1),
        ...closedLoop(10),
        ...closedLoop(50),
        ...openLoop(25),
        ...openLoop(50),
        ...all(
          'positive',
          'server_p99_50_over_p50_1_pglite',
          'bare_p99_50_vs_p50_1_pglite',
          'server_tail_ratio_vs_bare_pglite',
        ),
      ],
    },
    {
      title: 'kept-list: a write into a kept list and its gzip, whole and from pieces',
      run: () => runKeptListBench({ smoke: true }),
      figures: KEPT_LISTS.flatMap((list) =>
        all(
          'positive',
          `kept_list_${list}_bytes_whole`,
          `kept_list_${list}_bytes_pieces`,
          `kept_list_${list}_pieces_after_update`,
          ...KEPT_LIST_WAYS.flatMap((way) => [
            `kept_list_${list}_${way}_cpu_ms`,
            `kept_list_${list}_${way}_thread_ms`,
          ]),
        ),
      ),
    },
    {
      title: 'uploads: parallel junk refused and videos stored, the server’s memory read',
      run: () => runUploadBench({ smoke: true, print: false }),
      figures: [
        // Streamed uploads may grow the peak by nothing measurable.
        ...all(
          'nonNegative',
          'upload_rss_growth_mb_4x95mb',
          'upload_rss_growth_mb_4x95mb_junk',
          'upload_rss_growth_mb_4x95mb_video',
        ),
        ['upload_mb_per_s_4x95mb_video', 'positive'],
      ],
    },
  ])
})
