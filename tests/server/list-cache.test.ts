import { describe, expect, it } from 'vitest'
import { withRows, type RowIndex } from '../../server/services/list-cache.ts'

/**
 * A kept list takes written rows in as runs of its bytes (server/services/list-cache.ts): whatever
 * rows come in, in whatever order of ids, the bytes are the JSON of the rows as they now are, and
 * the index says where each lies, so the next write lands in the right place.
 */
type Row = { id: number; name: string }

const encode = (rows: readonly Row[]) =>
  rows.map((r) => ({ id: r.id, json: Buffer.from(JSON.stringify(r)) }))

function rowsAt(json: Uint8Array, index: RowIndex): string[] {
  return Array.from(index.ids, (_, i) =>
    Buffer.from(json.subarray(i === 0 ? 1 : index.ends[i - 1]! + 1, index.ends[i])).toString(),
  )
}

function seeded(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed / 2147483648
  }
}

describe('withRows', () => {
  it('puts rows in by id and replaces rows of the same id, from the database’s spaced JSON', () => {
    const fromDb = Buffer.from('[{"id":2,"name":"б"}, \n {"id":5,"name":"д"}]')
    const first = withRows({ json: fromDb }, encode([{ id: 5, name: 'е' }]))
    expect(JSON.parse(Buffer.from(first.json).toString())).toEqual([
      { id: 2, name: 'б' },
      { id: 5, name: 'е' },
    ])
    const second = withRows(
      first,
      encode([
        { id: 1, name: 'а' },
        { id: 3, name: 'в' },
        { id: 9, name: 'и' },
      ]),
    )
    expect(Buffer.from(second.json).toString()).toBe(
      '[{"id":1,"name":"а"},{"id":2,"name":"б"},{"id":3,"name":"в"},{"id":5,"name":"е"},{"id":9,"name":"и"}]',
    )
    expect(Array.from(second.index.ids)).toEqual([1, 2, 3, 5, 9])
    expect(Buffer.from(withRows({ json: Buffer.from('[]') }, []).json).toString()).toBe('[]')
    expect(
      Buffer.from(
        withRows({ json: Buffer.from('[]') }, encode([{ id: 4, name: 'г' }])).json,
      ).toString(),
    ).toBe('[{"id":4,"name":"г"}]')
  })

  it('stays the JSON of the rows through a thousand random writes', () => {
    const random = seeded(11)
    let model: Row[] = Array.from({ length: 50 }, (_, i) => ({
      id: i * 2 + 1,
      name: `Отделение ${i}`,
    }))
    let entry: { json: Uint8Array; index?: RowIndex } = { json: Buffer.from(JSON.stringify(model)) }
    for (let step = 0; step < 1000; step++) {
      const count = 1 + Math.floor(random() * 3)
      const changed = new Map<number, Row>()
      for (let k = 0; k < count; k++) {
        const id = Math.floor(random() * 140)
        changed.set(id, { id, name: 'x'.repeat(Math.floor(random() * 20)) + step })
      }
      const rows = [...changed.values()].sort((a, b) => a.id - b.id)
      entry = withRows(entry, encode(rows))
      model = [...model.filter((r) => !changed.has(r.id)), ...rows].sort((a, b) => a.id - b.id)
      expect(Buffer.from(entry.json).toString()).toBe(JSON.stringify(model))
      expect(rowsAt(entry.json, entry.index!)).toEqual(model.map((r) => JSON.stringify(r)))
    }
  })
})
