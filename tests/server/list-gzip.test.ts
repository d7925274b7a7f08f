import { gunzipSync, gzipSync } from 'node:zlib'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  describeList,
  gzipInPieces,
  gzipList,
  type EncodedList,
} from '../../server/http/list-gzip.ts'
import { withRows } from '../../server/services/list-cache.ts'
import { keptList } from '../support/kept-list.ts'
import { seededRandom } from '../support/random.ts'

/**
 * A kept list is gzipped in pieces that its next version reuses (server/http/list-gzip.ts): every
 * version decodes to its own bytes, whatever was written, added or removed since the version whose
 * pieces it took, and a write re-encodes only the pieces near it.
 */
type Row = { id: number; name: string; position: string; description: string }

const WORDS = (
  'иван петров мария сидорова врач косметолог стоматолог хирург приём консультация пятница ' +
  'суббота утро вечер клиника центр отделение продажи массаж уход'
).split(' ')

function makeRow(id: number, random: () => number): Row {
  const word = () => WORDS[Math.floor(random() * WORDS.length)]!
  return {
    id,
    name: `${word()} ${word()}`,
    position: word(),
    description: Array.from({ length: 4 + Math.floor(random() * 12) }, word).join(' '),
  }
}

describe('a list gzipped in pieces', () => {
  it('decodes to the list, within 3 % of the size of gzip in one go', async () => {
    const random = seededRandom(7)
    for (const count of [0, 1, 2, 40, 3000]) {
      const { bytes, cuts } = keptList(
        Array.from({ length: count }, (_, i) => makeRow(i * 3 + 1, random)),
      )
      const { gzip, compressed } = await gzipInPieces(bytes, cuts)
      expect(gunzipSync(gzip).equals(bytes)).toBe(true)
      expect(compressed).toBe(cuts.length)
      if (count === 3000) {
        expect(cuts.length).toBeGreaterThan(10)
        expect(gzip.byteLength).toBeLessThan(gzipSync(bytes).byteLength * 1.03)
      }
    }
  })

  it('re-encodes, after a write, only the pieces near the written row', async () => {
    const random = seededRandom(3)
    const rows = Array.from({ length: 3000 }, (_, i) => makeRow(i * 2 + 1, random))
    const first = keptList(rows)
    const { encoded } = await gzipInPieces(first.bytes, first.cuts)

    // A row in the middle renamed (longer: every byte after it moves), and a row added at the end.
    rows[1500] = { ...rows[1500]!, name: `${rows[1500]!.name} и ещё немного` }
    rows.push(makeRow(9001, random))
    const second = keptList(rows)
    const { gzip, compressed } = await gzipInPieces(second.bytes, second.cuts, encoded)
    expect(gunzipSync(gzip).equals(second.bytes)).toBe(true)
    // The renamed row's piece and those within 32 KiB after it, and the last piece.
    expect(compressed).toBeGreaterThanOrEqual(2)
    expect(compressed).toBeLessThanOrEqual(6)
    expect(compressed).toBeLessThan(second.cuts.length / 3)
  })

  it('decodes to each version through any writes, adds and deletes (property)', async () => {
    const edit = fc.oneof(
      fc.record({
        type: fc.constant('update' as const),
        at: fc.nat(),
        grow: fc.integer({ min: -20, max: 400 }),
      }),
      fc.record({ type: fc.constant('add' as const), id: fc.integer({ min: 1, max: 4000 }) }),
      fc.record({ type: fc.constant('delete' as const), at: fc.nat() }),
    )
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 1200 }),
        fc.array(fc.array(edit, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 }),
        fc.integer(),
        async (count, versions, seed) => {
          const random = seededRandom(Math.abs(seed) + 1)
          const rows = new Map<number, Row>()
          for (let i = 0; i < count; i++) rows.set(i * 4 + 1, makeRow(i * 4 + 1, random))
          let list = keptList([...rows.values()])
          let base: EncodedList = (await gzipInPieces(list.bytes, list.cuts)).encoded
          for (const edits of versions) {
            for (const e of edits) {
              const ids = [...rows.keys()]
              if (e.type === 'add') rows.set(e.id, makeRow(e.id, random))
              else if (ids.length === 0) continue
              else if (e.type === 'delete') rows.delete(ids[e.at % ids.length]!)
              else {
                const row = rows.get(ids[e.at % ids.length]!)!
                const name = e.grow < 0 ? row.name.slice(0, -e.grow) : row.name + 'ж'.repeat(e.grow)
                rows.set(row.id, { ...row, name })
              }
            }
            list = keptList([...rows.values()])
            const { gzip, encoded } = await gzipInPieces(list.bytes, list.cuts, base)
            if (!gunzipSync(gzip).equals(list.bytes)) return false
            base = encoded
          }
          return true
        },
      ),
      { seed: 20261128, numRuns: 40 },
    )
  })
})

describe('a kept list’s versions', () => {
  it('each gzip from the pieces of the version it was made from, never a stale one', async () => {
    const random = seededRandom(5)
    const encode = (rows: readonly Row[]) =>
      rows.map((r) => ({ id: r.id, json: Buffer.from(JSON.stringify(r)) }))
    let entry = withRows(
      { json: new Uint8Array([0x5b, 0x5d]), index: { ids: [], ends: [] } },
      encode(Array.from({ length: 800 }, (_, i) => makeRow(i + 1, random))),
    )
    const first = entry.json
    expect(gunzipSync(await gzipList(first)!).equals(first)).toBe(true)
    // Two versions made before the second is encoded: the third takes the first's pieces.
    entry = withRows(entry, encode([makeRow(10, random)]))
    const second = entry.json
    entry = withRows(entry, encode([makeRow(700, random), makeRow(900, random)]))
    const third = entry.json
    expect(gunzipSync(await gzipList(third)!).equals(third)).toBe(true)
    expect(gunzipSync(await gzipList(second)!).equals(second)).toBe(true)
    // A body that is not a described list is left to the whole-body encoder.
    expect(gzipList(Buffer.from('[1,2,3]'))).toBeUndefined()
    // Described by hand, as list-cache.ts does for every version it makes.
    const bytes = Buffer.from('[{"id":1}]')
    describeList(bytes, { ids: [1], ends: [9] })
    expect(gunzipSync(await gzipList(bytes)!).toString()).toBe('[{"id":1}]')
  })
})
