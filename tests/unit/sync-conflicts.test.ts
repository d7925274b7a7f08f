import { describe, expect, it } from 'vitest'
import { splitChange } from '../../src/sync/conflicts.ts'

describe('splitChange (a write refused because the row changed on the server)', () => {
  it('sends a field the other write left alone', () => {
    const split = splitChange({ name: 'A' }, { name: 'B' }, { name: 'A', phone: '+7 900' })
    expect(split).toEqual({ send: { name: 'B' }, clashes: [] })
  })

  it('makes a conflict of a field both sides changed to different values', () => {
    const split = splitChange({ name: 'A' }, { name: 'Mine' }, { name: 'Theirs' })
    expect(split).toEqual({
      send: {},
      clashes: [{ field: 'name', mine: 'Mine', theirs: 'Theirs' }],
    })
  })

  it('has nothing to send when the server already holds the value', () => {
    const split = splitChange({ name: 'A' }, { name: 'B' }, { name: 'B' })
    expect(split).toEqual({ send: {}, clashes: [] })
  })

  it('splits a change of several fields into what merges and what conflicts', () => {
    const split = splitChange(
      { name: 'A', address: 'x', phone: '1' },
      { name: 'Mine', address: 'y', phone: '2' },
      { name: 'Theirs', address: 'x', phone: '2' },
    )
    expect(split.send).toEqual({ address: 'y' })
    expect(split.clashes).toEqual([{ field: 'name', mine: 'Mine', theirs: 'Theirs' }])
  })

  it('counts a field whose earlier value is unknown as a conflict when the values differ', () => {
    expect(splitChange(undefined, { name: 'Mine' }, { name: 'Theirs' }).clashes).toHaveLength(1)
    expect(splitChange({}, { name: 'Mine' }, { name: 'Mine' })).toEqual({
      send: {},
      clashes: [],
    })
  })

  it('leaves alone a field sent unchanged (a form sends every field)', () => {
    const split = splitChange(
      { name: 'Педиатрия', description: 'Дети' },
      { name: 'Педиатрия', description: 'Дети до 18 лет' },
      { name: 'Детское отделение', description: 'Дети' },
    )
    expect(split).toEqual({ send: { description: 'Дети до 18 лет' }, clashes: [] })
  })

  it('compares a whole block with the block it was edited from, field by field', () => {
    const base = { x: 10, y: 20, text: 'Hi', color: '#000' }
    // Moved here; recoloured and retexted there.
    const mine = { x: 50, y: 20, text: 'Hi', color: '#000' }
    const current = { id: 7, version: 3, x: 10, y: 20, text: 'Hello', color: '#f00' }
    expect(splitChange(base, mine, current)).toEqual({ send: { x: 50 }, clashes: [] })
    // Both moved it: the place is one conflict (x and y together), never x from one and y from
    // the other.
    const both = splitChange(base, { ...mine, y: 30 }, { ...current, x: 70 })
    expect(both.send).toEqual({})
    expect(both.clashes).toEqual([
      { field: 'x', mine: 50, theirs: 70 },
      { field: 'y', mine: 30, theirs: 20 },
    ])
  })

  it('a move along x here and along y there is one conflict of the place', () => {
    const base = { x: 10, y: 20 }
    const split = splitChange(base, { x: 50, y: 20 }, { x: 10, y: 60 })
    expect(split.send).toEqual({})
    expect(split.clashes).toEqual([
      { field: 'x', mine: 50, theirs: 10 },
      { field: 'y', mine: 20, theirs: 60 },
    ])
  })

  it('a size is one change too; a place nobody else touched goes whole', () => {
    const base = { x: 10, y: 20, width: 30, height: 40, rotation: 0 }
    // Resized here (width only), resized there (height only), moved here: the move goes.
    const split = splitChange(
      base,
      { x: 15, y: 25, width: 35, height: 40, rotation: 0 },
      { x: 10, y: 20, width: 30, height: 45, rotation: 0 },
    )
    expect(split.send).toEqual({ x: 15, y: 25 })
    expect(split.clashes).toEqual([
      { field: 'width', mine: 35, theirs: 30 },
      { field: 'height', mine: 40, theirs: 45 },
    ])
  })

  it('a place both sides moved to the same spot is no conflict', () => {
    const split = splitChange({ x: 1, y: 2 }, { x: 5, y: 6 }, { x: 5, y: 6 })
    expect(split).toEqual({ send: {}, clashes: [] })
  })
})
