import { describe, expect, it } from 'vitest'
import { runPublishedBench } from '../bench/published-bench.ts'

/**
 * Each benchmark's smoke run (tiny sizes, seconds): a benchmark that no longer runs is seen the
 * day it breaks, not the next time someone measures. The figures themselves are not judged here.
 */
describe('benchmarks still run', () => {
  it('published: a page and its static twin under load, and a page of 200 blocks rendered', async () => {
    const figures = await runPublishedBench({ smoke: true, renderer: 'source' })
    expect(figures.published_rps_ratio_vs_static).toBeGreaterThan(0)
    expect(figures.published_render_ms_200_blocks).toBeGreaterThan(0)
    expect(figures.published_html_kib_200_blocks).toBeGreaterThan(10)
  }, 120_000)

  it('analytics: views counted under load, a restart, and the 90-day summary', async () => {
    // A second at a tenth of the goal's rate: enough to count, restart and sum, not to measure.
    process.env.ANALYTICS_BENCH_SECONDS = '1'
    process.env.ANALYTICS_BENCH_RATE = '330'
    const { runAnalyticsBench } = await import('../bench/analytics-bench.ts')
    const figures = await runAnalyticsBench()
    expect(figures.analytics_summary_ms).toBeGreaterThan(0)
    expect(figures.analytics_views_per_s).toBeGreaterThan(0)
  }, 180_000)

  it('requests: submissions through the page route, delivered to the fake CRMs', async () => {
    process.env.BENCH_SMOKE = '1'
    const { runRequestsBench } = await import('../bench/requests-bench.ts')
    const figures = await runRequestsBench()
    expect(figures.submit_failures).toBe(0)
    expect(figures.submit_p99_cold_ms).toBeGreaterThan(0)
    expect(figures.crm_delivery_ms_p50).toBeGreaterThan(0)
    expect(figures.faults_lost).toBe(0)
    expect(figures.faults_duplicated).toBe(0)
  }, 180_000)

  it('events: streams of a shared workspace and two writers, beside another person’s list', async () => {
    const { runEventsBench } = await import('../bench/events-bench.ts')
    const figures = await runEventsBench({ smoke: true })
    expect(figures.events_fanout_p50_ratio_30_streams).toBeGreaterThan(0)
    // Every stream got every event of the writes.
    expect(figures.events_fanout_delivered_share).toBe(1)
  }, 180_000)

  it('outbox: edits flushed by the product beside one request per edit, and a live session', async () => {
    process.env.BENCH_SMOKE = '1'
    const { runOutboxBench } = await import('../bench/outbox-bench.ts')
    const figures = await runOutboxBench()
    // Two rounds of edits over one block of each type: the product sends fewer requests than edits.
    expect(figures.outbox_requests_200_edits_20_blocks).toBeGreaterThan(0)
    expect(figures.outbox_requests_200_edits_20_blocks).toBeLessThan(14)
    expect(figures.outbox_requests_200_live_edits_20_blocks).toBeGreaterThan(0)
    expect(figures.outbox_flush_speedup_vs_naive_150ms).toBeGreaterThan(0)
  }, 180_000)
})
