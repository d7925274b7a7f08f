import {
  boundingBox,
  handlePoint,
  hitTest,
  rectsIntersect,
  type Handle,
  type Point,
  type Rect,
} from '../../../domain/geometry.ts'
import type { InteractionHost } from './interaction-host.ts'
import { handlesOf, rotateHandlePoint, toScreenBox, worldBox, type WorldHost } from './world-box.ts'

/** What is under the pointer: a background, a block (front-most first), a handle of the selection. */

const TOUCH_HANDLE = 22
const MOUSE_HANDLE = 10

/** The background whose frame holds a world point. */
export function backgroundAt(frames: ReadonlyMap<number, Rect>, world: Point): number | null {
  for (const [id, f] of frames) {
    if (
      world.x >= f.left &&
      world.x <= f.left + f.width &&
      world.y >= f.top &&
      world.y <= f.top + f.height
    )
      return id
  }
  return null
}

/**
 * The front-most block under a world point, by looking at every block (later backgrounds first,
 * then top to bottom). The canvas asks `HitIndex` instead; this is the rule it must agree with.
 */
export function scanBlockAt(host: WorldHost, world: Point, slop: number): string | null {
  const ids = [...host.frames().keys()].reverse()
  for (const bgId of ids) {
    const keys = host.store.keysOf(bgId)
    for (let i = keys.length - 1; i >= 0; i -= 1) {
      const box = worldBox(host, keys[i]!)
      if (box && hitTest(world, box, slop)) return keys[i]!
    }
  }
  return null
}

/** Every block whose bounding box meets a world rectangle, background by background, back to front. */
export function scanBlocksIn(host: WorldHost, rect: Rect): string[] {
  const hits: string[] = []
  for (const bgId of host.frames().keys()) {
    for (const key of host.store.keysOf(bgId)) {
      const box = worldBox(host, key)
      if (box && rectsIntersect(boundingBox(box), rect)) hits.push(key)
    }
  }
  return hits
}

/** A handle of the one selected block near a screen point (a finger gets a larger radius). */
export function handleAt(
  host: Pick<InteractionHost, 'store' | 'measuredPx' | 'frames' | 'view'>,
  p: Point,
  touch: boolean,
): { key: string; handle: Handle | 'rotate' } | null {
  const { selection } = host.store.getState()
  if (selection.length !== 1) return null
  const key = selection[0]!
  const block = host.store.get(key)
  const box = worldBox(host, key)
  if (!block || !box) return null
  const screen = toScreenBox(box, host.view)
  const radius = touch ? TOUCH_HANDLE : MOUSE_HANDLE
  const near = (q: Point) => Math.hypot(q.x - p.x, q.y - p.y) <= radius
  if (near(rotateHandlePoint(screen))) return { key, handle: 'rotate' }
  for (const handle of handlesOf(block))
    if (near(handlePoint(screen, handle))) return { key, handle }
  return null
}

/** The cursor over a resize handle. */
export function cursorFor(handle: Handle): string {
  switch (handle) {
    case 'n':
    case 's':
      return 'ns-resize'
    case 'e':
    case 'w':
      return 'ew-resize'
    case 'ne':
    case 'sw':
      return 'nesw-resize'
    default:
      return 'nwse-resize'
  }
}
