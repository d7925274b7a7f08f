/**
 * CPU per pointer move (docs/editor.md, "CPU per pointer move"): the CPU time the whole browser spends on a
 * paced drag, summed over every process of its tree from the kernel's counters (process-cpu.ts),
 * divided by the moves. Frame rates cannot tell the editor from Konva here (both at the display's
 * ceiling); the work each move costs can.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { CDPSession, Page } from 'playwright-core'
import { cdpMouse } from './drag-scenes.ts'
import { CLOCK_TICKS, cpuMsBetween, cpuMsByKind, threadTicks, treeTicks } from './process-cpu.ts'

/** Pointer moves a second, as a mouse reports them to a 60 Hz page. */
export const MOVES_PER_SECOND = 60
/** After the release, the time left for the last frame to be drawn before the counters are read. */
const SETTLE_MS = 300

export interface DragCpu {
  /** CPU ms of the browser's processes from before the press until after the release, per move. */
  perMove: number
  /** The same, of the moves alone (the press before, the release and its frame after left out). */
  movesOnlyPerMove: number
  /** Moves a second actually sent (below 60 when a move's event took longer than its turn). */
  rate: number
  /** `perMove` by kind of process (renderer, gpu-process, browser, utility). */
  byKind: Map<string, number>
  /** `perMove` by thread (`kind/name`, the same names summed). */
  byThread: Map<string, number>
}

/** Two animation frames of the page: what its last input asked to draw is drawn. */
const frames = (page: Page) =>
  page.evaluate(
    () => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))),
  )

/**
 * Presses on `from`, makes `moves` pointer moves round an ellipse (the scripted gesture's path)
 * paced at 60 a second against the clock (each sent when its time comes, with CDP
 * Input.dispatchMouseEvent, awaited; a late one does not push the later ones back), comes back to
 * `from` and releases. The browser's CPU counters are read before the press, before the release
 * and once the release's frame is drawn.
 */
export async function cpuDrag(
  page: Page,
  cdp: CDPSession,
  browser: number,
  from: { x: number; y: number },
  moves: number,
): Promise<DragCpu> {
  await page.bringToFront()
  const mouse = cdpMouse(cdp)
  await mouse('mouseMoved', from.x, from.y, 0)
  await frames(page)
  await sleep(100)
  const before = treeTicks(browser)
  const threadsBefore = threadTicks(before.keys())
  await mouse('mousePressed', from.x, from.y, 1)
  const period = 1000 / MOVES_PER_SECOND
  const started = performance.now()
  for (let k = 1; k <= moves; k += 1) {
    const wait = started + k * period - performance.now()
    if (wait > 0) await sleep(wait)
    const x = k === moves ? from.x : from.x + Math.cos(k / 15) * 60 - 60
    const y = k === moves ? from.y : from.y + Math.sin(k / 15) * 40
    await mouse('mouseMoved', x, y, 1)
  }
  const sent = performance.now() - started
  await frames(page)
  const moved = treeTicks(browser)
  await mouse('mouseReleased', from.x, from.y, 0)
  await frames(page)
  await sleep(SETTLE_MS)
  const after = treeTicks(browser)
  const threadsAfter = threadTicks(after.keys())
  const ms = cpuMsBetween(before, after)
  // Counters that did not move measured nothing (a wrong process, or a drag that never ran).
  if (!(ms > 0)) throw new Error('the browser’s CPU counters did not move during a drag')
  return {
    perMove: ms / moves,
    movesOnlyPerMove: cpuMsBetween(before, moved) / moves,
    rate: (moves * 1000) / sent,
    byKind: new Map([...cpuMsByKind(before, after)].map(([kind, ms]) => [kind, ms / moves])),
    byThread: new Map(
      [...threadsAfter].map(([name, t]) => [
        name,
        ((t - (threadsBefore.get(name) ?? 0)) * 1000) / CLOCK_TICKS / moves,
      ]),
    ),
  }
}

/**
 * CPU ms a second the browser spends with `page` in front and nobody touching anything, in all
 * and by kind of process.
 */
export async function idleCpuPerSecond(
  page: Page,
  browser: number,
  ms: number,
): Promise<{ perSecond: number; byKind: Map<string, number> }> {
  await page.bringToFront()
  await frames(page)
  // What the last drag's release set going (a save, the sync worker's write) is not idle work.
  await sleep(1000)
  const before = treeTicks(browser)
  await sleep(ms)
  const after = treeTicks(browser)
  return {
    perSecond: (cpuMsBetween(before, after) * 1000) / ms,
    byKind: new Map([...cpuMsByKind(before, after)].map(([kind, t]) => [kind, (t * 1000) / ms])),
  }
}
