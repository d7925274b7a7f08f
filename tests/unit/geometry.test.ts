import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  alignShifts,
  boundingBox,
  boxCorners,
  distributeShifts,
  findGuides,
  guideTargets,
  fontSizeToScreen,
  fontSizeToStored,
  frameFor,
  halfHeightUnits,
  handlePoint,
  hitTest,
  normalizeRotation,
  rectToScreen,
  resizeBox,
  rotationTowards,
  roundStored,
  screenToStored,
  screenToWorld,
  snapBoxToGrid,
  snapValue,
  storedToScreen,
  unitFrame,
  worldToScreen,
  zoomAt,
  type Box,
  type Rect,
} from '../../src/domain/geometry.ts'

const close = (a: number, b: number, eps = 1e-6) => expect(Math.abs(a - b)).toBeLessThan(eps)

/** A stored number already at the stored precision (4 decimals). */
const storedNumber = (min: number, max: number) =>
  fc.integer({ min: min * 10_000, max: max * 10_000 }).map((n) => roundStored(n / 10_000))

const bgSize = fc.record({
  width: fc.integer({ min: 50, max: 8000 }),
  height: fc.integer({ min: 50, max: 8000 }),
})

describe('stored ↔ screen', () => {
  it('places the centre of a 1920×1080 background at x = y = 0 and its right edge at x = 100', () => {
    const frame = frameFor({ width: 1920, height: 1080 }, 1200, 10, 20)
    expect(frame).toEqual({ left: 10, top: 20, width: 1200, height: 675 })
    const centre = storedToScreen({ x: 0, y: 0, width: 50, height: 10, rotation: 0 }, frame)
    expect(centre).toEqual({ cx: 610, cy: 357.5, width: 600, height: 67.5, rotation: 0 })
    const right = storedToScreen(
      { x: 100, y: -halfHeightUnits({ width: 1920, height: 1080 }), width: 10, rotation: 0 },
      frame,
    )
    close(right.cx, 1210)
    close(right.cy, 20)
  })

  it('keeps y in ±100·height/width', () => {
    expect(halfHeightUnits({ width: 1080, height: 1920 })).toBeCloseTo(177.7778, 4)
    expect(unitFrame({ width: 200, height: 100 })).toEqual({
      left: -100,
      top: -50,
      width: 200,
      height: 100,
    })
  })

  it('scales font sizes with the background', () => {
    const small = frameFor({ width: 1600, height: 900 }, 400)
    const big = frameFor({ width: 1600, height: 900 }, 1600)
    expect(fontSizeToScreen(10, small)).toBe(20)
    expect(fontSizeToScreen(10, big)).toBe(80)
    expect(fontSizeToStored(80, big)).toBe(10)
  })

  it('round trips stored → screen → stored exactly, for any background size, zoom and offset', () => {
    fc.assert(
      fc.property(
        bgSize,
        fc.double({ min: 0.1, max: 8, noNaN: true }),
        fc.double({ min: -5000, max: 5000, noNaN: true }),
        fc.double({ min: -5000, max: 5000, noNaN: true }),
        storedNumber(-150, 150),
        storedNumber(-300, 300),
        storedNumber(0, 300),
        storedNumber(0, 300),
        storedNumber(-179, 180),
        (bg, zoom, left, top, x, y, width, height, rotation) => {
          const frame = frameFor(bg, 1200 * zoom, left, top)
          const stored = { x, y, width, height, rotation }
          const back = screenToStored(storedToScreen(stored, frame), frame)
          expect(back).toEqual(stored)
        },
      ),
      { numRuns: 500 },
    )
  })

  it('round trips screen → stored → screen within the stored precision', () => {
    fc.assert(
      fc.property(
        bgSize,
        fc.double({ min: 0.1, max: 8, noNaN: true }),
        fc.double({ min: -2000, max: 2000, noNaN: true }),
        fc.double({ min: -2000, max: 2000, noNaN: true }),
        fc.double({ min: 1, max: 2000, noNaN: true }),
        fc.double({ min: 1, max: 2000, noNaN: true }),
        (bg, zoom, cx, cy, width, height) => {
          const frame = frameFor(bg, 1000 * zoom, 0, 0)
          const box: Box = { cx, cy, width, height, rotation: 0 }
          const again = storedToScreen(screenToStored(box, frame), frame)
          // Half a unit of the 4th decimal, in screen px.
          const unit = frame.width / 200
          expect(Math.abs(again.cx - cx)).toBeLessThanOrEqual(0.00005 * unit + 1e-9)
          expect(Math.abs(again.cy - cy)).toBeLessThanOrEqual(0.00005 * unit + 1e-9)
          expect(Math.abs(again.width - width)).toBeLessThanOrEqual(
            0.00005 * (frame.width / 100) + 1e-9,
          )
          expect(Math.abs(again.height - height)).toBeLessThanOrEqual(
            0.00005 * (frame.height / 100) + 1e-9,
          )
        },
      ),
      { numRuns: 300 },
    )
  })

  it('does not depend on where or how large the background is drawn', () => {
    fc.assert(
      fc.property(bgSize, storedNumber(-100, 100), storedNumber(-100, 100), (bg, x, y) => {
        const a = frameFor(bg, 360, 0, 0)
        const b = frameFor(bg, 1920, 500, -300)
        const stored = { x, y, width: 25, height: 10, rotation: 30 }
        expect(screenToStored(storedToScreen(stored, a), a)).toEqual(
          screenToStored(storedToScreen(stored, b), b),
        )
      }),
    )
  })

  it('rounds to 4 decimals and never stores -0', () => {
    expect(roundStored(1.23456)).toBe(1.2346)
    expect(Object.is(roundStored(-0.00001), 0)).toBe(true)
  })
})

