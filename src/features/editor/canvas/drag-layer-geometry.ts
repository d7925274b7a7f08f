/**
 * The compositor drag layer's arithmetic (pure: no Pixi, no DOM; unit-tested). While blocks are
 * moved, they and their selection are drawn once into a small picture shown in an element of its
 * own over the Pixi canvas, and each pointer move only shifts that element (docs/editor.md
 * «Drawing»). These functions say where the picture goes, how far it moves and when it may be used.
 */

/** A rectangle in screen (CSS) px. */
export interface ScreenRect {
  x: number
  y: number
  width: number
  height: number
}

/** Device px of transparent border around the moving blocks' bounds (antialiased edges). */
export const LAYER_MARGIN = 2

/**
 * The layer's rectangle for the moving blocks' screen `bounds` (their boxes and their selection):
 * the union, widened by `margin` device px, with every edge on a whole device pixel at
 * `resolution`, so the picture's pixels fall on the screen's pixels exactly as the live scene's do.
 * Null when there is nothing to show.
 */
export function layerRect(
  bounds: readonly ScreenRect[],
  resolution: number,
  margin = LAYER_MARGIN,
): ScreenRect | null {
  const drawn = bounds.filter(
    (b) =>
      Number.isFinite(b.x) &&
      Number.isFinite(b.y) &&
      Number.isFinite(b.width) &&
      Number.isFinite(b.height) &&
      b.width > 0 &&
      b.height > 0,
  )
  if (drawn.length === 0 || !(resolution > 0)) return null
  const left = Math.min(...drawn.map((b) => b.x))
  const top = Math.min(...drawn.map((b) => b.y))
  const right = Math.max(...drawn.map((b) => b.x + b.width))
  const bottom = Math.max(...drawn.map((b) => b.y + b.height))
  const x0 = Math.floor(left * resolution) - margin
  const y0 = Math.floor(top * resolution) - margin
  const x1 = Math.ceil(right * resolution) + margin
  const y1 = Math.ceil(bottom * resolution) + margin
  return {
    x: x0 / resolution,
    y: y0 / resolution,
    width: (x1 - x0) / resolution,
    height: (y1 - y0) / resolution,
  }
}

/**
 * How far the layer is shifted for a move of the blocks by (`dx`, `dy`) screen px: to the nearest
 * whole device pixel, so the compositor copies the picture's pixels rather than resampling them
 * (the blocks show at most half a device pixel from where the live scene draws them; at release
 * the live scene draws them at the exact place).
 */
export function layerShift(dx: number, dy: number, resolution: number): { x: number; y: number } {
  const r = resolution > 0 ? resolution : 1
  const snap = (v: number) => (Number.isFinite(v) ? Math.round(v * r) / r : 0)
  return { x: snap(dx), y: snap(dy) }
}

export interface LayerLimits {
  /** The screen, in CSS px. */
  screen: { width: number; height: number }
  resolution: number
  /** The largest texture side the GPU takes, in device px. */
  maxTextureSize: number
}

/**
 * Whether a layer of `rect` is worth it: wholly on the screen, not larger in area than the screen
 * (a block larger than that, or partly off the screen, is left to the canvas) and within the GPU's
 * texture size.
 */
export function layerFits(rect: ScreenRect, limits: LayerLimits): boolean {
  const r = limits.resolution
  const { width, height } = limits.screen
  if (rect.x < 0 || rect.y < 0 || rect.x + rect.width > width || rect.y + rect.height > height)
    return false
  if (rect.width * rect.height > width * height) return false
  return rect.width * r <= limits.maxTextureSize && rect.height * r <= limits.maxTextureSize
}

/** Whether two rectangles share any area (touching edges do not). */
export function overlaps(a: ScreenRect, b: ScreenRect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}

/**
 * Whether the layer, shifted by `shift`, would cover something that is drawn over the moving
 * blocks (`over`: screen bounds of the still drawables above them in the scene's order). The layer
 * shows over the whole canvas, so there it would hide what should hide it: the drag then goes on
 * drawn by the canvas (docs/editor.md «Drawing»).
 */
export function coversAbove(
  rect: ScreenRect,
  shift: { x: number; y: number },
  over: readonly ScreenRect[],
): boolean {
  const moved = { ...rect, x: rect.x + shift.x, y: rect.y + shift.y }
  return over.some((o) => overlaps(moved, o))
}

/**
 * Pixels read back from WebGL are premultiplied by their alpha; a 2D canvas's `ImageData` is
 * not. Divides each colour by its alpha in place (a transparent pixel stays 0, 0, 0, 0), so the
 * browser, which premultiplies again when it composites, shows the colours WebGL drew.
 */
export function unpremultiply(pixels: Uint8ClampedArray | Uint8Array): void {
  for (let i = 0; i < pixels.length; i += 4) {
    const a = pixels[i + 3]!
    if (a === 255) continue
    if (a === 0) {
      pixels[i] = 0
      pixels[i + 1] = 0
      pixels[i + 2] = 0
      continue
    }
    pixels[i] = Math.min(255, Math.round((pixels[i]! * 255) / a))
    pixels[i + 1] = Math.min(255, Math.round((pixels[i + 1]! * 255) / a))
    pixels[i + 2] = Math.min(255, Math.round((pixels[i + 2]! * 255) / a))
  }
}

/** A guide line from the snapping, in screen px: a 1 px line as the canvas draws it. */
export function guideRect(a: { x: number; y: number }, b: { x: number; y: number }): ScreenRect {
  const vertical = Math.abs(a.x - b.x) < Math.abs(a.y - b.y)
  const x = Math.min(a.x, b.x)
  const y = Math.min(a.y, b.y)
  return vertical
    ? { x: x - 0.5, y, width: 1, height: Math.abs(b.y - a.y) }
    : { x, y: y - 0.5, width: Math.abs(b.x - a.x), height: 1 }
}
