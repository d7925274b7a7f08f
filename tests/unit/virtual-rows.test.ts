import { describe, expect, it } from 'vitest'
import { OVERSCAN, clampRange, drawnRows, rowsInView } from '../../src/ui/virtual-rows.ts'

describe('the rows in view', () => {
  it('at the top: the rows the view shows and the overscan below', () => {
    // 460 px of 46 px rows: 10 rows, and 8 more.
    expect(rowsInView(1000, 46, 0, 460)).toEqual({ start: 0, end: 10 + OVERSCAN })
  })

  it('scrolled: the overscan on both sides of a row cut by either edge', () => {
    // From 2300 px (row 50) to 2783 px (within row 60).
    expect(rowsInView(1000, 46, 2300, 483)).toEqual({ start: 50 - OVERSCAN, end: 61 + OVERSCAN })
  })

  it('at the end: never past the last row', () => {
    expect(rowsInView(100, 46, 4600 - 460, 460)).toEqual({ start: 90 - OVERSCAN, end: 100 })
  })

  it('a list that starts below the view or lies past it', () => {
    expect(rowsInView(100, 46, -1000, 460)).toEqual({ start: 0, end: 0 })
    expect(rowsInView(100, 46, -200, 460)).toEqual({ start: 0, end: 6 + OVERSCAN })
    expect(rowsInView(100, 46, 10_000, 460)).toEqual({ start: 100, end: 100 })
  })

  it('a view of no size (a hidden panel) draws the first rows only; nothing without rows', () => {
    expect(rowsInView(1000, 46, 0, 0)).toEqual({ start: 0, end: OVERSCAN })
    expect(rowsInView(0, 46, 0, 460)).toEqual({ start: 0, end: 0 })
    expect(rowsInView(10, 0, 0, 460)).toEqual({ start: 0, end: 0 })
  })

  it('a range kept from a longer list ends with the list', () => {
    expect(clampRange({ start: 40, end: 60 }, 50)).toEqual({ start: 40, end: 50 })
    expect(clampRange({ start: 40, end: 60 }, 30)).toEqual({ start: 30, end: 30 })
  })
})

describe('the rows drawn', () => {
  it('are the range, with each kept row outside it, in order and once', () => {
    expect(drawnRows({ start: 3, end: 6 }, 100, [])).toEqual([3, 4, 5])
    expect(drawnRows({ start: 3, end: 6 }, 100, [80, 1])).toEqual([1, 3, 4, 5, 80])
    // A kept row inside the range, twice kept, or no row at all (-1, past the end) adds nothing.
    expect(drawnRows({ start: 3, end: 6 }, 100, [4, 80, 80, -1, 100])).toEqual([3, 4, 5, 80])
    expect(drawnRows({ start: 0, end: 0 }, 0, [0])).toEqual([])
  })
})
