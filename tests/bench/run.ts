/**
 * `npm run bench`: runs every benchmark of the product in one process, prints a table and writes
 * bench-results.json at the repository root. Each figure is a ratio or count measured within one run,
 * so the machine's speed cancels out. Benchmarks are not tests: nothing here fails on a figure; a
 * benchmark that fails to run makes the command exit with 1.
 *
 * `BENCH_SMOKE=1 npm run bench [name…]` runs each in its smoke mode (tiny sizes, seconds;
 * README.md, "Benchmarks") and writes no bench-results.json: its figures measure nothing.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { isSmoke } from './smoke.ts'

type Figures = Record<string, number>
interface Bench {
  name: string
  load: () => Promise<() => Promise<Figures>>
}

const benches: Bench[] = [
  {
    name: 'firstload',
    load: async () => (await import('./firstload-bench.ts')).runFirstLoadBench,
  },
  { name: 'outbox', load: async () => (await import('./outbox-bench.ts')).runOutboxBench },
  { name: 'list', load: async () => (await import('./list-bench.ts')).runListBench },
  { name: 'refresh', load: async () => (await import('./refresh-bench.ts')).runRefreshBench },
  { name: 'server', load: async () => (await import('./server-bench.ts')).runServerLoadFigures },
  {
    name: 'kept-list',
    load: async () => (await import('./kept-list-bench.ts')).runKeptListBench,
  },
  { name: 'uploads', load: async () => (await import('./upload-bench.ts')).runUploadBench },
  {
    // Visitors' requests: submit latency, delivery to the fake CRMs, faults, vendors' rates.
    name: 'requests',
    load: async () => (await import('./requests-bench.ts')).runRequestsBench,
  },
  { name: 'canvas', load: async () => (await import('./canvas-bench.ts')).runCanvasBench },
  {
    // The canvas benchmark's drag figures alone (BENCH_PROFILE=dir also profiles a drag of each).
    name: 'drag',
    load: async () => {
      const { runCanvasBench } = await import('./canvas-bench.ts')
      return () => runCanvasBench(['drag'])
    },
  },
  {
    // The canvas benchmark's reopen figures alone (memory after 20 visits with edits).
    name: 'reopen',
    load: async () => {
      const { runCanvasBench } = await import('./canvas-bench.ts')
      return () => runCanvasBench(['reopen'])
    },
  },
  {
    // What 300 open event streams and two writers cost another person's list call.
    name: 'events',
    load: async () => (await import('./events-bench.ts')).runEventsBench,
  },
  {
    name: 'analytics',
    load: async () => (await import('./analytics-bench.ts')).runAnalyticsBench,
  },
  { name: 'pixels', load: async () => (await import('./pixel-bench.ts')).runPixelBench },
  {
    // The pixel benchmark's published page against the preview alone.
    name: 'published-pixels',
    load: async () => {
      const { runPixelBench } = await import('./pixel-bench.ts')
      return () => runPixelBench(['published'])
    },
  },
  {
    name: 'published',
    load: async () => {
      const { runPublishedBench } = await import('./published-bench.ts')
      return () => runPublishedBench()
    },
  },
]

const only = process.argv.slice(2)
const results: Figures = {}
let failed = 0
for (const bench of benches) {
  if (only.length && !only.includes(bench.name)) continue
  console.log(`\n### ${bench.name}`)
  const started = Date.now()
  try {
    const run = await bench.load()
    Object.assign(results, await run())
  } catch (error) {
    console.error(`${bench.name} failed:`, error instanceof Error ? error.message : error)
    failed += 1
  }
  console.log(`(${((Date.now() - started) / 1000).toFixed(1)} s)`)
}

console.log('\n| figure | value |\n|---|---|')
for (const [key, value] of Object.entries(results))
  console.log(`| ${key} | ${Number(value.toFixed(3))} |`)
if (isSmoke()) console.log('\nA smoke run: bench-results.json is left as it was')
else {
  writeFileSync(
    join(import.meta.dirname, '../../bench-results.json'),
    JSON.stringify(results, null, 2) + '\n',
  )
  console.log('\nWritten to bench-results.json')
}
if (failed > 0) process.exitCode = 1
