import { describe, expect, it } from 'vitest'
import {
  DamageLedger,
  LIMITED_SHARE,
  scissorBox,
  unionRect,
  type ScissorBox,
} from '../../src/features/editor/canvas/damage.ts'
import type { ScreenRect } from '../../src/features/editor/canvas/drag-layer-geometry.ts'

/** A display object's stand-in: a name and a parent. */
interface Node {
  name: string
  parent: Node | null
}
const node = (name: string, parent: Node | null = null): Node => ({ name, parent })

const BUFFER = { width: 1000, height: 800 }

describe('the rectangle a limited frame draws (docs/editor.md «Drawing one place»)', () => {
  it('joins rectangles, ignoring missing and empty ones', () => {
    expect(
      unionRect([
        { x: 10, y: 20, width: 30, height: 40 },
        null,
        { x: 100, y: 5, width: 0, height: 10 },
        { x: 35.5, y: 50, width: 20, height: 20 },
      ]),
    ).toEqual({ x: 10, y: 20, width: 46, height: 50 })
    expect(unionRect([null])).toBeNull()
  })

  it('turns screen px into the drawing buffer, y from the bottom, with a margin', () => {
    // Device px at 2: x 20…80 → 18…82, y 40…100 → 38…102; from the bottom: 800 − 102 = 698.
    expect(scissorBox({ x: 10, y: 20, width: 30, height: 30 }, 2, BUFFER)).toEqual({
      x: 18,
      y: 698,
      width: 64,
      height: 64,
    })
  })

  it('clips to the buffer, and gives nothing for a rectangle off it', () => {
    expect(scissorBox({ x: -50, y: 790, width: 100, height: 100 }, 1, BUFFER)).toEqual({
      x: 0,
      y: 0,
      width: 52,
      height: 12,
    })
    expect(scissorBox({ x: 2000, y: 10, width: 10, height: 10 }, 1, BUFFER)).toBeNull()
  })
})