describe('rotation about the centre', () => {
  const box: Box = { cx: 100, cy: 100, width: 40, height: 20, rotation: 90 }

  it('turns the corners clockwise (y down)', () => {
    const [tl, tr, br, bl] = boxCorners(box)
    // After a quarter turn clockwise the top-left corner is at the top-right.
    close(tl.x, 110)
    close(tl.y, 80)
    close(tr.x, 110)
    close(tr.y, 120)
    close(br.x, 90)
    close(br.y, 120)
    close(bl.x, 90)
    close(bl.y, 80)
  })

  it('gives the rotated bounding box', () => {
    const bb = boundingBox(box)
    close(bb.left, 90)
    close(bb.top, 80)
    close(bb.width, 20)
    close(bb.height, 40)
    const diag = boundingBox({ cx: 0, cy: 0, width: 10, height: 10, rotation: 45 })
    close(diag.width, Math.SQRT2 * 10)
  })

  it('hit-tests points inside the rotated shape only', () => {
    expect(hitTest({ x: 100, y: 118 }, box)).toBe(true)
    // Inside the unrotated rectangle but outside the rotated one.
    expect(hitTest({ x: 118, y: 100 }, box)).toBe(false)
    expect(hitTest({ x: 118, y: 100 }, { ...box, rotation: 0 })).toBe(true)
    expect(hitTest({ x: 121, y: 100 }, { ...box, rotation: 0 }, 2)).toBe(true)
  })

  it('keeps the centre fixed whatever the angle', () => {
    fc.assert(
      fc.property(fc.double({ min: -720, max: 720, noNaN: true }), (rotation) => {
        const corners = boxCorners({ ...box, rotation })
        const cx = corners.reduce((s, p) => s + p.x, 0) / 4
        const cy = corners.reduce((s, p) => s + p.y, 0) / 4
        close(cx, 100, 1e-6)
        close(cy, 100, 1e-6)
      }),
    )
  })

  it('normalises angles and points the top at the pointer', () => {
    expect(normalizeRotation(370)).toBe(10)
    expect(normalizeRotation(-190)).toBe(170)
    expect(normalizeRotation(180)).toBe(180)
    close(rotationTowards({ x: 0, y: 0 }, { x: 0, y: -10 }), 0)
    close(rotationTowards({ x: 0, y: 0 }, { x: 10, y: 0 }), 90)
    close(rotationTowards({ x: 0, y: 0 }, { x: -10, y: 0 }), -90)
    expect(rotationTowards({ x: 0, y: 0 }, { x: 10, y: -9 }, 15)).toBe(45)
  })
})

