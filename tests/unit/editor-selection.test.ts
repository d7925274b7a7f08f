import { describe, expect, it } from 'vitest'
import { keeping, selecting, toggling } from '../../src/features/editor/model/selection.ts'

describe('selection', () => {
  const exists = (k: string) => k !== 'gone'

  it('selects existing keys once, instead of or added to the current ones', () => {
    expect(selecting(['a'], ['b', 'gone', 'b'], exists, false)).toEqual(['b'])
    expect(selecting(['a', 'b'], ['c', 'a'], exists, true)).toEqual(['a', 'b', 'c'])
  })

  it('toggles a key in or out, keeping the order of the others', () => {
    expect(toggling(['a', 'b'], 'c')).toEqual(['a', 'b', 'c'])
    expect(toggling(['a', 'b', 'c'], 'b')).toEqual(['a', 'c'])
  })

  it('keeps what passes, and the same list when everything does', () => {
    const current = ['a', 'b']
    expect(keeping(current, (k) => k === 'b')).toEqual(['b'])
    expect(keeping(current, () => true)).toBe(current)
  })
})
