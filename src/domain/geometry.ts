/**
 * Canvas geometry (docs/editor.md "Geometry"). The stored format does not depend on the screen: a
 * block's anchor is its centre, `x`/`y` are the offset of that centre from the background's centre
 * in units where the background's width is 200 (y grows downwards), `width` is a percentage of the
 * background's width, `height` a percentage of its height, `fontSize` is on the 200-unit basis and
 * `rotation` is degrees clockwise about the centre.
 *
 * On screen a background occupies a frame (left, top, width, height in screen px, already zoomed).
 * Everything here is pure so the editor model, the canvas and the tests share one set of rules.
 */

/** Stored numbers keep this many decimals; round trips are exact at that precision. */
export const STORED_DECIMALS = 4
const FACTOR = 10 ** STORED_DECIMALS

/** Default grid (docs/editor.md "Geometry"): on, 20 screen px at 100% zoom. */
export const DEFAULT_GRID_SIZE = 20

export interface Size {
  width: number
  height: number
}

export interface Point {
  x: number
  y: number
}

/** Axis-aligned rectangle. */
export interface Rect {
  left: number
  top: number
  width: number
  height: number
}

/** A rotated box: centre, size and rotation in degrees clockwise. */
export interface Box {
  cx: number
  cy: number
  width: number
  height: number
  rotation: number
}

/** The geometry a block stores (height and fontSize only for the types that have them). */
export interface StoredGeometry {
  x: number
  y: number
  width: number
  height?: number
  rotation: number
  fontSize?: number
}

/** Rounds to the stored precision; never yields -0. */
export function roundStored(value: number): number {
  const rounded = Math.round(value * FACTOR) / FACTOR
  return rounded === 0 ? 0 : rounded
}

/** Half the background's height on the 200-unit basis (y ranges ±this). */
export function halfHeightUnits(bg: Size): number {
  return bg.width > 0 ? (100 * bg.height) / bg.width : 100
}

/**
 * A block's centre as the person reads it: per cent of the background's width from its left edge
 * and of its height from its top edge (the stored offsets run -100…100 across the width and
 * ± half the height in the same units). An unknown background counts as square.
 */
export function centrePercent(
  centre: { x: number; y: number },
  bg: Size | undefined,
): { x: number; y: number } {
  const half = bg ? halfHeightUnits(bg) : 100
  return { x: (centre.x + 100) / 2, y: ((centre.y + half) / (2 * half)) * 100 }
}

/** The stored centre of a place given in per cent (`centrePercent` read back). */
export function centreFromPercent(
  percent: { x: number; y: number },
  bg: Size | undefined,
): { x: number; y: number } {
  const half = bg ? halfHeightUnits(bg) : 100
  return { x: percent.x * 2 - 100, y: (percent.y / 100) * 2 * half - half }
}

/** Screen px per stored unit for a frame. */
export function pxPerUnit(frame: Rect): number {
  return frame.width / 200
}

/** The frame a background gets when drawn `frameWidth` px wide with its top-left at (left, top). */
export function frameFor(bg: Size, frameWidth: number, left = 0, top = 0): Rect {
  const ratio = bg.width > 0 && bg.height > 0 ? bg.height / bg.width : 9 / 16
  return { left, top, width: frameWidth, height: frameWidth * ratio }
}

/**
 * The stored-unit frame of a background: 200 wide, centred on the origin, so a block's stored x/y
 * are directly its centre. Model commands (align, distribute, snapping in units) work in it.
 */
export function unitFrame(bg: Size): Rect {
  const half = halfHeightUnits(bg)
  return { left: -100, top: -half, width: 200, height: 2 * half }
}

/** Stored geometry → a box on screen inside `frame`. Missing height → `fallbackHeight` px. */
export function storedToScreen(stored: StoredGeometry, frame: Rect, fallbackHeight = 0): Box {
  const unit = pxPerUnit(frame)
  return {
    cx: frame.left + frame.width / 2 + stored.x * unit,
    cy: frame.top + frame.height / 2 + stored.y * unit,
    width: (stored.width / 100) * frame.width,
    height: stored.height === undefined ? fallbackHeight : (stored.height / 100) * frame.height,
    rotation: stored.rotation,
  }
}

