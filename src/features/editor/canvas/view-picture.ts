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
