import {
  boundingBox,
  findGuides,
  guideTargets,
  rotationTowards,
  snapBoxToGrid,
  snapValue,
  unionRect,
  type Box,
  type Guide,
  type GuideTargets,
  type Point,
  type Rect,
} from '../../../domain/geometry.ts'

/**
 * Snapping of the canvas's gestures, pure: the grid, guides to the background and the other blocks
 * (docs/editor.md «Pointer handling (`src/features/editor/canvas/`)»), and the right angles of a
 * rotation. World px throughout.
 */

/** Guides catch within this many screen px. */
export const GUIDE_THRESHOLD = 6

export interface GridSetting {
  enabled: boolean
  size: number
}

export interface DragSnapInput {
  /** The moving blocks' boxes where the drag started. */
  boxes: readonly Box[]
  /** The box of the block under the pointer (its position snaps to the grid). */
  primary: Box
  /** Its background's frame; without one nothing snaps. */
  frame: Rect | undefined
  grid: GridSetting
  /** What guides snap to: the frame and the other blocks' bounding boxes (`snapTargets`). */
  targets: GuideTargets
  zoom: number
  /** The pointer's offset from where the drag started, in world px. */
  dx: number
  dy: number
}

/**
 * What a drag's guides snap to: its background's frame first, then the other blocks' bounding
 * boxes. Made once per drag, as the targets hold still while it lasts.
 */
export function snapTargets(frame: Rect, others: readonly Rect[]): GuideTargets {
  return guideTargets([frame, ...others])
}

/**
 * The offset a drag moves its blocks by: the primary block's corner on the grid, then guides to
 * the background and the other blocks of the same background, which win over the grid.
 */
export function snapDrag(input: DragSnapInput): { dx: number; dy: number; guides: Guide[] } {
  let { dx, dy } = input
  const { primary, frame, grid } = input
  if (!frame) return { dx, dy, guides: [] }
  if (grid.enabled) {
    const moved = { ...primary, cx: primary.cx + dx, cy: primary.cy + dy }
    const snapped = snapBoxToGrid(moved, frame, grid.size)
    dx += snapped.cx - moved.cx
    dy += snapped.cy - moved.cy
  }
  const group = unionRect(
    input.boxes.map((b) => boundingBox({ ...b, cx: b.cx + dx, cy: b.cy + dy })),
  )
  const found = findGuides(group, input.targets, GUIDE_THRESHOLD / input.zoom)
  return { dx: dx + found.dx, dy: dy + found.dy, guides: found.guides }
}

/** A resize handle's pointer on the grid (only for an unrotated block: the grid is upright). */
export function snapHandlePoint(
  world: Point,
  frame: Rect,
  grid: GridSetting,
  rotation: number,
): Point {
  if (!grid.enabled || rotation !== 0) return world
  return {
    x: snapValue(world.x, grid.size, frame.left),
    y: snapValue(world.y, grid.size, frame.top),
  }
}

/**
 * The angle that turns a block about `centre` towards the pointer: a soft snap to the right
 * angles (within 3°), or 15° steps with Shift.
 */
export function snapRotation(centre: Point, pointer: Point, shift: boolean): number {
  const rotation = rotationTowards(centre, pointer, shift ? 15 : undefined)
  const nearest = Math.round(rotation / 45) * 45
  if (!shift && Math.abs(rotation - nearest) < 3) return nearest === -180 ? 180 : nearest
  return rotation
}
