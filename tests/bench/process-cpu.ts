import { execFileSync } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'

/**
 * CPU time of a whole browser, from the kernel's own counters (docs/editor.md, "CPU per pointer move"): every
 * process of its tree (the browser process, the zygotes, the renderers, the GPU process drawing
 * WebGL in software, the utility processes) read from `/proc/<pid>/stat`, user plus system time.
 * Linux only, as the benchmarks' machine.
 */

/** Clock ticks a second of /proc's counters (`getconf CLK_TCK`, 100 on Linux). */
export const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100

interface Stat {
  pid: number
  ppid: number
  /** utime + stime, clock ticks. */
  ticks: number
}

/** One process's line of /proc/<pid>/stat, or null once it has gone. */
function readStat(pid: number): Stat | null {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return null
  }
  // The command name, in parentheses, may hold spaces and parentheses: the fields follow the last.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  // After the name: state, ppid, … utime (14th field of the line) and stime (15th).
  return { pid, ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) }
}

function allStats(): Stat[] {
  const stats: Stat[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const stat = readStat(Number(entry))
    if (stat) stats.push(stat)
  }
  return stats
}

const commandLine = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
  } catch {
    return []
  }
}

/**
 * The browser process Playwright launched on the profile directory `profile` (the one process of
 * that profile whose parent is not of it too: Playwright starts it as a child of this process).
 */
export function browserPid(profile: string): number {
  const flag = `--user-data-dir=${profile}`
  const stats = allStats()
  const ofProfile = new Set(
    stats.filter((s) => commandLine(s.pid).includes(flag)).map((s) => s.pid),
  )
  const roots = stats.filter((s) => ofProfile.has(s.pid) && !ofProfile.has(s.ppid))
  const own = roots.filter((s) => s.ppid === process.pid)
  const root = own[0] ?? roots[0]
  if (!root) throw new Error(`no browser process runs on the profile ${profile}`)
  return root.pid
}

/** CPU ticks by pid of the process `root` and all its descendants, now. */
export function treeTicks(root: number): Map<number, number> {
  const stats = allStats()
  const children = new Map<number, Stat[]>()
  for (const s of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s])
  const out = new Map<number, number>()
  const rootStat = stats.find((s) => s.pid === root)
  if (!rootStat) throw new Error(`the browser process ${root} has gone`)
  const queue = [rootStat]
  while (queue.length) {
    const s = queue.shift()!
    out.set(s.pid, s.ticks)
    queue.push(...(children.get(s.pid) ?? []))
  }
  return out
}

/**
 * CPU milliseconds the tree spent between two readings: each process's ticks since the first
 * reading (a process that started between them: all of its ticks). A process that ended between
 * them takes its ticks since the first reading with it; a measured drag starts and ends none.
 */
export function cpuMsBetween(before: Map<number, number>, after: Map<number, number>): number {
  let ticks = 0
  for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0)
  return (ticks * 1000) / CLOCK_TICKS
}

/** A process's kind: Chromium's `--type=` (renderer, gpu-process, utility, zygote), or browser. */
export function processKind(pid: number): string {
  // A zygote's children rewrite their command line as one string: the flag is searched in it.
  const type = /--type=(\S+)/.exec(commandLine(pid).join(' '))
  return type ? type[1]! : 'browser'
}

/** What `cpuMsBetween` counts, by the processes' kind (the renderers summed). */
export function cpuMsByKind(
  before: Map<number, number>,
  after: Map<number, number>,
): Map<string, number> {
  const out = new Map<string, number>()
  for (const [pid, t] of after) {
    const kind = processKind(pid)
    out.set(kind, (out.get(kind) ?? 0) + ((t - (before.get(pid) ?? 0)) * 1000) / CLOCK_TICKS)
  }
  return out
}

/**
 * CPU ticks of every thread of the processes in `pids`, by `kind/thread name` (CrRendererMain,
 * Compositor, VizCompositorThread, CrGpuMain…): where a drag's time goes, for the log.
 */
export function threadTicks(pids: Iterable<number>): Map<string, number> {
  const out = new Map<string, number>()
  for (const pid of pids) {
    const kind = processKind(pid)
    let tids: string[]
    try {
      tids = readdirSync(`/proc/${pid}/task`)
    } catch {
      continue
    }
    for (const tid of tids) {
      let text: string
      try {
        text = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
      } catch {
        continue
      }
      const name = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'))
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
      const key = `${kind}/${name}`
      out.set(key, (out.get(key) ?? 0) + Number(fields[11]) + Number(fields[12]))
    }
  }
  return out
}