describe('grid snapping', () => {
  it('snaps to multiples from the origin', () => {
    expect(snapValue(29, 20)).toBe(20)
    expect(snapValue(31, 20)).toBe(40)
    expect(snapValue(31, 20, 5)).toBe(25)
    expect(snapValue(31, 0)).toBe(31)
  })

  it('puts the top-left of the bounding box on the grid of the background', () => {
    const frame: Rect = { left: 7, top: 3, width: 400, height: 300 }
    const snapped = snapBoxToGrid({ cx: 60, cy: 50, width: 30, height: 20, rotation: 0 }, frame, 20)
    expect(snapped.cx - 15).toBe(47)
    expect(snapped.cy - 10).toBe(43)
  })

  it('always lands on the grid', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1000, max: 1000, noNaN: true }),
        fc.double({ min: -1000, max: 1000, noNaN: true }),
        fc.double({ min: 1, max: 300, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        (cx, cy, size, rotation) => {
          const frame: Rect = { left: 0, top: 0, width: 1000, height: 1000 }
          const s = snapBoxToGrid({ cx, cy, width: size, height: size / 2, rotation }, frame, 20)
          const bb = boundingBox(s)
          close(bb.left / 20, Math.round(bb.left / 20), 1e-6)
          close(bb.top / 20, Math.round(bb.top / 20), 1e-6)
        },
      ),
    )
  })
})

describe('alignment guides', () => {
  const frame: Rect = { left: 0, top: 0, width: 1000, height: 500 }

  it('snaps the centre to the background centre within the threshold', () => {
    const moving: Rect = { left: 447, top: 100, width: 100, height: 40 }
    const g = findGuides(moving, guideTargets([frame]), 5)
    expect(g.dx).toBe(3)
    expect(g.dy).toBe(0)
    expect(g.guides).toEqual([{ axis: 'v', pos: 500, from: 0, to: 500 }])
  })

  it('snaps edges to another block and reports the line', () => {
    const other: Rect = { left: 200, top: 300, width: 100, height: 50 }
    const moving: Rect = { left: 600, top: 302, width: 80, height: 40 }
    const g = findGuides(moving, guideTargets([frame, other]), 4)
    expect(g.dy).toBe(-2)
    expect(
      g.guides.some((l) => l.axis === 'h' && l.pos === 300 && l.from === 200 && l.to === 680),
    ).toBe(true)
    expect(g.guides.filter((l) => l.axis === 'h')).toHaveLength(1)
  })

  it('spans a guide to where the rectangle lands on both axes', () => {
    // Snaps 2 px right to the other block's left edge and 3 px up to its top: the horizontal
    // guide begins at the landed left edge (200), not at the left edge before the snap (198).
    const other: Rect = { left: 200, top: 100, width: 50, height: 50 }
    const g = findGuides({ left: 198, top: 103, width: 30, height: 30 }, guideTargets([other]), 4)
    expect([g.dx, g.dy]).toEqual([2, -3])
    expect(g.guides.find((l) => l.axis === 'h' && l.pos === 100)).toEqual({
      axis: 'h',
      pos: 100,
      from: 200,
      to: 250,
    })
  })

  it('finds what comparing with every target finds, ties included', () => {
    // Targets on a coarse grid, so many share lines and equally near matches are common.
    const coarse = (max: number) => fc.integer({ min: 0, max }).map((v) => v * 5)
    const rect = fc.record({
      left: coarse(40),
      top: coarse(40),
      width: coarse(12).map((w) => w + 5),
      height: coarse(12).map((h) => h + 5),
    })
    // Anywhere, or on half steps of the grid: halfway between two lines is equally near both.
    const place = fc.oneof(
      fc.double({ min: -10, max: 210, noNaN: true }),
      fc.integer({ min: -4, max: 84 }).map((v) => v * 2.5),
    )
    const moving = fc.record({
      left: place,
      top: place,
      width: coarse(12).map((w) => w + 5),
      height: coarse(12).map((h) => h + 5),
    })
    fc.assert(
      fc.property(
        fc.array(rect, { maxLength: 40 }),
        moving,
        fc.constantFrom(0, 2.5, 6, 15),
        (targets, m, threshold) => {
          expect(findGuides(m, guideTargets(targets), threshold)).toEqual(
            everyTarget(m, targets, threshold),
          )
        },
      ),
      { numRuns: 400 },
    )
  })

  it('leaves out a target with no place', () => {
    const broken: Rect = { left: Number.NaN, top: 10, width: 10, height: 10 }
    const other: Rect = { left: 100, top: 100, width: 10, height: 10 }
    const g = findGuides(
      { left: 101, top: 300, width: 30, height: 10 },
      guideTargets([broken, other]),
      3,
    )
    expect(g.dx).toBe(-1)
    expect(g.guides).toEqual([{ axis: 'v', pos: 100, from: 100, to: 310 }])
  })

  it('does nothing beyond the threshold', () => {
    const g = findGuides({ left: 120, top: 130, width: 10, height: 10 }, guideTargets([frame]), 3)
    expect(g).toEqual({ dx: 0, dy: 0, guides: [] })
  })
})

