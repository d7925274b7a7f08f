/**
 * What the next frame of the canvas has to draw again (pure: no Pixi, no DOM; unit-tested). The
 * canvas keeps its last picture between frames (`preserveDrawingBuffer`), so a frame whose changes
 * all lie in a known place may draw that place alone: the scene is drawn with the WebGL scissor on
 * that rectangle, and the rest of the picture stays as it was. A software renderer spends a
 * whole frame's time filling pixels, so a release among 1,000 blocks costs the blocks' rectangle,
 * not the screen (docs/editor.md «Drawing one place»).
 *
 * Only changes of tracked objects (the blocks a drag just let go of, the selection's overlay, the
 * selected blocks) are placed: each damages where the tracked objects were last drawn and where
 * they are now; a place can also be named outright (where a drag lifted blocks from). Any other
 * change, or one nobody names, damages everything.
 */
import { layerRect, type ScreenRect } from './drag-layer-geometry.ts'

/** A drawing buffer's rectangle in device px, with WebGL's origin at the bottom left. */
export interface ScissorBox {
  x: number
  y: number
  width: number
  height: number
}

/**
 * Beyond this share of the screen a limited frame saves too little to be worth it: the whole
 * scene is drawn instead.
 */
export const LIMITED_SHARE = 0.5

/** The smallest rectangle holding all of `rects` (empty ones ignored), or null. */
export function unionRect(rects: readonly (ScreenRect | null)[]): ScreenRect | null {
  return layerRect(
    rects.filter((r): r is ScreenRect => r !== null),
    1,
    0,
  )
}

/**
 * The scissor for `rect` (screen px) in a drawing buffer of `buffer` device px at `resolution`:
 * widened by `margin` device px (a texture's edge pixels sample their neighbours), every edge on
 * a whole device pixel, clipped to the buffer, y counted from the bottom. Null when nothing of it
 * is on the buffer.
 */
export function scissorBox(
  rect: ScreenRect,
  resolution: number,
  buffer: { width: number; height: number },
  margin = 2,
): ScissorBox | null {
  const device = layerRect([rect], resolution, margin)
  if (!device) return null
  const x0 = Math.max(0, Math.round(device.x * resolution))
  const y0 = Math.max(0, Math.round(device.y * resolution))
  const x1 = Math.min(buffer.width, Math.round((device.x + device.width) * resolution))
  const y1 = Math.min(buffer.height, Math.round((device.y + device.height) * resolution))
  if (x1 <= x0 || y1 <= y0) return null
  return { x: x0, y: buffer.height - y1, width: x1 - x0, height: y1 - y0 }
}

/** The screen's rectangle (CSS px) that a scissor box of the drawing buffer covers. */
function onScreen(
  box: ScissorBox,
  resolution: number,
  buffer: { width: number; height: number },
): ScreenRect {
  return {
    x: box.x / resolution,
    y: (buffer.height - box.y - box.height) / resolution,
    width: box.width / resolution,
    height: box.height / resolution,
  }
}

/**
 * How the next frame is drawn: the whole scene, the scene inside this box alone (`covers` is the
 * same box on the screen, CSS px), or nothing (nothing changed).
 */
export type FramePlan =
  { kind: 'full' } | { kind: 'limited'; box: ScissorBox; covers: ScreenRect } | { kind: 'none' }

/** Objects whose changes are placed, and where the canvas's picture shows them. */
interface Group<T> {
  objects: ReadonlySet<T>
  /** Where the last frame drew them (null: nowhere; undefined: not known, so a change is full). */
  drawn: ScreenRect | null | undefined
  touched: boolean
  /** Kept through whole frames (measured again after each), or dropped by the first one. */
  kept: boolean
}

/**
 * The canvas's damage between two frames. `T` is a display object; `parentOf` walks up the tree,
 * so a change of anything inside a tracked object is that object's.
 */
export class DamageLedger<T> {
  private full = true
  private rects: ScreenRect[] = []
  /** Places drawn again for good measure, not because anything changed (`trackAsDrawn`). */
  private asDrawn: ScreenRect[] = []
  private groups = new Map<string, Group<T>>()

