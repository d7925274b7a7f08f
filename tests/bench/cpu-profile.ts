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
