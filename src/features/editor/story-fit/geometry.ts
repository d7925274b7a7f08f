import type { Size } from '../../../domain/geometry.ts'

/**
 * A story slide is 9:16 (docs/editor.md «Story slides of another shape»). A picture whose width to
 * height differs from it by more than `STORY_ASPECT_TOLERANCE` (relative) is cropped or fitted on
 * the device before it is added.
 */
export const STORY_ASPECT = 9 / 16
export const STORY_ASPECT_TOLERANCE = 0.02

export interface Rect {
  x: number
  y: number
  width: number
  height: number
}

/** Whether a picture of this size needs cropping or fitting to become a story slide. */
export function needsStoryFit(size: Size, tolerance = STORY_ASPECT_TOLERANCE): boolean {
  if (size.width <= 0 || size.height <= 0) return false
  return Math.abs(size.width / size.height / STORY_ASPECT - 1) > tolerance
}

/** Which side of the picture is longer than a 9:16 window allows: the one the crop moves along. */
export function cropAxis(size: Size): 'x' | 'y' {
  return size.width / size.height > STORY_ASPECT ? 'x' : 'y'
}

const clamp01 = (v: number) => (Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0.5)

/**
 * The 9:16 window inside the picture, in its pixels: as large as the picture allows, moved along the
 * long side by `offset` (0 = left or top edge, 0.5 = centred, 1 = right or bottom edge).
 */
export function cropWindow(size: Size, offset = 0.5): Rect {
  const t = clamp01(offset)
  if (cropAxis(size) === 'x') {
    const width = Math.max(1, Math.min(size.width, Math.round(size.height * STORY_ASPECT)))
    return { x: Math.round((size.width - width) * t), y: 0, width, height: size.height }
  }
  const height = Math.max(1, Math.min(size.height, Math.round(size.width / STORY_ASPECT)))
  return { x: 0, y: Math.round((size.height - height) * t), width: size.width, height }
}

/**
 * The offset after dragging the window by `delta` picture pixels along its axis from `start`
 * (a drag that moves the picture under a still frame passes the opposite sign).
 */
export function movedOffset(size: Size, start: number, delta: number): number {
  const window = cropWindow(size, start)
  const room = cropAxis(size) === 'x' ? size.width - window.width : size.height - window.height
  if (room <= 0) return 0.5
  return clamp01(clamp01(start) + delta / room)
}

/**
 * Fitting: a 9:16 canvas whose short side is the picture's (so the picture keeps its resolution,
 * never scaled up or down), with the picture centred on it and the rest left for the margin colour.
 */
export function fitPlacement(size: Size): { canvas: Size; picture: Rect } {
  if (cropAxis(size) === 'x') {
    const height = Math.max(size.height, Math.round(size.width / STORY_ASPECT))
    return {
      canvas: { width: size.width, height },
      picture: { x: 0, y: Math.round((height - size.height) / 2), ...size },
    }
  }
  const width = Math.max(size.width, Math.round(size.height * STORY_ASPECT))
  return {
    canvas: { width, height: size.height },
    picture: { x: Math.round((width - size.width) / 2), y: 0, ...size },
  }
}

/**
 * The scale (≤ 1) that keeps an output of `size` within what a browser canvas draws: at most
 * `maxSide` px on a side and `maxPixels` in all. Never above 1: nothing is enlarged.
 */
export function outputScale(size: Size, maxSide = 8192, maxPixels = 32 * 1024 * 1024): number {
  const bySide = maxSide / Math.max(size.width, size.height)
  const byArea = Math.sqrt(maxPixels / (size.width * size.height))
  return Math.min(1, bySide, byArea)
}

/** A size multiplied by `scale`, whole pixels, at least 1. */
export function scaled(size: Size, scale: number): Size {
  return {
    width: Math.max(1, Math.round(size.width * scale)),
    height: Math.max(1, Math.round(size.height * scale)),
  }
}

const hex = (v: number) => Math.round(v).toString(16).padStart(2, '0')

/**
 * The margin colour a fit starts with: the mean of the picture's edge rows (top and bottom, where
 * the margins of a wide picture go) or columns (left and right, for a tall one), from RGBA pixels.
 * White when there is nothing to read or the edge is mostly transparent.
 */
export function edgeColour(rgba: ArrayLike<number>, size: Size, axis: 'x' | 'y'): string {
  const { width, height } = size
  if (width <= 0 || height <= 0 || rgba.length < width * height * 4) return '#ffffff'
  let r = 0
  let g = 0
  let b = 0
  let a = 0
  let n = 0
  const add = (x: number, y: number) => {
    const i = (y * width + x) * 4
    const alpha = rgba[i + 3]! / 255
    r += rgba[i]! * alpha
    g += rgba[i + 1]! * alpha
    b += rgba[i + 2]! * alpha
    a += alpha
    n += 1
  }
  if (axis === 'x') {
    for (let x = 0; x < width; x++) {
      add(x, 0)
      if (height > 1) add(x, height - 1)
    }
  } else {
    for (let y = 0; y < height; y++) {
      add(0, y)
      if (width > 1) add(width - 1, y)
    }
  }
  if (n === 0 || a / n < 0.5) return '#ffffff'
  return `#${hex(r / a)}${hex(g / a)}${hex(b / a)}`
}
