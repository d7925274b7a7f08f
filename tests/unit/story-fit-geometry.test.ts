import { describe, expect, it } from 'vitest'
import {
  cropWindow,
  edgeColour,
  fitPlacement,
  movedOffset,
  needsStoryFit,
  outputScale,
  scaled,
} from '../../src/features/editor/story-fit/geometry.ts'

describe('which pictures a story asks about', () => {
  it('asks for landscape, square and too-tall pictures, not for 9:16 within 2 %', () => {
    expect(needsStoryFit({ width: 1600, height: 900 })).toBe(true)
    expect(needsStoryFit({ width: 1000, height: 1000 })).toBe(true)
    expect(needsStoryFit({ width: 900, height: 2400 })).toBe(true)
    expect(needsStoryFit({ width: 1080, height: 1920 })).toBe(false)
    expect(needsStoryFit({ width: 101, height: 180 })).toBe(false)
    expect(needsStoryFit({ width: 90, height: 160 })).toBe(false)
  })
})

describe('the crop window', () => {
  it('is the full height of a wide picture, 9:16, centred by default', () => {
    expect(cropWindow({ width: 1600, height: 900 })).toEqual({
      x: 547,
      y: 0,
      width: 506,
      height: 900,
    })
  })

  it('moves along the long side with the offset, from edge to edge, and no further', () => {
    const size = { width: 1600, height: 900 }
    expect(cropWindow(size, 0).x).toBe(0)
    expect(cropWindow(size, 1).x).toBe(1600 - 506)
    expect(cropWindow(size, 2).x).toBe(1600 - 506)
    expect(cropWindow(size, -1).x).toBe(0)
    expect(cropWindow(size, Number.NaN).x).toBe(547)
  })

  it('is the full width of a tall picture and moves up and down', () => {
    const size = { width: 900, height: 3000 }
    expect(cropWindow(size, 0)).toEqual({ x: 0, y: 0, width: 900, height: 1600 })
    expect(cropWindow(size, 1)).toEqual({ x: 0, y: 1400, width: 900, height: 1600 })
  })

  it('follows a drag: picture pixels over the room left to move, clamped at the edges', () => {
    const size = { width: 1600, height: 900 }
    const room = 1600 - 506
    expect(movedOffset(size, 0.5, room / 4)).toBeCloseTo(0.75, 6)
    expect(movedOffset(size, 0.5, -room)).toBe(0)
    expect(movedOffset(size, 0.9, room)).toBe(1)
  })
})

describe('fitting with margins', () => {
  it('puts a wide picture across a 9:16 canvas of its own width, centred, not scaled', () => {
    expect(fitPlacement({ width: 1600, height: 900 })).toEqual({
      canvas: { width: 1600, height: 2844 },
      picture: { x: 0, y: 972, width: 1600, height: 900 },
    })
  })

  it('puts a tall picture across a 9:16 canvas of its own height', () => {
    expect(fitPlacement({ width: 900, height: 3000 })).toEqual({
      canvas: { width: 1688, height: 3000 },
      picture: { x: 394, y: 0, width: 900, height: 3000 },
    })
  })
})

describe('the output size', () => {
  it('is never enlarged and shrinks only past what a canvas draws', () => {
    expect(outputScale({ width: 1600, height: 2844 })).toBe(1)
    expect(outputScale({ width: 4000, height: 7111 })).toBe(1)
    // A side of 9000 px is past 8192; 8000 × 14222 px is past 32 Mpx before its side is.
    expect(outputScale({ width: 9000, height: 900 })).toBeCloseTo(8192 / 9000, 6)
    expect(outputScale({ width: 8000, height: 14222 })).toBeCloseTo(
      Math.sqrt((32 * 1024 * 1024) / (8000 * 14222)),
      6,
    )
    expect(scaled({ width: 1600, height: 2844 }, 0.5)).toEqual({ width: 800, height: 1422 })
  })
})

describe('the margin colour a fit starts with', () => {
  const pixels = (width: number, height: number, at: (x: number, y: number) => number[]) => {
    const data: number[] = []
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.push(...at(x, y))
    return data
  }

  it('is the mean of the top and bottom rows of a wide picture', () => {
    const data = pixels(4, 3, (_x, y) =>
      y === 0 ? [255, 0, 0, 255] : y === 2 ? [0, 0, 255, 255] : [0, 255, 0, 255],
    )
    expect(edgeColour(data, { width: 4, height: 3 }, 'x')).toBe('#800080')
  })

  it('is the mean of the side columns of a tall picture', () => {
    const data = pixels(3, 4, (x) => (x === 1 ? [0, 0, 0, 255] : [200, 100, 50, 255]))
    expect(edgeColour(data, { width: 3, height: 4 }, 'y')).toBe('#c86432')
  })

  it('is white for a transparent edge or no pixels', () => {
    const data = pixels(2, 2, () => [0, 0, 0, 0])
    expect(edgeColour(data, { width: 2, height: 2 }, 'x')).toBe('#ffffff')
    expect(edgeColour([], { width: 2, height: 2 }, 'x')).toBe('#ffffff')
  })
})
