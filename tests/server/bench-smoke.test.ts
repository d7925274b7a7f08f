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
})
