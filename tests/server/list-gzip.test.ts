import { crc32, gunzipSync, gzipSync } from 'node:zlib'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { crc32Combine } from '../../server/common/list-gzip.ts'
import { ListBody } from '../../server/services/list-cache.ts'
import { seededRandom } from '../support/random.ts'

/**
 * A kept list is gzipped from its pieces' deflates, which its later versions share
 * (server/common/list-gzip.ts): every version decodes to its own bytes, whatever was written or added
 * since the versions whose pieces it took and in whatever order versions are encoded, and a write
 * re-encodes only the pieces near it.
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

const encode = (rows: readonly Row[]) =>
  rows.map((r) => ({ id: r.id, json: Buffer.from(JSON.stringify(r)) }))

const decodes = async (body: ListBody) =>
  gunzipSync(await body.gzip()).equals(Buffer.from(body.bytes()))

describe('a list gzipped in pieces', () => {
  it('decodes to the list, within 3 % of the size of gzip in one go', async () => {
    const random = seededRandom(7)
    for (const count of [0, 1, 2, 40, 3000]) {
      const body = ListBody.of(
        encode(Array.from({ length: count }, (_, i) => makeRow(i * 3 + 1, random))),
      )
      const { gzip, compressed } = await body.encode()
      expect(gunzipSync(gzip).toString()).toBe(Buffer.from(body.bytes()).toString())
      expect(compressed).toBe(body.pieces.length)
      if (count === 3000) {
        expect(body.pieces.length).toBeGreaterThan(10)
        expect(gzip.byteLength).toBeLessThan(gzipSync(body.bytes()).byteLength * 1.03)
      }
    }
  })

  it('re-encodes, after a write, only the pieces near the written row', async () => {
    const random = seededRandom(3)
    const rows = Array.from({ length: 3000 }, (_, i) => makeRow(i * 2 + 1, random))
    const first = ListBody.of(encode(rows))
    await first.encode()

    // A row in the middle renamed (longer: every byte after it moves), and a row added at the end.
    const renamed = { ...rows[1500]!, name: `${rows[1500]!.name} и ещё немного` }
    const second = first.withRows(encode([renamed, makeRow(9001, random)]))
    const { gzip, compressed, kept } = await second.encode()
    expect(gunzipSync(gzip).equals(Buffer.from(second.bytes()))).toBe(true)
    // The renamed row's piece and the last piece, compressed anew; the piece after the renamed
    // one only if the 16 KiB before it changed and its deflate no longer decodes there.
    expect(compressed).toBeGreaterThanOrEqual(2)
    expect(compressed).toBeLessThanOrEqual(3)
    expect(kept).toBe(second.pieces.length - compressed)
    expect(second.pieces.length).toBeGreaterThan(10)
  })

  it('read afresh after a delete, takes the pieces that came out byte for byte the same, with their encoding', async () => {
    const random = seededRandom(9)
    const rows = Array.from({ length: 3000 }, (_, i) => makeRow(i * 2 + 1, random))
    const first = ListBody.of(encode(rows))
    await first.encode()
    rows.splice(1500, 1)
    // And, elsewhere, a row renamed to a name of the same length: its piece is not the old one.
    const name = rows[300]!.name
    rows[300] = { ...rows[300]!, name: name.replace(/^./, name.startsWith('ж') ? 'з' : 'ж') }
    const second = ListBody.of(encode(rows), first)
    expect(Buffer.from(second.bytes()).toString()).toBe(JSON.stringify(rows))
    const shared = second.pieces.filter((piece) => first.pieces.includes(piece)).length
    expect(shared).toBeGreaterThanOrEqual(second.pieces.length - 5)
    const { gzip, compressed } = await second.encode()
    expect(gunzipSync(gzip).equals(Buffer.from(second.bytes()))).toBe(true)
    expect(compressed).toBeLessThanOrEqual(5)
  })

  it('decodes to each version through any writes, adds and deletes, encoded in any order (property)', async () => {
    const edit = fc.oneof(
      fc.record({
        type: fc.constant('update' as const),
        at: fc.nat(),
        grow: fc.integer({ min: -20, max: 400 }),
      }),
      fc.record({ type: fc.constant('add' as const), id: fc.integer({ min: 0, max: 4000 }) }),
      fc.record({ type: fc.constant('delete' as const), at: fc.nat() }),
    )
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 1200 }),
        fc.array(fc.array(edit, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
        fc.integer(),
        async (count, versions, encodeNow, seed) => {
          const random = seededRandom(Math.abs(seed) + 1)
          const rows = new Map<number, Row>()
          for (let i = 0; i < count; i++) rows.set(i * 4 + 1, makeRow(i * 4 + 1, random))
          let body = ListBody.of(encode([...rows.values()]))
          await body.encode()
          const later: ListBody[] = []
          for (const [v, edits] of versions.entries()) {
            const changed = new Map<number, Row>()
            let deleted = false
            for (const e of edits) {
              const ids = [...rows.keys()]
              if (e.type === 'delete') {
                if (ids.length > 0) rows.delete(ids[e.at % ids.length]!)
                deleted = true
                continue
              }
              let row: Row
              if (e.type === 'add' || ids.length === 0)
                row = makeRow(e.type === 'add' ? e.id : 1, random)
              else {
                const old = rows.get(ids[e.at % ids.length]!)!
                const name = e.grow < 0 ? old.name.slice(0, -e.grow) : old.name + 'ж'.repeat(e.grow)
                row = { ...old, name }
              }
              rows.set(row.id, row)
              changed.set(row.id, row)
            }
            const sorted = [...rows.values()].sort((a, b) => a.id - b.id)
            // A delete reads the list afresh, taking the pieces that came out the same.
            body = deleted
              ? ListBody.of(encode(sorted), body)
              : body.withRows(encode([...changed.values()].sort((a, b) => a.id - b.id)))
            if (
              Buffer.from(body.bytes()).toString() !==
              JSON.stringify([...rows.values()].sort((a, b) => a.id - b.id))
            )
              return false
            // Some versions encoded at once, the others only after later ones were.
            if (encodeNow[v]) {
              if (!(await decodes(body))) return false
            } else later.push(body)
          }
          for (const old of later.reverse()) if (!(await decodes(old))) return false
          return true
        },
      ),
      { seed: 20261128, numRuns: 40 },
    )
  })
})

describe('crc32Combine', () => {
  it('gives the CRC-32 of two runs of bytes joined', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 3000 }), (a, b) => {
        const joined = crc32(Buffer.concat([a, b]))
        return crc32Combine(crc32(a), crc32(b), b.byteLength) === joined
      }),
      { seed: 20261128, numRuns: 300 },
    )
  })
})