/**
 * Guides found by comparing the moving rectangle's lines with every target's, in the targets'
 * order (the first, nearest match wins): what the index must find.
 */
function everyTarget(moving: Rect, targets: readonly Rect[], threshold: number) {
  const lines = (r: Rect, axis: 'v' | 'h') =>
    axis === 'v'
      ? [r.left, r.left + r.width / 2, r.left + r.width]
      : [r.top, r.top + r.height / 2, r.top + r.height]
  const shift = { v: 0, h: 0 }
  const found = { v: false, h: false }
  for (const axis of ['v', 'h'] as const) {
    let best: number | null = null
    for (const target of targets)
      for (const t of lines(target, axis))
        for (const m of lines(moving, axis)) {
          const d = t - m
          if (Math.abs(d) <= threshold && (best === null || Math.abs(d) < Math.abs(best))) best = d
        }
    if (best !== null) [shift[axis], found[axis]] = [best, true]
  }
  const moved = { ...moving, left: moving.left + shift.v, top: moving.top + shift.h }
  const guides: { axis: 'v' | 'h'; pos: number; from: number; to: number }[] = []
  for (const axis of ['v', 'h'] as const) {
    if (!found[axis]) continue
    for (const target of targets)
      for (const t of lines(target, axis)) {
        if (!lines(moved, axis).some((m) => Math.abs(m - t) < 1e-6)) continue
        const [from, to] =
          axis === 'v'
            ? [
                Math.min(moved.top, target.top),
                Math.max(moved.top + moved.height, target.top + target.height),
              ]
            : [
                Math.min(moved.left, target.left),
                Math.max(moved.left + moved.width, target.left + target.width),
              ]
        const same = guides.find(
          (g) => g.axis === axis && Math.round(g.pos * 1000) === Math.round(t * 1000),
        )
        if (same) [same.from, same.to] = [Math.min(same.from, from), Math.max(same.to, to)]
        else guides.push({ axis, pos: t, from, to })
      }
  }
  return { dx: shift.v, dy: shift.h, guides }
}

