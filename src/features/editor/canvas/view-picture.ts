import type { Viewport } from '../../../domain/geometry.ts'

/**
 * A picture of the world taken during a pan or pinch (pure: no Pixi, unit-tested).
 *
 * While the view moves, the world is drawn once into a picture and that picture is moved and scaled
 * with the view instead of drawing every block each frame. The picture shows the screen as it was
 * at `pictured`, and a margin of the world around it (`pictureMargin`); at `current` it is placed
 * by `pictureTransform`. What the moved picture no longer covers is blank until it is taken again
 * (`shouldRepicture`).
 */
export interface PictureTransform {
  /** Where the picture's top-left corner goes, in screen px. */
  x: number
  y: number
  /** How much larger the picture is drawn than it was taken. */
  scale: number
}

export interface ScreenSize {
  width: number
  height: number
}

/** Places a picture taken at the view `pictured` so it matches the view `current`. */
export function pictureTransform(pictured: Viewport, current: Viewport): PictureTransform {
  // A world point w was at w·z₀ + p₀ in the picture and belongs at w·z₁ + p₁ on the screen.
  const scale = current.zoom / pictured.zoom
  return {
    x: current.panX - pictured.panX * scale,
    y: current.panY - pictured.panY * scale,
    scale,
  }
}

/**
 * The share of the screen (0 to 1) a picture placed at `t` leaves blank: the screen as it was,
 * and `margin` px of the world around it on every side.
 */
export function uncoveredShare(t: PictureTransform, screen: ScreenSize, margin = 0): number {
  const area = screen.width * screen.height
  if (area <= 0) return 0
  const covered = (from: number, size: number, limit: number) =>
    Math.max(0, Math.min(limit, from + size * t.scale) - Math.max(0, from))
  const edge = margin * t.scale
  const shown =
    covered(t.x - edge, screen.width + 2 * margin, screen.width) *
    covered(t.y - edge, screen.height + 2 * margin, screen.height)
  return Math.min(1, Math.max(0, 1 - shown / area))
}

/**
 * The world pictured around the screen on each side (px), so that a short pan shows no blank strip
 * and takes no new picture: a fifth of the screen's longer side, within the GPU's largest texture.
 * The picture then holds (1 + 2·0.2)² ≈ 2 screens of pixels instead of one.
 */
export function pictureMargin(
  screen: ScreenSize,
  resolution: number,
  maxTextureSize: number,
): number {
  const wanted = Math.round(0.2 * Math.max(screen.width, screen.height))
  const room = Math.floor(
    (maxTextureSize / Math.max(resolution, 1e-6) - Math.max(screen.width, screen.height)) / 2,
  )
  return Math.max(0, Math.min(wanted, room))
}

export interface RepicturePolicy {
  /** A blank area at least this share of the screen is pictured again at once. */
  maxBlankShare: number
  /** Any smaller blank strip, or a picture grown soft, waits at least this long since the last. */
  intervalMs: number
  /**
   * …and at least this many times as long as taking the picture took: where a full frame is slow
   * (1,000 blocks on a GPU-less machine), re-picturing must not take over the frames again.
   */
  costFactor: number
  /** A picture drawn this many times larger (or smaller) than it was taken counts as soft. */
  maxScale: number
}

/**
 * Taking a picture costs a full frame (every block), so it is throttled: a strip revealed at the
 * edge of a long pan is filled within a quarter of a second (or three times what a picture costs,
 * if that is longer), and a quarter of the screen blank is never left showing. A pinch that zoomed
 * in far is pictured again, throttled likewise.
 */
export const REPICTURE: RepicturePolicy = {
  maxBlankShare: 0.25,
  intervalMs: 250,
  costFactor: 3,
  maxScale: 2,
}

/**
 * Whether the picture placed at `t`, taken `sinceMs` ago (which took `costMs` to take), should be
 * taken again now.
 */
export function shouldRepicture(
  t: PictureTransform,
  screen: ScreenSize,
  sinceMs: number,
  costMs = 0,
  policy: RepicturePolicy = REPICTURE,
  margin = 0,
): boolean {
  const blank = uncoveredShare(t, screen, margin)
  if (blank >= policy.maxBlankShare) return true
  const soft = t.scale > policy.maxScale || t.scale < 1 / policy.maxScale
  const interval = Math.max(policy.intervalMs, policy.costFactor * costMs)
  return (blank > 1e-6 || soft) && sinceMs >= interval
}

/** A rectangle of a picture's own pixels: device px, whole numbers, y counted from the top. */
export interface PixelRect {
  x: number
  y: number
  width: number
  height: number
}

/**
 * `rect` (px of a picture's own layout, before `resolution`) as the picture's whole pixels, widened
 * by `pad` on every side (a scaled picture samples its neighbours; an outline's edge is smoothed)
 * and clipped to the picture (`size` device px). Null when none of it is on the picture.
 */
