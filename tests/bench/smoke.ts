/**
 * Every benchmark has a smoke mode (README.md, "Benchmarks"): tiny sizes, one round, short
 * durations, so that it goes through each of its code paths and reports each of its figures in
 * seconds. CI runs them (tests/server/bench-smoke.test.ts, tests/e2e/bench-smoke.e2e.ts), so a
 * benchmark that no longer runs is seen the day it breaks. A smoke run's figures keep the full
 * run's names; their values measure nothing.
 */
export interface BenchOptions {
  /** Tiny sizes, seconds (default: `BENCH_SMOKE=1` in the environment). */
  smoke?: boolean
}

/** Whether a benchmark runs as a smoke run: its option, else `BENCH_SMOKE=1`. */
export function isSmoke(options: BenchOptions = {}): boolean {
  return options.smoke ?? process.env.BENCH_SMOKE === '1'
}