describe('align and distribute', () => {
  const rects: Rect[] = [
    { left: 0, top: 0, width: 10, height: 10 },
    { left: 50, top: 20, width: 30, height: 10 },
    { left: 20, top: 60, width: 10, height: 40 },
  ]

  it('aligns to the union of the selection', () => {
    expect(alignShifts(rects, 'left').map((p) => p.x)).toEqual([0, -50, -20])
    expect(alignShifts(rects, 'right').map((p) => p.x)).toEqual([70, 0, 50])
    expect(alignShifts(rects, 'hcenter').map((p) => p.x)).toEqual([35, -25, 15])
    expect(alignShifts(rects, 'bottom').map((p) => p.y)).toEqual([90, 70, 0])
    expect(alignShifts(rects, 'vcenter').map((p) => p.y)).toEqual([45, 25, -30])
  })

  it('aligns a single block to the reference (the background)', () => {
    const [shift] = alignShifts([rects[1]!], 'top', { left: 0, top: -50, width: 200, height: 100 })
    expect(shift).toEqual({ x: 0, y: -70 })
  })

  it('spaces three or more boxes evenly and keeps the outer ones', () => {
    const row: Rect[] = [
      { left: 0, top: 0, width: 10, height: 10 },
      { left: 100, top: 0, width: 20, height: 10 },
      { left: 15, top: 0, width: 10, height: 10 },
    ]
    const shifts = distributeShifts(row, 'h')
    const after = row.map((r, i) => r.left + shifts[i]!.x)
    expect(after).toEqual([0, 100, 50])
    expect(distributeShifts(row.slice(0, 2), 'h')).toEqual([
      { x: 0, y: 0 },
      { x: 0, y: 0 },
    ])
  })

  it('distributes with equal gaps for any input', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            left: fc.integer({ min: 0, max: 1000 }),
            top: fc.integer({ min: 0, max: 1000 }),
            width: fc.integer({ min: 1, max: 50 }),
            height: fc.integer({ min: 1, max: 50 }),
          }),
          { minLength: 3, maxLength: 8 },
        ),
        (input) => {
          const shifts = distributeShifts(input, 'v')
          // In the order the boxes had before (overlapping boxes may pass each other).
          const moved = input
            .map((r, i) => ({ r, i }))
            .sort((a, b) => a.r.top - b.r.top)
            .map(({ r, i }) => ({ ...r, top: r.top + shifts[i]!.y }))
          const gaps = moved.slice(1).map((r, i) => r.top - (moved[i]!.top + moved[i]!.height))
          for (const gap of gaps) close(gap, gaps[0]!, 1e-6)
        },
      ),
      { numRuns: 2000 },
    )
  })
})

describe('resize handles', () => {
  it('keeps the opposite edge in place', () => {
    const box: Box = { cx: 50, cy: 50, width: 40, height: 20, rotation: 0 }
    const r = resizeBox(box, 'e', { x: 100, y: 999 })
    expect(r).toEqual({ cx: 65, cy: 50, width: 70, height: 20, rotation: 0 })
    const c = resizeBox(box, 'nw', { x: 0, y: 0 })
    expect(c).toEqual({ cx: 35, cy: 30, width: 70, height: 60, rotation: 0 })
  })

  it('keeps the opposite corner fixed on screen for a rotated box', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.constantFrom('n', 's', 'e', 'w', 'ne', 'nw', 'se', 'sw' as const),
        fc.double({ min: -300, max: 300, noNaN: true }),
        fc.double({ min: -300, max: 300, noNaN: true }),
        (rotation, handle, px, py) => {
          const box: Box = { cx: 0, cy: 0, width: 80, height: 40, rotation }
          const opposite = (
            { n: 's', s: 'n', e: 'w', w: 'e', ne: 'sw', nw: 'se', se: 'nw', sw: 'ne' } as const
          )[handle]
          const before = handlePoint(box, opposite)
          const after = handlePoint(resizeBox(box, handle, { x: px, y: py }), opposite)
          close(before.x, after.x, 1e-6)
          close(before.y, after.y, 1e-6)
        },
      ),
    )
  })

  it('keeps the aspect ratio and a minimum size when asked', () => {
    const box: Box = { cx: 0, cy: 0, width: 40, height: 20, rotation: 0 }
    const r = resizeBox(box, 'se', { x: 60, y: 10 }, { keepAspect: true })
    close(r.width / r.height, 2)
    const tiny = resizeBox(box, 'e', { x: -100, y: 0 }, { min: 8 })
    expect(tiny.width).toBe(8)
  })
})

describe('viewport', () => {
  it('converts world ↔ screen and zooms about an anchor', () => {
    const view = { zoom: 2, panX: 10, panY: -20 }
    expect(worldToScreen({ x: 5, y: 5 }, view)).toEqual({ x: 20, y: -10 })
    expect(screenToWorld({ x: 20, y: -10 }, view)).toEqual({ x: 5, y: 5 })
    const zoomed = zoomAt(view, 4, { x: 100, y: 100 })
    expect(screenToWorld({ x: 100, y: 100 }, zoomed)).toEqual(
      screenToWorld({ x: 100, y: 100 }, view),
    )
    expect(zoomAt(view, 1000, { x: 0, y: 0 }).zoom).toBe(8)
    expect(rectToScreen({ left: 1, top: 2, width: 3, height: 4 }, view)).toEqual({
      left: 12,
      top: -16,
      width: 6,
      height: 8,
    })
  })
})
