#!/usr/bin/env node
// Runs every test suite of the product and prints one closing line: "Tests: N passed, N failed".
//   1. unit, integration (outbox against the in-process server) and server tests (embedded PGlite)
//   2. the server tests again on a real PostgreSQL, when Debian's PostgreSQL is installed
//   3. browser journeys in headless Chromium against the built app and the reference server
// Set SKIP_E2E=1 or SKIP_POSTGRES=1 to leave a stage out while developing.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const out = mkdtempSync(join(tmpdir(), 'promo-tests-'))
// Two files at a time: Vitest's default on two cores is one (the cores less one), which left a core
// idle while the other imported a file's modules; two ran this stage in 579 s instead of 813.
const stages = [
  {
    name: 'unit + integration + server (PGlite)',
    cmd: ['npx', 'vitest', 'run', '--maxWorkers=2'],
  },
]
const pgBin = '/usr/lib/postgresql/15/bin/initdb'
if (!process.env.SKIP_POSTGRES && existsSync(pgBin)) {
  stages.push({
    name: 'server on PostgreSQL',
    // The benchmarks' smoke runs once, in the first stage: it shows a benchmark still runs.
    cmd: [
      'bash',
      'scripts/with-postgres.sh',
      'npx',
      'vitest',
      'run',
      '--project',
      'server',
      '--exclude',
      'tests/server/bench-smoke.test.ts',
      // Each file has a schema of its own: two at a time took 165 s instead of 196.
      '--maxWorkers=2',
    ],
  })
} else if (!process.env.SKIP_POSTGRES) {
  console.log('PostgreSQL is not installed: the server suite runs on PGlite only.')
}
if (!process.env.SKIP_E2E) {
  stages.push({
    name: 'browser journeys',
    cmd: ['npx', 'vitest', 'run', '--config', 'vitest.e2e.config.ts'],
  })
}

let passed = 0
let failed = 0
let broken = false
for (const [i, stage] of stages.entries()) {
  const file = join(out, `stage-${i}.json`)
  console.log(`\n=== ${stage.name} ===`)
  const [bin, ...args] = stage.cmd
  const res = spawnSync(
    bin,
    [...args, '--reporter=default', '--reporter=json', `--outputFile.json=${file}`],
    {
      stdio: 'inherit',
      env: process.env,
    },
  )
  if (!existsSync(file)) {
    console.log(`Stage "${stage.name}" produced no results (exit ${res.status}).`)
    broken = true
    failed += 1
    continue
  }
  const report = JSON.parse(readFileSync(file, 'utf8'))
  passed += report.numPassedTests
  failed += report.numFailedTests
  if (res.status !== 0 && report.numFailedTests === 0) {
    console.log(`Stage "${stage.name}" exited with ${res.status}.`)
    broken = true
  }
}
console.log(`\nTests: ${passed} passed, ${failed} failed`)
process.exit(failed > 0 || broken || passed === 0 ? 1 : 0)
