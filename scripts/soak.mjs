#!/usr/bin/env node
// The convergence soak (tests/integration/convergence.test.ts) over SOAK_SEEDS seeds from
// SOAK_FROM, split into one seed range per CPU core, each range in its own vitest process: the
// seeds are independent (each starts its own in-process server), so the soak takes about
// 1/cores of the time of one process. Exits non-zero when any range fails; prints the time.
import { spawn } from 'node:child_process'
import { availableParallelism } from 'node:os'

const seeds = Number(process.env.SOAK_SEEDS ?? 1000)
const from = Number(process.env.SOAK_FROM ?? 1)
const parts = Math.max(
  1,
  Math.min(Number(process.env.SOAK_PROCESSES ?? availableParallelism()), seeds),
)
const started = Date.now()

const ranges = []
for (let i = 0; i < parts; i += 1) {
  const start = from + Math.floor((seeds * i) / parts)
  const end = from + Math.floor((seeds * (i + 1)) / parts)
  if (end > start) ranges.push({ start, count: end - start })
}

function run({ start, count }) {
  return new Promise((resolve) => {
    const child = spawn('npx', ['vitest', 'run', 'tests/integration/convergence.test.ts'], {
      env: { ...process.env, SOAK_FROM: String(start), SOAK_SEEDS: String(count) },
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
const seconds = ((Date.now() - started) / 1000).toFixed(0)
console.log(`soak: ${seeds} seeds from ${from} in ${ranges.length} processes, ${seconds} s`)
process.exit(codes.some((code) => code !== 0) ? 1 : 0)
