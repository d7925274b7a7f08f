import { describe, expect, it } from 'vitest'
import {
  byBackground,
  listedOrder,
  renumbered,
  reordered,
} from '../../src/features/editor/model/arrangement.ts'

describe('arrangement', () => {
  const order = ['a', 'b', 'c', 'd']

  it('moves the chosen keys one step, to the front or to the back', () => {
    expect(reordered(order, new Set(['b']), 'forward')).toEqual(['a', 'c', 'b', 'd'])
    expect(reordered(order, new Set(['c', 'd']), 'forward')).toEqual(order)
    expect(reordered(order, new Set(['a', 'b']), 'forward')).toEqual(['c', 'a', 'b', 'd'])
    expect(reordered(order, new Set(['b', 'd']), 'backward')).toEqual(['b', 'a', 'd', 'c'])
    expect(reordered(order, new Set(['a', 'c']), 'front')).toEqual(['b', 'd', 'a', 'c'])
    expect(reordered(order, new Set(['d']), 'back')).toEqual(['d', 'a', 'b', 'c'])
  })

  it('takes a listed order, ignoring strangers and leaving unlisted keys in place', () => {
    expect(listedOrder(order, ['d', 'x', 'a', 'c'])).toEqual(['d', 'b', 'a', 'c'])
  })

  it('hands out the z values already there, or 0… when they repeat', () => {
    const z = new Map([
      ['a', 1],
      ['b', 5],
      ['c', 9],
    ])
    expect(renumbered(['a', 'b', 'c'], ['b', 'a', 'c'], (k) => z.get(k)!)).toEqual(
      new Map([
        ['b', 1],
        ['a', 5],
      ]),
    )
    const same = (_: string) => 3
    expect(renumbered(['a', 'b'], ['b', 'a'], same)).toEqual(
      new Map([
        ['b', 0],
        ['a', 1],
      ]),
    )
  })

  it('groups keys by background and leaves unknown ones out', () => {
    const bg: Record<string, number> = { a: 10, b: 11, c: 10 }
    expect(byBackground(['a', 'b', 'x', 'c'], (k) => bg[k])).toEqual(
      new Map([
        [10, ['a', 'c']],
        [11, ['b']],
      ]),
    )
  })
})