/** A box on screen inside `frame` → stored geometry, rounded to the stored precision. */
export function screenToStored(box: Box, frame: Rect): Required<Omit<StoredGeometry, 'fontSize'>> {
  const unit = pxPerUnit(frame)
  return {
    x: roundStored((box.cx - frame.left - frame.width / 2) / unit),
    y: roundStored((box.cy - frame.top - frame.height / 2) / unit),
    width: roundStored(frame.width > 0 ? (box.width / frame.width) * 100 : 0),
    height: roundStored(frame.height > 0 ? (box.height / frame.height) * 100 : 0),
    rotation: roundStored(normalizeRotation(box.rotation)),
  }
}

/** fontSize (200-unit basis) → px in the frame, and back (rounded). */
export function fontSizeToScreen(fontSize: number, frame: Rect): number {
  return fontSize * pxPerUnit(frame)
}
export function fontSizeToStored(px: number, frame: Rect): number {
  return roundStored(px / pxPerUnit(frame))
}

/** Degrees into (-180, 180]. */
export function normalizeRotation(degrees: number): number {
  if (!Number.isFinite(degrees)) return 0
  let r = degrees % 360
  if (r > 180) r -= 360
  if (r <= -180) r += 360
  return r === 0 ? 0 : r
}

const RAD = Math.PI / 180

/** Turns `p` clockwise by `degrees` about `centre` (y grows downwards, so this is clockwise). */
export function rotatePoint(p: Point, centre: Point, degrees: number): Point {
  const a = degrees * RAD
  const cos = Math.cos(a)
  const sin = Math.sin(a)
  const dx = p.x - centre.x
  const dy = p.y - centre.y
  return { x: centre.x + dx * cos - dy * sin, y: centre.y + dx * sin + dy * cos }
}

/** The four corners of a rotated box: top-left, top-right, bottom-right, bottom-left (before turning). */
export function boxCorners(box: Box): [Point, Point, Point, Point] {
  const c = { x: box.cx, y: box.cy }
  const hw = box.width / 2
  const hh = box.height / 2
  return [
    rotatePoint({ x: box.cx - hw, y: box.cy - hh }, c, box.rotation),
    rotatePoint({ x: box.cx + hw, y: box.cy - hh }, c, box.rotation),
    rotatePoint({ x: box.cx + hw, y: box.cy + hh }, c, box.rotation),
    rotatePoint({ x: box.cx - hw, y: box.cy + hh }, c, box.rotation),
  ]
}

/** The axis-aligned bounding box of a rotated box. */
export function boundingBox(box: Box): Rect {
  return rectOfPoints(boxCorners(box))
}

export function rectOfPoints(points: readonly Point[]): Rect {
  let minX = Infinity
  let minY = Infinity
  let maxX = -Infinity
  let maxY = -Infinity
  for (const p of points) {
    minX = Math.min(minX, p.x)
    minY = Math.min(minY, p.y)
    maxX = Math.max(maxX, p.x)
    maxY = Math.max(maxY, p.y)
  }
  if (!Number.isFinite(minX)) return { left: 0, top: 0, width: 0, height: 0 }
  return { left: minX, top: minY, width: maxX - minX, height: maxY - minY }
}

export function unionRect(rects: readonly Rect[]): Rect {
  return rectOfPoints(
    rects.flatMap((r) => [
      { x: r.left, y: r.top },
      { x: r.left + r.width, y: r.top + r.height },
    ]),
  )
}

/** Whether `p` lies inside the rotated box (edges included, `slop` px of tolerance). */
export function hitTest(p: Point, box: Box, slop = 0): boolean {
  const local = rotatePoint(p, { x: box.cx, y: box.cy }, -box.rotation)
  return (
    Math.abs(local.x - box.cx) <= box.width / 2 + slop &&
    Math.abs(local.y - box.cy) <= box.height / 2 + slop
  )
}

export function rectsIntersect(a: Rect, b: Rect): boolean {
  return (
    a.left <= b.left + b.width &&
    b.left <= a.left + a.width &&
    a.top <= b.top + b.height &&
    b.top <= a.top + a.height
  )
}

/** The rectangle spanned by two points (a marquee). */
export function rectFromPoints(a: Point, b: Point): Rect {
  return rectOfPoints([a, b])
}

// ---------------------------------------------------------------------------------------------
// Grid

/** Nearest multiple of `size` measured from `origin`. */
export function snapValue(value: number, size: number, origin = 0): number {
  if (!(size > 0)) return value
  return origin + Math.round((value - origin) / size) * size
}

/**
 * Moves a box so the top-left corner of its bounding box sits on the grid of `frame` (grid lines
 * start at the frame's top-left corner). `size` is in the same px as the frame.
 */
