import { describe, expect, it } from 'vitest'
import {
  lineOrigins,
  MAX_RASTER_SIDE,
  phase,
  rasterLayout,
  rasterView,
  type DeviceTransform,
} from '../../src/features/editor/canvas/text-raster.ts'

/** A block's container on the device: the world's zoom and pan, the block's centre, the screen's density. */
function device(
  zoom: number,
  pan: { x: number; y: number },
  at: { x: number; y: number },
  dpr = 1,
) {
  return {
    a: zoom * dpr,
    b: 0,
    c: 0,
    d: zoom * dpr,
    tx: (pan.x + at.x * zoom) * dpr,
    ty: (pan.y + at.y * zoom) * dpr,
  } satisfies DeviceTransform
}

const onDevice = (m: DeviceTransform, x: number, y: number) => ({
  x: m.a * x + m.c * y + m.tx,
  y: m.b * x + m.d * y + m.ty,
})

const whole = (n: number) => Math.abs(n - Math.round(n)) < 1e-6

// Blocks left where a drag leaves them (fractions of a unit), at zooms and pans people use.
const cases = [
  { zoom: 1, pan: { x: 107, y: 40 }, at: { x: 600.37, y: 337.6254 }, dpr: 1 },
  { zoom: 0.75, pan: { x: 12.5, y: -301.25 }, at: { x: 245.123, y: 901.77 }, dpr: 1 },
  { zoom: 1.37, pan: { x: -40.3, y: 18.9 }, at: { x: 80.5, y: 60.25 }, dpr: 2 },
  { zoom: 2.5, pan: { x: 0.1, y: 0.7 }, at: { x: 333.333, y: 12.0001 }, dpr: 1.5 },
]

describe('a paragraph drawn on the screen’s pixels', () => {
  it.each(cases)(
    'lays its picture on whole device pixels at zoom $zoom, density $dpr',
    ({ zoom, pan, at, dpr }) => {
      const m = device(zoom, pan, at, dpr)
      const corner = { x: -150.25, y: -50.625 }
      const widths = [280.4, 297.9, 150.05]
      const lines = lineOrigins(widths, 300, 0.5, 25.4, 33.75)
      const view = rasterView(m, corner.x, corner.y, { width: 300, height: 101.25 })
      expect(view.snapped).toBe(true)
      expect(view.scale).toBeCloseTo(zoom * dpr, 9)
      const layout = rasterLayout(view, corner.x, corner.y, lines, widths, 101.25, 8)
      // The picture's corner is on a whole device pixel: its texels are the screen's pixels.
      const origin = onDevice(m, layout.x, layout.y)
      expect(whole(origin.x), `x ${origin.x}`).toBe(true)
      expect(whole(origin.y), `y ${origin.y}`).toBe(true)
      // Each line starts where the screen has it, to the fraction of a pixel (the rasteriser rounds
      // each glyph from there, as the browser does).
      lines.forEach((line, i) => {
        const exact = onDevice(m, corner.x + line.x, corner.y + line.y)
        expect(origin.x + layout.lines[i]!.x).toBeCloseTo(exact.x, 6)
        expect(origin.y + layout.lines[i]!.y).toBeCloseTo(exact.y, 6)
      })
      // Every line, with its margin, is inside the picture.
      for (const [i, line] of layout.lines.entries()) {
        expect(line.x).toBeGreaterThanOrEqual(8)
        expect(line.x + widths[i]! * view.scale).toBeLessThanOrEqual(layout.width - 8)
        expect(line.y).toBeLessThanOrEqual(layout.height - 8)
      }
    },
  )

  it('keeps the screen’s fraction when the view pans by part of a pixel', () => {
    const corner = { x: -100, y: -20 }
    const a = rasterView(device(1, { x: 10, y: 10 }, { x: 50, y: 50 }), corner.x, corner.y, {
      width: 200,
      height: 40,
    })
    const b = rasterView(device(1, { x: 10.25, y: 10.5 }, { x: 50, y: 50 }), corner.x, corner.y, {
      width: 200,
      height: 40,
    })
    expect(a.phaseX).toBeCloseTo(0, 9)
    expect(b.phaseX).toBeCloseTo(0.25, 9)
    expect(b.phaseY).toBeCloseTo(0.5, 9)
  })

  it('does not snap a rotated block, and draws a huge one smaller', () => {
    const angle = 0.3
    const rotated = {
      a: Math.cos(angle),
      b: Math.sin(angle),
      c: -Math.sin(angle),
      d: Math.cos(angle),
      tx: 10.3,
      ty: 7.7,
    }
    const view = rasterView(rotated, 0, 0, { width: 100, height: 40 })
    expect(view).toEqual({ scale: expect.closeTo(1, 9), phaseX: 0, phaseY: 0, snapped: false })
    const deep = rasterView(device(20, { x: 0, y: 0 }, { x: 0, y: 0 }), 0, 0, {
      width: 1000,
      height: 300,
    })
    expect(deep.snapped).toBe(false)
    expect(deep.scale * 1000).toBeCloseTo(MAX_RASTER_SIDE, 6)
  })

  it('reads a position a hair under a whole pixel as that pixel', () => {
    expect(phase(41.99999999)).toBe(0)
    expect(phase(41.25)).toBeCloseTo(0.25, 12)
    expect(phase(-0.75)).toBeCloseTo(0.25, 12)
  })
})