export function picturePixels(
  rect: { x: number; y: number; width: number; height: number },
  resolution: number,
  size: ScreenSize,
  pad = 1,
): PixelRect | null {
  const x0 = Math.max(0, Math.floor(rect.x * resolution) - pad)
  const y0 = Math.max(0, Math.floor(rect.y * resolution) - pad)
  const x1 = Math.min(size.width, Math.ceil((rect.x + rect.width) * resolution) + pad)
  const y1 = Math.min(size.height, Math.ceil((rect.y + rect.height) * resolution) + pad)
  if (x1 <= x0 || y1 <= y0) return null
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }
}

/**
 * The pixels of a picture (`size` device px, taken with `margin` px of the world around the screen
 * at `resolution`) that show on the screen while it is placed at `t`, with their neighbours when
 * the picture's pixels do not fall on the screen's (a scaled picture samples them). Null when none
 * show.
 */
export function shownPixels(
  t: PictureTransform,
  screen: ScreenSize,
  margin: number,
  resolution: number,
  size: ScreenSize,
): PixelRect | null {
  // The screen point X shows the picture's point (X − t.x) / scale + margin.
  const rect = {
    x: margin - t.x / t.scale,
    y: margin - t.y / t.scale,
    width: screen.width / t.scale,
    height: screen.height / t.scale,
  }
  const aligned =
    t.scale === 1 && Number.isInteger(t.x * resolution) && Number.isInteger(t.y * resolution)
  return picturePixels(rect, resolution, size, aligned ? 0 : 1)
}

/**
 * A picture drawn as the view moves: `filled` is the part of it already drawn. To hold `needed`
 * as well it grows to the smallest rectangle holding both, reaching `ahead` px further on each
 * side it grows (the pan will go on that way), within the picture (`size`). Returns it and the
 * strips to draw for it: at most four, none overlapping `filled` or another.
 */
export function growFilled(
  filled: PixelRect,
  needed: PixelRect,
  size: ScreenSize,
  ahead: number,
): { filled: PixelRect; strips: PixelRect[] } {
  const right = filled.x + filled.width
  const bottom = filled.y + filled.height
  const needRight = needed.x + needed.width
  const needBottom = needed.y + needed.height
  const x0 = needed.x < filled.x ? Math.max(0, needed.x - ahead) : filled.x
  const y0 = needed.y < filled.y ? Math.max(0, needed.y - ahead) : filled.y
  const x1 = needRight > right ? Math.min(size.width, needRight + ahead) : right
  const y1 = needBottom > bottom ? Math.min(size.height, needBottom + ahead) : bottom
  const strips: PixelRect[] = [
    { x: x0, y: y0, width: filled.x - x0, height: y1 - y0 },
    { x: right, y: y0, width: x1 - right, height: y1 - y0 },
    { x: filled.x, y: y0, width: filled.width, height: filled.y - y0 },
    { x: filled.x, y: bottom, width: filled.width, height: y1 - bottom },
  ].filter((s) => s.width > 0 && s.height > 0)
  return { filled: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }, strips }
}

/**
 * Whether a picture placed at `t` shows on the whole screen what a frame of the live scene would
 * draw there (docs/editor.md «The end of a pan»): taken at the zoom shown, placed on whole device
 * pixels (within a rounding error of the pan's sums), reaching past every edge of the screen, and
 * drawn (`filled`) wherever the screen shows it. Otherwise it is scaled, sampled between pixels,
 * or blank somewhere.
 */
export function showsAsLive(
  t: PictureTransform,
  screen: ScreenSize,
  margin: number,
  resolution: number,
  size: ScreenSize,
  filled: PixelRect,
): boolean {
  if (t.scale !== 1) return false
  const whole = (v: number) => Math.abs(v * resolution - Math.round(v * resolution)) < 1e-6
  if (!whole(t.x) || !whole(t.y)) return false
  if (Math.abs(t.x) > margin || Math.abs(t.y) > margin) return false
  const needed = shownPixels(t, screen, margin, resolution, size)
  return (
    needed !== null &&
    needed.x >= filled.x &&
    needed.y >= filled.y &&
    needed.x + needed.width <= filled.x + filled.width &&
    needed.y + needed.height <= filled.y + filled.height
  )
}

/** A rectangle of the world (world px): `x0`, `y0` its top-left corner, `x1`, `y1` its bottom-right. */
export interface WorldRect {
  x0: number
  y0: number
  x1: number
  y1: number
}

/**
 * Whether `box` reaches into `rect` of a picture (its device px) taken at `view` with `margin` px
 * around the screen at `resolution`: what lies wholly outside need not be drawn for it.
 */
export function reachesInto(
  box: WorldRect,
  rect: PixelRect,
  view: Viewport,
  margin: number,
  resolution: number,
): boolean {
  const k = view.zoom * resolution
  const dx = (view.panX + margin) * resolution
  const dy = (view.panY + margin) * resolution
  return (
    box.x1 * k + dx >= rect.x &&
    box.x0 * k + dx <= rect.x + rect.width &&
    box.y1 * k + dy >= rect.y &&
    box.y0 * k + dy <= rect.y + rect.height
  )
}
