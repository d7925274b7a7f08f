import { crc32, gunzipSync, gzipSync } from 'node:zlib'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { crc32Combine } from '../../server/http/list-gzip.ts'
import { ListBody } from '../../server/services/list-cache.ts'
import { seededRandom } from '../support/random.ts'

/**
 * A kept list is gzipped from its pieces' deflates, which its later versions share
 * (server/http/list-gzip.ts): every version decodes to its own bytes, whatever was written or added
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

  it('decodes to each version through any writes and adds, encoded in any order (property)', async () => {
    const edit = fc.oneof(
      fc.record({
        type: fc.constant('update' as const),
        at: fc.nat(),
        grow: fc.integer({ min: -20, max: 400 }),
      }),
      fc.record({ type: fc.constant('add' as const), id: fc.integer({ min: 0, max: 4000 }) }),
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
            for (const e of edits) {
              const ids = [...rows.keys()]
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
            body = body.withRows(encode([...changed.values()].sort((a, b) => a.id - b.id)))
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
