import { describe, expect, it } from 'vitest'
import {
  TRANSFORM_RANGE,
  seekTime,
  transformOf,
} from '../../src/features/editor/canvas/paused-transform.ts'

// The drag layer and its guides are moved by seeking paused animations (docs/editor.md «Drawing»):
// a linear animation from -range to range over 2 × range ms shows `value` at `value + range` ms.
describe('a transform function set by seeking a paused animation', () => {
  const shownAt = (time: number, range = TRANSFORM_RANGE) =>
    -range + (2 * range * time) / (2 * range)

  it('seeks to the time that shows the value, fractions of a pixel kept', () => {
    for (const value of [0, 1, -1, 3.5, -2.25, 812.5, -4000])
      expect(shownAt(seekTime(value))).toBeCloseTo(value, 9)
  })

  it('holds a value past the range at its end instead of running off it', () => {
    expect(seekTime(TRANSFORM_RANGE * 3)).toBe(2 * TRANSFORM_RANGE)
    expect(seekTime(-TRANSFORM_RANGE * 3)).toBe(0)
    expect(seekTime(5, 10)).toBe(15)
  })

  it('writes the style of the fallback: px for translations, none for scales, never -0', () => {
    expect(transformOf('translateX', 3.5)).toBe('translateX(3.5px)')
    expect(transformOf('translateY', -0)).toBe('translateY(0px)')
    expect(transformOf('scaleX', 12)).toBe('scaleX(12)')
    expect(transformOf('scaleY', 0)).toBe('scaleY(0)')
  })
})
