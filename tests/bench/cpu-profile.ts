import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { CDPSession } from 'playwright-core'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
  hitCount?: number
  children?: number[]
}
interface Profile {
  nodes: ProfileNode[]
  startTime: number
  endTime: number
  samples?: number[]
  timeDeltas?: number[]
}

/**
 * Runs `work` under the page's CPU profiler (CDP Profiler) and, when `dir` is given, writes the
 * profile there as `<name>.cpuprofile` (DevTools opens it). Returns the functions that took the
 * most time of their own, with their share of the sampled time: where a gesture's time goes.
 */
export async function profiled(
  cdp: CDPSession,
  name: string,
  dir: string | undefined,
  work: () => Promise<unknown>,
  top = 25,
): Promise<{ self: { fn: string; ms: number; pct: number }[]; totalMs: number }> {
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 })
  await cdp.send('Profiler.start')
  await work()
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile }
  await cdp.send('Profiler.disable')
  if (dir) await writeFile(join(dir, `${name}.cpuprofile`), JSON.stringify(profile))
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const selfMs = new Map<string, number>()
  const samples = profile.samples ?? []
  const deltas = profile.timeDeltas ?? []
  for (let i = 0; i < samples.length; i += 1) {
    const node = byId.get(samples[i]!)
    if (!node) continue
    const f = node.callFrame
    const file = f.url.split('/').pop() ?? ''
    const key = `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`
    selfMs.set(key, (selfMs.get(key) ?? 0) + (deltas[i + 1] ?? 0) / 1000)
  }
  const totalMs = (profile.endTime - profile.startTime) / 1000
  const self = [...selfMs.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([fn, ms]) => ({ fn, ms, pct: (100 * ms) / totalMs }))
  return { self, totalMs }
}

interface TraceEvent {
  name: string
  ph: string
  dur?: number
  tid: number
  pid: number
  args?: { name?: string }
}

/**
 * Runs `work` under Chromium's tracing (the DevTools timeline's categories) and returns, for each
 * thread that did the most (the page's main thread, the compositor, the GPU process's), the time
 * its complete events took summed by name, nested ones included: the native work a CPU profile
 * shows only as (program).
 */
export async function traced(
  cdp: CDPSession,
  work: () => Promise<unknown>,
  file?: string,
  threads = 4,
  top = 12,
): Promise<{ thread: string; busyMs: number; kinds: { name: string; ms: number }[] }[]> {
  const events: TraceEvent[] = []
  // Chromium sends the events untyped; their fields are those of the Trace Event Format.
  const onData = (e: { value: unknown[] }) => {
    for (const event of e.value) events.push(event as TraceEvent)
  }
  cdp.on('Tracing.dataCollected', onData)
  await cdp.send('Tracing.start', {
    traceConfig: {
      includedCategories: [
        'toplevel',
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'blink',
        'cc',
        'gpu',
        'viz',
      ],
    },
    transferMode: 'ReportEvents',
  })
  await work()
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()))
  await cdp.send('Tracing.end')
  await done
  cdp.off('Tracing.dataCollected', onData)
  if (file) await writeFile(file, JSON.stringify({ traceEvents: events }))
  const names = new Map<string, string>()
  for (const e of events)
    if (e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?')
  const byThread = new Map<string, { busy: number; sums: Map<string, number> }>()
  for (const e of events) {
    if (e.ph !== 'X' || e.dur === undefined) continue
    const id = `${e.pid}:${e.tid}`
    const t = byThread.get(id) ?? { busy: 0, sums: new Map<string, number>() }
    byThread.set(id, t)
    const ms = e.dur / 1000
    t.sums.set(e.name, (t.sums.get(e.name) ?? 0) + ms)
    // Top-level tasks of the thread's loop: how long it was busy.
    if (e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask') t.busy += ms
  }
  return [...byThread.entries()]
    .sort((a, b) => b[1].busy - a[1].busy)
    .slice(0, threads)
    .map(([id, t]) => ({
      thread: `${names.get(id) ?? '?'} (${id})`,
      busyMs: t.busy,
      kinds: [...t.sums.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([name, ms]) => ({ name, ms })),
    }))
}