export function snapBoxToGrid(box: Box, frame: Rect, size: number): Box {
  const bb = boundingBox(box)
  const left = snapValue(bb.left, size, frame.left)
  const top = snapValue(bb.top, size, frame.top)
  return { ...box, cx: box.cx + (left - bb.left), cy: box.cy + (top - bb.top) }
}

/** Grid size in screen px at a zoom (20 px at 100%). */
export function gridPx(gridSize: number, zoom: number): number {
  return gridSize * zoom
}

// ---------------------------------------------------------------------------------------------
// Alignment guides

export interface Guide {
  /** 'v': a vertical line at x = pos; 'h': a horizontal line at y = pos. */
  axis: 'v' | 'h'
  pos: number
  /** Extent of the line along the other axis. */
  from: number
  to: number
}

export interface GuideResult {
  /** Shift to apply to the moving rectangle so it sits on the guides found. */
  dx: number
  dy: number
  guides: Guide[]
}

const lines = (r: Rect, axis: 'v' | 'h') =>
  axis === 'v'
    ? [r.left, r.left + r.width / 2, r.left + r.width]
    : [r.top, r.top + r.height / 2, r.top + r.height]

/** Lines closer than this are the same line. */
const SAME_LINE = 1e-6

/**
 * One axis's target lines, sorted by position, then by their order among the targets (the target's
 * index × 3 + the line's: left, centre, right or top, middle, bottom).
 */
interface LineIndex {
  at: Float64Array
  order: Int32Array
}

/**
 * What a drag's guides snap to, searched in logarithmic time: the targets' lines on each axis,
 * sorted once. Built once per drag (the targets hold still); every move then looks up the few
 * lines near the moving ones instead of comparing them with every target's.
 */
export interface GuideTargets {
  readonly rects: readonly Rect[]
  readonly v: LineIndex
  readonly h: LineIndex
}

function lineIndex(rects: readonly Rect[], axis: 'v' | 'h'): LineIndex {
  const all = rects.flatMap((r, i) => lines(r, axis).map((at, j) => ({ at, order: i * 3 + j })))
  all.sort((a, b) => a.at - b.at || a.order - b.order)
  return {
    at: Float64Array.from(all, (l) => l.at),
    order: Int32Array.from(all, (l) => l.order),
  }
}

/** The targets' lines indexed for `findGuides`: the background frame first, then other blocks. */
export function guideTargets(rects: readonly Rect[]): GuideTargets {
  // Lines at NaN (a broken rectangle) would break the order; such a target is left out.
  const usable = rects.filter((r) => [...lines(r, 'v'), ...lines(r, 'h')].every(Number.isFinite))
  return { rects: usable, v: lineIndex(usable, 'v'), h: lineIndex(usable, 'h') }
}

/** Nothing to snap to. */
export const NO_GUIDE_TARGETS: GuideTargets = guideTargets([])