  constructor(private readonly parentOf: (node: T) => T | null) {}

  /**
   * From now on, changes of `objects` (and of anything inside them) damage only where they were
   * and are. `shownAt` is where the canvas's picture may show them now (null: nowhere; undefined:
   * not known, until the next whole frame measures it). A `kept` group stays through whole frames;
   * another is dropped by the first (its objects' next changes draw everything again). Replaces
   * the group of that name; whatever damage is pending stays.
   */
  track(name: string, objects: Iterable<T>, shownAt: ScreenRect | null | undefined, kept = false) {
    this.groups.set(name, { objects: new Set(objects), drawn: shownAt, touched: false, kept })
    if (shownAt) this.rects.push(shownAt)
  }

  /**
   * `track` for a kept group of objects the canvas shows where they are now: their place is drawn
   * again on the next frame, as `track` does, but it is no change (`clean` stays as it was).
   */
  trackAsDrawn(name: string, objects: Iterable<T>, shownAt: ScreenRect | null) {
    this.groups.set(name, { objects: new Set(objects), drawn: shownAt, touched: false, kept: true })
    if (shownAt) this.asDrawn.push(shownAt)
  }

  /** The group `name` is no longer tracked. */
  untrack(name: string) {
    this.groups.delete(name)
  }

  /** Nothing has changed since the last frame was planned. */
  get clean(): boolean {
    if (this.full || this.rects.length > 0) return false
    for (const group of this.groups.values()) if (group.touched) return false
    return true
  }

  /** `rect` (screen px) must be drawn again (what lay under objects hidden without a frame). */
  damage(rect: ScreenRect) {
    this.rects.push(rect)
  }

  /** The whole picture must be drawn again (a resize, a lost context, a change nobody names). */
  invalidate() {
    this.full = true
  }

  /**
   * Something of the group `name` changed without saying what (everything, if it is not
   * tracked).
   */
  changedTracked(name: string) {
    const group = this.groups.get(name)
    if (group) group.touched = true
    else this.full = true
  }

  /** `node` changed (or something unnamed, when undefined). */
  changed(node?: T) {
    let placed = false
    if (node !== undefined)
      for (const group of this.groups.values())
        if (this.holds(group, node)) {
          group.touched = true
          placed = true
        }
    if (!placed) this.full = true
  }

  /**
   * The plan for the frame about to be drawn, with `boundsNow` the objects' bounds as they will
   * be drawn (screen px, null when none shows); the ledger starts afresh for the next frame.
   */
  take(
    boundsNow: (objects: ReadonlySet<T>) => ScreenRect | null,
    resolution: number,
    buffer: { width: number; height: number },
  ): FramePlan {
    let plan: FramePlan = { kind: 'full' }
    const now = new Map<Group<T>, ScreenRect | null>()
    if (!this.full) {
      const rects = [...this.rects, ...this.asDrawn]
      let known = true
      for (const group of this.groups.values()) {
        if (!group.touched) continue
        if (group.drawn === undefined) known = false
        const bounds = boundsNow(group.objects)
        now.set(group, bounds)
        rects.push(...[group.drawn, bounds].filter((r): r is ScreenRect => !!r))
      }
      const rect = unionRect(rects)
      const box = rect && scissorBox(rect, resolution, buffer)
      const share = box ? (box.width * box.height) / Math.max(1, buffer.width * buffer.height) : 0
      if (!known) plan = { kind: 'full' }
      else if (!rect) plan = { kind: 'none' }
      else if (box && share <= LIMITED_SHARE)
        plan = { kind: 'limited', box, covers: onScreen(box, resolution, buffer) }
    }
    for (const [name, group] of this.groups) {
      if (plan.kind === 'full' && !group.kept) this.groups.delete(name)
      else if (plan.kind === 'full') group.drawn = boundsNow(group.objects)
      else if (group.touched) group.drawn = now.get(group) ?? null
      group.touched = false
    }
    this.full = false
    this.rects = []
    this.asDrawn = []
    return plan
  }

  private holds(group: Group<T>, node: T): boolean {
    for (let at: T | null = node; at !== null; at = this.parentOf(at))
      if (group.objects.has(at)) return true
    return false
  }
}
