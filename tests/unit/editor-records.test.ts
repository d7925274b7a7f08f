import { describe, expect, it } from 'vitest'
import {
  ordered,
  patched,
  placed,
  roundPatch,
  sameBlock,
  sortedKeys,
  topZ,
  withoutId,
} from '../../src/features/editor/model/records.ts'
import { BG, gift } from '../support/editor-blocks.ts'

describe('block records', () => {
  const blocks = new Map([
    ['a', gift({ zindex: 2 })],
    ['b', gift({ zindex: 0 })],
    ['c', gift({ zindex: 2, bg_id: 11 })],
    ['d', gift({ zindex: 2 })],
  ])

  it('orders a background’s keys by z, ties in the order they arrived', () => {
    expect(sortedKeys(blocks, 10)).toEqual(['b', 'a', 'd'])
    expect(sortedKeys(blocks, 12)).toEqual([])
    expect(topZ(blocks, 10)).toBe(2)
    expect(topZ(blocks, 12)).toBe(-1)
    expect(ordered(blocks, ['c', 'a', 'b']).map((b) => [b.bg_id, b.zindex])).toEqual([
      [10, 0],
      [10, 2],
      [11, 2],
    ])
  })

  it('rounds geometry to the stored precision and turns rotations into (-180, 180]', () => {
    expect(roundPatch({ x: 1.234567, rotation: 270, text: 'x' })).toEqual({
      x: 1.2346,
      rotation: -90,
      text: 'x',
    })
    const moved = patched(gift(), { x: -0.00001 })
    expect(Object.is(moved.x, 0)).toBe(true)
  })

  it('compares blocks field by field', () => {
    expect(sameBlock(gift(), gift())).toBe(true)
    expect(sameBlock(gift(), gift({ x: 1 }))).toBe(false)
    expect(sameBlock(gift(), { ...gift(), id: undefined })).toBe(false)
  })

  it('places a copy without id or key, offset and kept inside its background', () => {
    const copy = placed(withoutId(gift({ id: 3, ck: 'k', x: 99, y: 10 })), 11, BG, 4, 7)
    expect(copy).toMatchObject({ bg_id: 11, x: 100, y: 14, zindex: 7 })
    expect('id' in copy || 'ck' in copy).toBe(false)
    // 1600 × 900: y stays within ±56.25.
    expect(placed(gift({ y: 55 }), 10, BG, 4, 0).y).toBe(56.25)
  })
})