describe('what the next frame draws again', () => {
  const world = node('world')
  const block = node('block', world)
  const text = node('text', block)
  const other = node('other', world)
  const overlay = node('overlay')
  const ledger = () => new DamageLedger<Node>((n) => n.parent)
  const at = (rect: ScreenRect | null) => () => rect
  // Where the box lies on the screen is checked once, below.
  const limited = (box: ScissorBox) => ({ kind: 'limited', box, covers: expect.anything() })

  it('says where the box of a limited frame lies on the screen', () => {
    const damage = ledger()
    damage.take(at(null), 2, BUFFER)
    damage.damage({ x: 10.3, y: 20, width: 30, height: 5 })
    const plan = damage.take(at(null), 2, BUFFER)
    expect(plan).toMatchObject({ kind: 'limited' })
    if (plan.kind !== 'limited') return
    // The box in device px, y from the bottom; the same pixels on the screen, in CSS px.
    const { x, y, width, height } = plan.box
    expect(plan.covers).toEqual({
      x: x / 2,
      y: (BUFFER.height - y - height) / 2,
      width: width / 2,
      height: height / 2,
    })
    // Around the rectangle: 10.3…40.3 × 20…25 and at least 1 px (2 device px) more each side.
    expect(plan.covers.x).toBeLessThanOrEqual(9.3)
    expect(plan.covers.y).toBeLessThanOrEqual(19)
    expect(plan.covers.x + plan.covers.width).toBeGreaterThanOrEqual(41.3)
    expect(plan.covers.y + plan.covers.height).toBeGreaterThanOrEqual(26)
  })

  it('draws everything first, and for a change of what nobody tracks', () => {
    const damage = ledger()
    expect(damage.take(at(null), 1, BUFFER)).toEqual({ kind: 'full' })
    damage.changed(block)
    expect(damage.take(at(null), 1, BUFFER)).toEqual({ kind: 'full' })
    // Nothing changed since: nothing to draw.
    expect(damage.take(at(null), 1, BUFFER)).toEqual({ kind: 'none' })
  })

  it('is clean between a frame and the next change, placed or not', () => {
    const damage = ledger()
    expect(damage.clean).toBe(false)
    damage.take(at(null), 1, BUFFER)
    expect(damage.clean).toBe(true)
    damage.track('released', [block], null)
    damage.changed(text)
    expect(damage.clean).toBe(false)
    damage.take(at(null), 1, BUFFER)
    expect(damage.clean).toBe(true)
    damage.damage({ x: 0, y: 0, width: 5, height: 5 })
    expect(damage.clean).toBe(false)
  })

  it('stays clean when a kept group is tracked as drawn, and still draws its place next time', () => {
    const damage = ledger()
    damage.take(at(null), 1, BUFFER)
    damage.trackAsDrawn('selected', [block], { x: 10, y: 10, width: 10, height: 10 })
    expect(damage.clean).toBe(true)
    // The overlay moved: the frame draws it and the selection's place.
    damage.track('overlay', [overlay], { x: 100, y: 10, width: 10, height: 10 }, true)
    damage.changed(overlay)
    expect(damage.take(at({ x: 100, y: 10, width: 10, height: 10 }), 1, BUFFER)).toEqual(
      limited({ x: 8, y: 778, width: 104, height: 14 }),
    )
  })

  it('after a release draws where the blocks were and where they are, nothing else', () => {
    const damage = ledger()
    damage.take(at(null), 1, BUFFER)
    damage.track('released', [block], { x: 100, y: 100, width: 50, height: 20 })
    damage.changed(text)
    const plan = damage.take(at({ x: 300, y: 100, width: 50, height: 20 }), 1, BUFFER)
    // 100…350 × 100…120, 2 px of margin: 98…352 × 98…122, y from the bottom 800 − 122 = 678.
    expect(plan).toEqual(limited({ x: 98, y: 678, width: 254, height: 24 }))
    // Moved again: from where the last frame drew it to where it is.
    damage.changed(block)
    expect(damage.take(at({ x: 300, y: 200, width: 50, height: 20 }), 1, BUFFER)).toEqual(
      limited({ x: 298, y: 578, width: 54, height: 124 }),
    )
  })

  it('draws the rectangle it was handed even if the tracked objects did not change', () => {
    const damage = ledger()
    damage.take(at(null), 1, BUFFER)
    damage.track('released', [block], { x: 10, y: 10, width: 10, height: 10 })
    expect(damage.take(at({ x: 500, y: 500, width: 10, height: 10 }), 1, BUFFER)).toEqual(
      limited({ x: 8, y: 778, width: 14, height: 14 }),
    )
    expect(damage.take(at(null), 1, BUFFER)).toEqual({ kind: 'none' })
  })

  it('draws everything for a change of anything else; a release stops being tracked after it', () => {
    const damage = ledger()
    damage.take(at(null), 1, BUFFER)
    damage.track('released', [block], { x: 10, y: 10, width: 10, height: 10 })
    damage.changed(block)
    damage.changed(other)
    expect(damage.take(at({ x: 20, y: 10, width: 10, height: 10 }), 1, BUFFER)).toEqual({
      kind: 'full',
    })
    damage.changed(block)
    expect(damage.take(at({ x: 30, y: 10, width: 10, height: 10 }), 1, BUFFER)).toEqual({
      kind: 'full',
    })
  })

  it('a kept group is measured by whole frames and placed from then on', () => {
    const damage = ledger()
    damage.take(at(null), 1, BUFFER)
    // Where the overlay shows is not known yet: its first change draws everything.
    damage.track('overlay', [overlay], undefined, true)
    damage.changed(overlay)
    expect(damage.take(at({ x: 10, y: 10, width: 10, height: 10 }), 1, BUFFER)).toEqual({
      kind: 'full',
    })
    // That whole frame measured it; the next change draws from there to where it is.
    damage.changed(overlay)
    expect(damage.take(at({ x: 40, y: 10, width: 10, height: 10 }), 1, BUFFER)).toEqual(
      limited({ x: 8, y: 778, width: 44, height: 14 }),
    )
    // A whole frame for something else keeps it, measured again.
    damage.changed(other)
    expect(damage.take(at({ x: 100, y: 100, width: 10, height: 10 }), 1, BUFFER).kind).toBe('full')
    damage.changed(overlay)
    expect(damage.take(at({ x: 100, y: 120, width: 10, height: 10 }), 1, BUFFER)).toEqual(
      limited({ x: 98, y: 668, width: 14, height: 34 }),
    )
    damage.untrack('overlay')
    damage.changed(overlay)
    expect(damage.take(at(null), 1, BUFFER).kind).toBe('full')
  })

  it('a change in two groups draws both', () => {
    const damage = ledger()
    damage.track('overlay', [overlay], { x: 0, y: 0, width: 10, height: 10 }, true)
    damage.take(at(null), 1, BUFFER)
    damage.track('released', [block], { x: 200, y: 0, width: 10, height: 10 })
    damage.changed(overlay)
    damage.changed(block)
    const bounds = (objects: ReadonlySet<Node>) =>
      objects.has(overlay)
        ? { x: 0, y: 100, width: 10, height: 10 }
        : { x: 200, y: 100, width: 10, height: 10 }
    expect(damage.take(bounds, 1, BUFFER)).toEqual(
      limited({ x: 0, y: 688, width: 212, height: 112 }),
    )
  })

  it("draws everything for a change nobody names, unless it is said to be a group's", () => {
    const damage = ledger()
    damage.take(at(null), 1, BUFFER)
    damage.track('released', [block], { x: 10, y: 10, width: 10, height: 10 })
    damage.changedTracked('released')
    expect(damage.take(at({ x: 10, y: 10, width: 10, height: 10 }), 1, BUFFER).kind).toBe('limited')
    damage.changed()
    expect(damage.take(at(null), 1, BUFFER)).toEqual({ kind: 'full' })
    // Dropped by that whole frame: even the group's kind of change draws everything.
    damage.changedTracked('released')
    expect(damage.take(at(null), 1, BUFFER)).toEqual({ kind: 'full' })
  })

  it('draws everything when the rectangle is more than half the screen, or after invalidate', () => {
    const damage = ledger()
    damage.take(at(null), 1, BUFFER)
    damage.track('released', [block], { x: 0, y: 0, width: 10, height: 10 })
    damage.changed(block)
    const side = Math.sqrt(LIMITED_SHARE * BUFFER.width * BUFFER.height) + 10
    expect(damage.take(at({ x: 0, y: 0, width: side, height: side }), 1, BUFFER)).toEqual({
      kind: 'full',
    })
    damage.track('released', [block], { x: 0, y: 0, width: 10, height: 10 })
    damage.invalidate()
    expect(damage.take(at(null), 1, BUFFER)).toEqual({ kind: 'full' })
  })

  it('keeps damage that was waiting when a group is tracked', () => {
    const damage = ledger()
    damage.take(at(null), 1, BUFFER)
    damage.changed(other)
    damage.track('released', [block], { x: 0, y: 0, width: 10, height: 10 })
    expect(damage.take(at(null), 1, BUFFER)).toEqual({ kind: 'full' })
  })
})
