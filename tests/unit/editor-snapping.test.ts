import { describe, expect, it } from 'vitest'
import type { Box, Rect } from '../../src/domain/geometry.ts'
import {
  snapDrag,
  snapHandlePoint,
  snapRotation,
  snapTargets,
} from '../../src/features/editor/canvas/snapping.ts'

const FRAME: Rect = { left: 0, top: 0, width: 1200, height: 675 }
const box = (cx: number, cy: number, width = 100, height = 50): Box => ({
  cx,
  cy,
  width,
  height,
  rotation: 0,
})
const off = { enabled: false, size: 20 }
const on = { enabled: true, size: 20 }

describe('drag snapping', () => {
  it('puts the primary block’s corner on the grid', () => {
    const b = box(303, 207)
    const { dx, dy } = snapDrag({
      boxes: [b],
      primary: b,
      frame: FRAME,
      grid: on,
      targets: snapTargets(FRAME, []),
      zoom: 1,
      dx: 24,
      dy: 0,
    })
    expect((b.cx + dx - b.width / 2) % 20).toBeCloseTo(0, 9)
    expect((b.cy + dy - b.height / 2) % 20).toBeCloseTo(0, 9)
  })

  it('lets guides to the background win over the grid and names them', () => {
    // The grid alone would put the left edge on 540 and the centre on 595.
    const b = box(590, 300, 110)
    const result = snapDrag({
      boxes: [b],
      primary: b,
      frame: FRAME,
      grid: on,
      targets: snapTargets(FRAME, []),
      zoom: 1,
      dx: 7,
      dy: 0,
    })
    // The centre lands on the background's centre line (600), not on the grid.
    expect(b.cx + result.dx).toBe(600)
    expect(result.guides.some((g) => g.axis === 'v' && g.pos === 600)).toBe(true)
  })

  it('catches guides within 6 screen px, so fewer world px when zoomed in', () => {
    const b = box(590, 300)
    const at = (zoom: number) =>
      snapDrag({
        boxes: [b],
        primary: b,
        frame: FRAME,
        grid: off,
        targets: snapTargets(FRAME, []),
        zoom,
        dx: 5,
        dy: 0,
      })
    expect(at(1).dx).toBe(10)
    expect(at(4).dx).toBe(5)
  })

  it('moves freely without a frame', () => {
    const b = box(590, 300)
    expect(
      snapDrag({
        boxes: [b],
        primary: b,
        frame: undefined,
        grid: on,
        targets: snapTargets(FRAME, []),
        zoom: 1,
        dx: 7,
        dy: 3,
      }),
    ).toEqual({ dx: 7, dy: 3, guides: [] })
  })
})

describe('handle and rotation snapping', () => {
  it('snaps a handle to the grid only for an upright block', () => {
    const frame = { ...FRAME, left: 5, top: 5 }
    expect(snapHandlePoint({ x: 33, y: 48 }, frame, on, 0)).toEqual({ x: 25, y: 45 })
    expect(snapHandlePoint({ x: 33, y: 48 }, frame, on, 10)).toEqual({ x: 33, y: 48 })
    expect(snapHandlePoint({ x: 33, y: 48 }, frame, off, 0)).toEqual({ x: 33, y: 48 })
  })

  it('snaps to the right angles within 3°, or in 15° steps with Shift', () => {
    const centre = { x: 0, y: 0 }
    const towards = (deg: number) => {
      const a = (deg * Math.PI) / 180
      return { x: Math.sin(a) * 100, y: -Math.cos(a) * 100 }
    }
    expect(snapRotation(centre, towards(92), false)).toBeCloseTo(90, 9)
    expect(snapRotation(centre, towards(80), false)).toBeCloseTo(80, 9)
    expect(snapRotation(centre, towards(80), true)).toBeCloseTo(75, 9)
    expect(snapRotation(centre, towards(-179), false)).toBe(180)
  })
})