/** The first index whose line is at `value` or after it. */
function firstFrom(index: LineIndex, value: number): number {
  let lo = 0
  let hi = index.at.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (index.at[mid]! < value) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * The shift (target line − moving line) of the nearest match within `threshold`, or null. Among
 * equally near matches the first target's first line wins, then the first moving line: the order
 * in which a person reads the targets.
 */
function nearestShift(index: LineIndex, own: readonly number[], threshold: number): number | null {
  let best: { d: number; order: number; line: number } | null = null
  for (let line = 0; line < own.length; line += 1) {
    const m = own[line]!
    const after = firstFrom(index, m)
    // The nearest line at or after m, and the nearest before it, each the first of its run of
    // equal positions (a run is sorted by order, so its first holds the first target).
    const candidates = [after, after > 0 ? firstFrom(index, index.at[after - 1]!) : -1]
    for (const i of candidates) {
      if (i < 0 || i >= index.at.length) continue
      const d = index.at[i]! - m
      if (Math.abs(d) > threshold) continue
      const order = index.order[i]!
      if (
        best === null ||
        Math.abs(d) < Math.abs(best.d) ||
        (Math.abs(d) === Math.abs(best.d) &&
          (order < best.order || (order === best.order && line < best.line)))
      )
        best = { d, order, line }
    }
  }
  return best?.d ?? null
}

/**
 * Guides for a rectangle being dragged: its left/centre/right (top/middle/bottom) against the
 * same lines of each target (the background frame first, then other blocks). The nearest match
 * within `threshold` px on each axis wins; every target line at that same position is reported,
 * spanning the targets on it and the rectangle where it lands.
 */
export function findGuides(moving: Rect, targets: GuideTargets, threshold: number): GuideResult {
  const dx = nearestShift(targets.v, lines(moving, 'v'), threshold)
  const dy = nearestShift(targets.h, lines(moving, 'h'), threshold)
  const moved: Rect = { ...moving, left: moving.left + (dx ?? 0), top: moving.top + (dy ?? 0) }
  const result: GuideResult = { dx: dx ?? 0, dy: dy ?? 0, guides: [] }
  for (const axis of ['v', 'h'] as const) {
    if ((axis === 'v' ? dx : dy) === null) continue
    const index = targets[axis]
    // The target lines on the moved rectangle's own, in the targets' order.
    const on = new Set<number>()
    for (const m of lines(moved, axis)) {
      for (let i = firstFrom(index, m - SAME_LINE); i < index.at.length; i += 1) {
        const t = index.at[i]!
        if (t >= m + SAME_LINE) break
        if (Math.abs(m - t) < SAME_LINE) on.add(index.order[i]!)
      }
    }
    for (const order of [...on].sort((a, b) => a - b)) {
      const target = targets.rects[Math.floor(order / 3)]!
      const t = lines(target, axis)[order % 3]!
      const key = Math.round(t * 1000)
      const [from, to]: [number, number] =
        axis === 'v'
          ? [
              Math.min(moved.top, target.top),
              Math.max(moved.top + moved.height, target.top + target.height),
            ]
          : [
              Math.min(moved.left, target.left),
              Math.max(moved.left + moved.width, target.left + target.width),
            ]
      const existing = result.guides.find(
        (g) => g.axis === axis && Math.round(g.pos * 1000) === key,
      )
      if (existing) {
        existing.from = Math.min(existing.from, from)
        existing.to = Math.max(existing.to, to)
      } else result.guides.push({ axis, pos: t, from, to })
    }
  }
  return result
}

// ---------------------------------------------------------------------------------------------
// Align and distribute (multi-select)

export type AlignMode = 'left' | 'hcenter' | 'right' | 'top' | 'vcenter' | 'bottom'

/**
 * Shifts (dx, dy per rectangle) that align bounding boxes. Several rectangles align to their
 * union; a single one aligns to `reference` (the background), when given.
 */
export function alignShifts(rects: readonly Rect[], mode: AlignMode, reference?: Rect): Point[] {
  if (rects.length === 0) return []
  const target = rects.length === 1 && reference ? reference : unionRect(rects)
  return rects.map((r) => {
    switch (mode) {
      case 'left':
        return { x: target.left - r.left, y: 0 }
      case 'right':
        return { x: target.left + target.width - (r.left + r.width), y: 0 }
      case 'hcenter':
        return { x: target.left + target.width / 2 - (r.left + r.width / 2), y: 0 }
      case 'top':
        return { x: 0, y: target.top - r.top }
      case 'bottom':
        return { x: 0, y: target.top + target.height - (r.top + r.height) }
      case 'vcenter':
        return { x: 0, y: target.top + target.height / 2 - (r.top + r.height / 2) }
    }
  })
}

/**
 * Shifts that space bounding boxes evenly along an axis: the outermost two stay, the gaps between
 * neighbours become equal. Fewer than three rectangles: nothing moves.
 */
export function distributeShifts(rects: readonly Rect[], axis: 'h' | 'v'): Point[] {
  const shifts: Point[] = rects.map(() => ({ x: 0, y: 0 }))
  if (rects.length < 3) return shifts
  const start = (r: Rect) => (axis === 'h' ? r.left : r.top)
  const size = (r: Rect) => (axis === 'h' ? r.width : r.height)
  const order = rects.map((r, i) => ({ r, i })).sort((a, b) => start(a.r) - start(b.r))
  const first = order[0]!.r
  const last = order[order.length - 1]!.r
  const span = start(last) + size(last) - start(first)
  const total = order.reduce((sum, o) => sum + size(o.r), 0)
  const gap = (span - total) / (order.length - 1)
  let cursor = start(first)
  for (const { r, i } of order) {
    const d = cursor - start(r)
    shifts[i] = axis === 'h' ? { x: d, y: 0 } : { x: 0, y: d }
    cursor += size(r) + gap
  }
  return shifts
}

// ---------------------------------------------------------------------------------------------
// Resize and rotate with handles

/** Handle positions: n, s, e, w and the corners. */
export type Handle = 'n' | 's' | 'e' | 'w' | 'ne' | 'nw' | 'se' | 'sw'
export const HANDLES: readonly Handle[] = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w']

/** Handle direction in the box's own axes: -1 left/top, 0 middle, 1 right/bottom. */
export function handleDirection(handle: Handle): Point {
  return {
    x: handle.includes('w') ? -1 : handle.includes('e') ? 1 : 0,
    y: handle.includes('n') ? -1 : handle.includes('s') ? 1 : 0,
  }
}

/** Where a handle sits on screen. */
export function handlePoint(box: Box, handle: Handle): Point {
  const d = handleDirection(handle)
  return rotatePoint(
    { x: box.cx + (d.x * box.width) / 2, y: box.cy + (d.y * box.height) / 2 },
    { x: box.cx, y: box.cy },
    box.rotation,
  )
}

export interface ResizeOptions {
  /** Smallest width/height in px. */
  min?: number
  /** Keep the width:height ratio (corner handles). */
  keepAspect?: boolean
}

/**
 * Resizes a (possibly rotated) box by dragging `handle` to `pointer`: the opposite side or corner
 * stays where it is on screen, the dragged one follows the pointer along the box's own axes.
 */
export function resizeBox(
  box: Box,
  handle: Handle,
  pointer: Point,
  options: ResizeOptions = {},
): Box {
  const min = options.min ?? 4
  const d = handleDirection(handle)
  const centre = { x: box.cx, y: box.cy }
  // Pointer in the box's unrotated frame, relative to the centre.
  const local = rotatePoint(pointer, centre, -box.rotation)
  const lx = local.x - box.cx
  const ly = local.y - box.cy
  // The fixed anchor (opposite handle) in local coordinates.
  const ax = (-d.x * box.width) / 2
  const ay = (-d.y * box.height) / 2
  let width = d.x === 0 ? box.width : Math.max(min, d.x * (lx - ax))
  let height = d.y === 0 ? box.height : Math.max(min, d.y * (ly - ay))
  if (options.keepAspect && d.x !== 0 && d.y !== 0 && box.width > 0 && box.height > 0) {
    const ratio = box.width / box.height
    if (width / height > ratio) height = width / ratio
    else width = height * ratio
  }
  // New centre in local coordinates: anchor + half the new size towards the handle.
  const ncx = d.x === 0 ? 0 : ax + (d.x * width) / 2
  const ncy = d.y === 0 ? 0 : ay + (d.y * height) / 2
  const c = rotatePoint({ x: box.cx + ncx, y: box.cy + ncy }, centre, box.rotation)
  return { cx: c.x, cy: c.y, width, height, rotation: box.rotation }
}

/**
 * Rotation (degrees clockwise, normalised) that makes the box's top point at `pointer` (the rotate
 * handle sits above the top edge). With `step`, the angle snaps to multiples of it.
 */
export function rotationTowards(centre: Point, pointer: Point, step?: number): number {
  const angle = (Math.atan2(pointer.y - centre.y, pointer.x - centre.x) * 180) / Math.PI + 90
  const snapped = step && step > 0 ? Math.round(angle / step) * step : angle
  return normalizeRotation(snapped)
}

// ---------------------------------------------------------------------------------------------
// Viewport (zoom and pan)

export interface Viewport {
  zoom: number
  /** Screen position of the world origin. */
  panX: number
  panY: number
}

export const MIN_ZOOM = 0.1
export const MAX_ZOOM = 8

export function clampZoom(zoom: number): number {
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, Number.isFinite(zoom) ? zoom : 1))
}

export function worldToScreen(p: Point, view: Viewport): Point {
  return { x: p.x * view.zoom + view.panX, y: p.y * view.zoom + view.panY }
}

export function screenToWorld(p: Point, view: Viewport): Point {
  return { x: (p.x - view.panX) / view.zoom, y: (p.y - view.panY) / view.zoom }
}

/** Zooms to `zoom` keeping the world point under `anchor` (screen px) where it is. */
export function zoomAt(view: Viewport, zoom: number, anchor: Point): Viewport {
  const next = clampZoom(zoom)
  const world = screenToWorld(anchor, view)
  return { zoom: next, panX: anchor.x - world.x * next, panY: anchor.y - world.y * next }
}

/** A world rectangle on screen. */
export function rectToScreen(r: Rect, view: Viewport): Rect {
  return {
    left: r.left * view.zoom + view.panX,
    top: r.top * view.zoom + view.panY,
    width: r.width * view.zoom,
    height: r.height * view.zoom,
  }
}
