import { describe, expect, it } from 'vitest'
import { ListBody } from '../../server/services/list-cache.ts'
import { seededRandom } from '../support/random.ts'

/**
 * A kept list takes written rows in piece by piece (server/services/list-cache.ts): whatever rows
 * come in, in whatever order of ids, its bytes are the JSON of the rows as they now are, each row
 * is found where it lies, and the pieces a write did not touch are the very pieces of the list
 * before it.
 */
type Row = { id: number; name: string }

const encode = (rows: readonly Row[]) =>
  rows.map((r) => ({ id: r.id, json: Buffer.from(JSON.stringify(r)) }))

const text = (body: ListBody) => Buffer.from(body.bytes()).toString()

describe('a kept list’s body', () => {
  it('puts rows in by id and replaces rows of the same id', () => {
    const first = ListBody.of(encode([{ id: 2, name: 'б' }])).withRows(
      encode([{ id: 5, name: 'е' }]),
    )
    expect(JSON.parse(text(first))).toEqual([
      { id: 2, name: 'б' },
      { id: 5, name: 'е' },
    ])
    const second = first.withRows(
      encode([
        { id: 1, name: 'а' },
        { id: 3, name: 'в' },
        { id: 5, name: 'ё' },
        { id: 9, name: 'и' },
      ]),
    )
    expect(text(second)).toBe(
      '[{"id":1,"name":"а"},{"id":2,"name":"б"},{"id":3,"name":"в"},{"id":5,"name":"ё"},{"id":9,"name":"и"}]',
    )
    expect(second.ids()).toEqual([1, 2, 3, 5, 9])
    expect(second.rowCount).toBe(5)
    expect(second.byteLength).toBe(Buffer.byteLength(text(second)))
    expect(Buffer.from(second.row(5)!).toString()).toBe('{"id":5,"name":"ё"}')
    expect(second.row(4)).toBeUndefined()
    expect(text(ListBody.of([]))).toBe('[]')
    expect(ListBody.of([]).row(1)).toBeUndefined()
    expect(text(ListBody.of([]).withRows(encode([{ id: 4, name: 'г' }])))).toBe(
      '[{"id":4,"name":"г"}]',
    )
  })

  it('stays the JSON of the rows through a thousand random writes, in pieces of bounded size', () => {
    const random = seededRandom(11)
    let model: Row[] = Array.from({ length: 3000 }, (_, i) => ({
      id: i * 2 + 1,
      name: `Отделение ${i}`,
    }))
    let body = ListBody.of(encode(model))
    expect(body.pieces.length).toBeGreaterThanOrEqual(4)
    for (let step = 0; step < 1000; step++) {
      const count = 1 + Math.floor(random() * 3)
      const changed = new Map<number, Row>()
      for (let k = 0; k < count; k++) {
        // Now and then a row before all others, or after all others.
        const id = step % 50 === 0 ? 0 : Math.floor(random() * 6200)
        changed.set(id, { id, name: 'x'.repeat(Math.floor(random() * 300)) + step })
      }
      const rows = [...changed.values()].sort((a, b) => a.id - b.id)
      const before = body
      body = body.withRows(encode(rows))
      model = [...model.filter((r) => !changed.has(r.id)), ...rows].sort((a, b) => a.id - b.id)
      // Each changed row makes at most its piece anew (cut again in two at most when it grew).
      const shared = body.pieces.filter((piece) => before.pieces.includes(piece)).length
      expect(shared).toBeGreaterThanOrEqual(before.pieces.length - rows.length)
      if (step % 100 === 99 || step < 5) {
        expect(text(body)).toBe(JSON.stringify(model))
        for (const row of [model[0]!, model[model.length >> 1]!, model.at(-1)!]) {
          expect(Buffer.from(body.row(row.id)!).toString()).toBe(JSON.stringify(row))
        }
        for (const piece of body.pieces.slice(0, -1)) {
          expect(piece.text.byteLength).toBeLessThan(96 * 1024 + 400)
        }
      }
    }
    expect(body.rowCount).toBe(model.length)
  })
})
