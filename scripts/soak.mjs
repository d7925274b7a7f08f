#!/usr/bin/env node
// The convergence soak (tests/integration/convergence.test.ts) over SOAK_SEEDS seeds from
// SOAK_FROM (a random start when unset), one seed range per CPU core, each in its own vitest
// process: the seeds are independent (each starts its own in-process server), so the soak takes about
// 1/cores of the time of one process. Exits non-zero when any range fails; prints the time, where
// a seed's time went (start, scenario with its server restarts and sign-ins, drain, comparison) and
// in how many seeds each fault, path and event came up (the test writes one line per seed to
// SOAK_REPORT).
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'

const seeds = Number(process.env.SOAK_SEEDS ?? 1000)
// Each run explores seeds of its own unless SOAK_FROM names them: the seeds the scenarios were
// tuned on (1–1,000) all pass, and the failures worth finding are beyond them. The start is printed
// first, so a failing range can be run again.
const from = Number(process.env.SOAK_FROM ?? 1_001 + Math.floor(Math.random() * 1_000_000))
console.log(
  `soak: seeds ${from}…${from + seeds - 1} (again: SOAK_FROM=${from} SOAK_SEEDS=${seeds})`,
)
const parts = Math.max(
  1,
  Math.min(Number(process.env.SOAK_PROCESSES ?? availableParallelism()), seeds),
)
const started = Date.now()
const reports = mkdtempSync(join(tmpdir(), 'soak-report-'))

const ranges = []
for (let i = 0; i < parts; i += 1) {
  const start = from + Math.floor((seeds * i) / parts)
  const end = from + Math.floor((seeds * (i + 1)) / parts)
  if (end > start) ranges.push({ start, count: end - start })
}

function run({ start, count }) {
  return new Promise((resolve) => {
    const child = spawn('npx', ['vitest', 'run', 'tests/integration/convergence.test.ts'], {
      env: {
        ...process.env,
        SOAK_FROM: String(start),
        SOAK_SEEDS: String(count),
        SOAK_REPORT: join(reports, `${start}.jsonl`),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const label = `[seeds ${start}–${start + count - 1}] `
    const relay = (stream, out) => {
      let rest = ''
      stream.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n')
        rest = lines.pop() ?? ''
        for (const line of lines)
          if (/FAIL|×|Tests |Error/.test(line)) out.write(label + line + '\n')
      })
    }
    relay(child.stdout, process.stdout)
    relay(child.stderr, process.stderr)
    child.on('close', (code) => resolve(code ?? 1))
  })
}

const codes = await Promise.all(ranges.map(run))
const seconds = (Date.now() - started) / 1000
console.log(
  `soak: ${seeds} seeds from ${from} in ${ranges.length} processes, ${seconds.toFixed(0)} s ` +
    `(${(seeds / seconds).toFixed(2)} seeds/s)`,
)

const lines = []
for (const { start } of ranges) {
  try {
    const text = readFileSync(join(reports, `${start}.jsonl`), 'utf8')
    for (const line of text.split('\n')) if (line) lines.push(JSON.parse(line))
  } catch {
    // A range that failed before its first seed wrote nothing.
  }
}
rmSync(reports, { recursive: true, force: true })
if (lines.length > 0) {
  const mean = (pick) =>
    (lines.reduce((sum, line) => sum + pick(line), 0) / lines.length).toFixed(0)
  const ms = Object.keys(lines[0].ms)
  console.log(
    `per seed (mean of ${lines.length}, ms): ` +
      ms.map((phase) => `${phase} ${mean((line) => line.ms[phase])}`).join(', ') +
      `; CPU ${mean((line) => line.cpuMs)}; requests ${mean((line) => line.requests)}`,
  )
  const seen = new Map()
  for (const line of lines)
    for (const item of line.exercised) seen.set(item, (seen.get(item) ?? 0) + 1)
  const fired = {}
  for (const line of lines)
    for (const [fault, count] of Object.entries(line.faults))
      fired[fault] = (fired[fault] ?? 0) + count
  console.log(`faults fired (requests): ${JSON.stringify(fired)}`)
  console.log(
    `seeds exercising each item: ${[...seen]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([item, count]) => `${item} ${count}`)
      .join(', ')}`,
  )
}
process.exit(codes.some((code) => code !== 0) ? 1 : 0)
