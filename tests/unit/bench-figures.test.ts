import { describe, expect, it } from 'vitest'
import { expectFigures } from '../support/bench-figures.ts'

/** The check every benchmark's smoke run ends with (tests/support/bench-figures.ts). */
describe('a smoke run’s figures', () => {
  const rules = [
    ['frames_per_s', 'positive'],
    ['longest_task_ms', 'nonNegative'],
    ['lost', 'zero'],
    [/^heap_growth_/, 'finite'],
  ] as const

  it('pass when every figure is named and holds', () => {
    expectFigures(
      { frames_per_s: 58, longest_task_ms: 0, lost: 0, heap_growth_mb: -0.4, heap_growth_10_mb: 1 },
      rules,
    )
  })

  it.each([
    ['a figure that read zero', { frames_per_s: 0 }, 'frames_per_s = 0: not positive'],
    ['a figure that is not a number', { frames_per_s: NaN }, 'frames_per_s = NaN: not positive'],
    ['an infinite figure', { longest_task_ms: Infinity }, 'longest_task_ms = Infinity'],
    ['a negative figure', { longest_task_ms: -1 }, 'longest_task_ms = -1: not nonNegative'],
    ['a fault counted', { lost: 2 }, 'lost = 2: not zero'],
    ['a figure left out', { frames_per_s: undefined }, 'frames_per_s: not reported'],
    ['a figure nobody named', { renamed_fps: 60 }, 'renamed_fps = 60: a figure'],
  ])('fail on %s', (_, change, problem) => {
    const figures: Record<string, number> = {
      frames_per_s: 58,
      longest_task_ms: 0,
      lost: 0,
      heap_growth_mb: 1,
    }
    for (const [key, value] of Object.entries(change)) {
      if (value === undefined) delete figures[key]
      else figures[key] = value
    }
    expect(() => expectFigures(figures, rules)).toThrow(problem)
  })
})
