import { describe, expect, it } from 'vitest'
import {
  coversAbove,
  guideRect,
  layerFits,
  layerRect,
  layerShift,
  overlaps,
  unpremultiply,
} from '../../src/features/editor/canvas/drag-layer-geometry.ts'

describe('the drag layer sits on whole device pixels (docs/editor.md «Drawing»)', () => {
  it('covers the union of the bounds, widened by the margin, edges on device pixels', () => {
    const rect = layerRect(
      [
        { x: 10.3, y: 20.6, width: 30, height: 10 },
        { x: 35, y: 15.2, width: 10.1, height: 4 },
      ],
      1,
      2,
    )
    // Left 10.3 → 10 − 2, top 15.2 → 15 − 2, right 45.1 → 46 + 2, bottom 30.6 → 31 + 2.
    expect(rect).toEqual({ x: 8, y: 13, width: 40, height: 20 })
  })

  it('at resolution 2 the edges fall on half CSS pixels and the margin is in device pixels', () => {
    const rect = layerRect([{ x: 10.3, y: 20.6, width: 30, height: 10 }], 2, 2)!
    // Device px: left 20.6 → 20 − 2 = 18, top 41.2 → 41 − 2 = 39, right 80.6 → 81 + 2 = 83,
    // bottom 61.2 → 62 + 2 = 64.
    expect(rect).toEqual({ x: 9, y: 19.5, width: 32.5, height: 12.5 })
    for (const v of [rect.x, rect.y, rect.width, rect.height])
      expect(Number.isInteger(v * 2)).toBe(true)
  })

  it('ignores empty and broken bounds, and has nothing to show without any', () => {
    expect(layerRect([], 1)).toBeNull()
    expect(layerRect([{ x: 0, y: 0, width: 0, height: 5 }], 1)).toBeNull()
    expect(layerRect([{ x: Number.NaN, y: 0, width: 5, height: 5 }], 1)).toBeNull()
    expect(
      layerRect(
        [
          { x: 0, y: 0, width: 0, height: 0 },
          { x: 4, y: 4, width: 2, height: 2 },
        ],
        1,
        0,
      ),
    ).toEqual({ x: 4, y: 4, width: 2, height: 2 })
    expect(layerRect([{ x: 4, y: 4, width: 2, height: 2 }], 0)).toBeNull()
  })
})

describe('a move shifts the layer by whole device pixels', () => {
  it('rounds the shift to the device pixel grid', () => {
    expect(layerShift(3.4, -2.6, 1)).toEqual({ x: 3, y: -3 })
    expect(layerShift(3.4, -2.6, 2)).toEqual({ x: 3.5, y: -2.5 })
    expect(layerShift(Number.NaN, 1.2, 1)).toEqual({ x: 0, y: 1 })
  })

  it('snaps a shift under half a device pixel to no shift', () => {
    const { x, y } = layerShift(-0.2, 0.4, 1)
    expect([x + 0, y + 0]).toEqual([0, 0])
  })
})

describe('the layer gives way where it would be wrong', () => {
  const limits = { screen: { width: 800, height: 600 }, resolution: 2, maxTextureSize: 4096 }

  it('fits when wholly on the screen and within the texture size', () => {
    expect(layerFits({ x: 0, y: 0, width: 200, height: 100 }, limits)).toBe(true)
    expect(layerFits({ x: 600, y: 500, width: 200, height: 100 }, limits)).toBe(true)
    expect(layerFits({ x: 601, y: 500, width: 200, height: 100 }, limits)).toBe(false)
    expect(layerFits({ x: -1, y: 0, width: 200, height: 100 }, limits)).toBe(false)
    expect(layerFits({ x: 0, y: 0, width: 900, height: 600 }, limits)).toBe(false)
    const small = { screen: { width: 3000, height: 3000 }, resolution: 2, maxTextureSize: 4096 }
    expect(layerFits({ x: 0, y: 0, width: 2100, height: 10 }, small)).toBe(false)
  })

  it('finds what is drawn over the blocks under the shifted layer (touching is not covering)', () => {
    const rect = { x: 100, y: 100, width: 50, height: 20 }
    const over = [{ x: 200, y: 100, width: 40, height: 40 }]
    expect(overlaps(rect, over[0]!)).toBe(false)
    expect(coversAbove(rect, { x: 0, y: 0 }, over)).toBe(false)
    expect(coversAbove(rect, { x: 50, y: 0 }, over)).toBe(false)
    expect(coversAbove(rect, { x: 51, y: 0 }, over)).toBe(true)
    expect(coversAbove(rect, { x: 51, y: 40 }, over)).toBe(false)
    expect(coversAbove(rect, { x: 51, y: 0 }, [])).toBe(false)
  })
})

describe('pixels read back from WebGL are shown as WebGL drew them', () => {
  it('divides premultiplied colours by alpha; opaque and transparent pixels stay', () => {
    // Opaque; a half-covered white edge; a quarter of a dark blue; transparent with noise.
    const pixels = new Uint8ClampedArray([
      10, 20, 30, 255, 128, 128, 128, 128, 0, 10, 50, 64, 3, 2, 1, 0,
    ])
    unpremultiply(pixels)
    expect([...pixels]).toEqual([10, 20, 30, 255, 255, 255, 255, 128, 0, 40, 199, 64, 0, 0, 0, 0])
  })
})

describe('guides are one-pixel lines over the canvas', () => {
  it('centres a vertical and a horizontal line on the guide', () => {
    expect(guideRect({ x: 50, y: 100 }, { x: 50, y: 20 })).toEqual({
      x: 49.5,
      y: 20,
      width: 1,
      height: 80,
    })
    expect(guideRect({ x: 70, y: 8 }, { x: 10, y: 8 })).toEqual({
      x: 10,
      y: 7.5,
      width: 60,
      height: 1,
    })
  })
})
