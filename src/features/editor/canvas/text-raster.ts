/**
 * Where a paragraph's picture goes on the canvas so that its glyphs stand on the screen's pixels as
 * the browser paints them (docs/editor.md «Canvas and preview, pixel for pixel»). Pure: numbers in,
 * numbers out.
 *
 * The browser paints a line's glyphs at their exact place on the page, each glyph rounded to a
 * whole device pixel by the font rasteriser. A 2D canvas rounds the same way within its own
 * pixels. So a paragraph drawn into a picture one texel per device pixel, with the paragraph's
 * corner at the same fraction of a pixel (its phase) inside the picture as on the screen, and the
 * picture laid on whole device pixels, has every glyph where the browser would put it.
 */

/** The parent's transform to device pixels: x' = a·x + c·y + tx, y' = b·x + d·y + ty. */
export interface DeviceTransform {
  a: number
  b: number
  c: number
  d: number
  tx: number
  ty: number
}

/** How a paragraph is drawn into its picture: texels per local unit and where its corner falls. */
export interface RasterView {
  /** Device pixels (texels) per local unit. */
  scale: number
  /** The paragraph's corner within a texel, 0 ≤ phase < 1 (0 when it cannot stand on pixels). */
  phaseX: number
  phaseY: number
  /** Whether the picture lands on whole device pixels (no rotation, skew or mirroring). */
  snapped: boolean
}

/** The largest picture side drawn; a larger one is drawn smaller and stretched (deep zoom). */
export const MAX_RASTER_SIDE = 4096

const EPS = 1e-9

/**
 * How to draw the paragraph whose top left corner is at (x0, y0) in its parent's coordinates, the
 * parent drawn with `m` on the device. `extent` is the paragraph's size in local units; a picture
 * of it larger than `MAX_RASTER_SIDE` texels is drawn at a smaller scale and not snapped.
 */
export function rasterView(
  m: DeviceTransform,
  x0: number,
  y0: number,
  extent: { width: number; height: number },
): RasterView {
  const axisAligned = Math.abs(m.b) < EPS && Math.abs(m.c) < EPS && m.a > 0 && m.d > 0
  const scale = Math.hypot(m.a, m.b)
  const side = Math.max(extent.width, extent.height, EPS) * scale
  if (side > MAX_RASTER_SIDE) {
    return {
      scale: MAX_RASTER_SIDE / Math.max(extent.width, extent.height),
      phaseX: 0,
      phaseY: 0,
      snapped: false,
    }
  }
  if (!axisAligned || Math.abs(m.a - m.d) > 1e-6 * m.a) {
    return { scale, phaseX: 0, phaseY: 0, snapped: false }
  }
  const dx = m.a * x0 + m.tx
  const dy = m.d * y0 + m.ty
  return { scale, phaseX: phase(dx), phaseY: phase(dy), snapped: true }
}

/** The fraction of a pixel past the whole one, robust to float noise just under a whole number. */
export function phase(n: number): number {
  const f = n - Math.floor(n)
  return f > 1 - 1e-6 ? 0 : f
}

/** Where each line of a paragraph starts, in local units from the paragraph's corner. */
export interface LineOrigin {
  x: number
  /** The line's baseline. */
  y: number
}

/**
 * The lines of a paragraph `width` wide, aligned by `align` (0 left, 0.5 centre, 1 right), the
 * first line's baseline `baseline` below the top and the next ones `lineHeight` apart (as CSS lays
 * out a block of lines).
 */
export function lineOrigins(
  lineWidths: readonly number[],
  width: number,
  align: number,
  baseline: number,
  lineHeight: number,
): LineOrigin[] {
  return lineWidths.map((w, i) => ({ x: align * (width - w), y: baseline + i * lineHeight }))
}

/**
 * The picture of a paragraph drawn at `view`: its size in texels, where each line is drawn in it,
 * and where the picture's top left corner goes in the parent's coordinates (`x`, `y`; it is drawn
 * `1 / view.scale` units per texel). `margin` texels around the lines leave room for glyphs that
 * reach past the line box (descenders, overhangs).
 */
export interface RasterLayout {
  width: number
  height: number
  /** Each line's start and baseline in the picture, in texels. */
  lines: LineOrigin[]
  x: number
  y: number
}

export function rasterLayout(
  view: RasterView,
  x0: number,
  y0: number,
  lines: readonly LineOrigin[],
  lineWidths: readonly number[],
  boxHeight: number,
  margin: number,
): RasterLayout {
  const k = view.scale
  let minX = 0
  let maxX = 0
  lines.forEach((line, i) => {
    minX = Math.min(minX, line.x)
    maxX = Math.max(maxX, line.x + (lineWidths[i] ?? 0))
  })
  // The picture's corner, in whole texels from the paragraph's pixel (its corner less its phase).
  const ox = Math.floor(minX * k) - margin
  const oy = -margin
  return {
    width: Math.ceil(maxX * k) - ox + margin + 1,
    height: Math.ceil(boxHeight * k) - oy + margin + 1,
    lines: lines.map((l) => ({ x: view.phaseX - ox + l.x * k, y: view.phaseY - oy + l.y * k })),
    x: x0 + (ox - view.phaseX) / k,
    y: y0 + (oy - view.phaseY) / k,
  }
}
