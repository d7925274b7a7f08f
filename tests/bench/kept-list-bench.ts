/**
 * `npm run bench kept-list`: what a write costs a kept list (server/services/list-cache.ts) on the
 * server: putting the written row into the list's bytes and index (`withRows`), and gzipping the
 * list's new version, whole (Node's gzip at its default level, as every other body is sent)
 * against in pieces that the list's next version reuses (server/http/list-gzip.ts). Two lists of
 * 1,000 rows: the load benchmark's departments (rows that differ only by their number), and
 * specialists with names, positions, phones, e-mails and descriptions. A row is renamed at five
 * places in turn, and every way that encodes a renamed list takes the five in turn. Per list: the
 * bytes each way; the CPU of one encoding whole, synchronously and with Node's asynchronous gzip
 * (its share on the server's own thread too); and in pieces, a list seen for the first time, after
 * a rename, and after a row was added at the end. Rounds alternate the ways; median and range.
 */
import { gzip, gzipSync } from 'node:zlib'
import { performance } from 'node:perf_hooks'
import { gzipInPieces, type EncodedList } from '../../server/http/list-gzip.ts'
import { withRows } from '../../server/services/list-cache.ts'
import { keptList } from '../support/kept-list.ts'
import { seededRandom } from '../support/random.ts'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7)
/** Encodings per round and way, so that a figure is milliseconds, not the timer's grain. */
const REPEAT = 40
/** The rows renamed, one list each. */
const RENAMED = [100, 300, 500, 700, 900]

type Row = Record<string, unknown> & { id: number }

const WORDS = (
  'анна иван петров мария сидорова ольга смирнова врач косметолог стоматолог хирург терапевт ' +
  'администратор приём консультация пятница суббота утро вечер клиника центр отделение массаж ' +
  'уход лечение зубов кожи лица процедура курс запись скидка первичный повторный детский взрослый'
).split(' ')

const departments = (): Row[] =>
  Array.from({ length: 1000 }, (_, i) => ({
    id: 40001 + i,
    workspace_id: 17,
    version: 1,
    name: `Отделение ${i + 1}`,
    description: `Описание отделения номер ${i + 1}`,
  }))

function specialists(): Row[] {
  const random = seededRandom(42)
  const word = () => WORDS[Math.floor(random() * WORDS.length)]!
  return Array.from({ length: 1000 }, (_, i) => ({
    id: 70001 + i * 3,
    workspace_id: 17,
    version: 1 + Math.floor(random() * 9),
    name: `${word()} ${word()}`,
    position: word(),
    department_id: 40001 + Math.floor(random() * 40),
    location_id: null,
    phone: `+7 9${String(Math.floor(random() * 1e9)).padStart(9, '0')}`,
    email: `${Math.floor(random() * 1e9).toString(36)}@example.ru`,
    photo_url: `/uploads/${Math.floor(random() * 1e12).toString(16)}.jpg`,
    description: Array.from({ length: 6 + Math.floor(random() * 20) }, word).join(' '),
  }))
}

/** Milliseconds of CPU (all threads) and of the calling thread's event loop, per call. */
async function cost(run: () => unknown): Promise<{ cpu: number; loop: number }> {
  const cpu = process.cpuUsage()
  const loop = performance.eventLoopUtilization()
  for (let i = 0; i < REPEAT; i++) await run()
  const used = process.cpuUsage(cpu)
  return {
    cpu: (used.user + used.system) / 1000 / REPEAT,
    loop: performance.eventLoopUtilization(loop).active / REPEAT,
  }
}

/** The items one after the other, round and round. */
function inTurn<T>(items: readonly T[]): () => T {
  let next = 0
  return () => items[next++ % items.length]!
}

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return { median: sorted[Math.floor(sorted.length / 2)]!, low: sorted[0]!, high: sorted.at(-1)! }
}

export async function runKeptListBench(): Promise<Record<string, number>> {
  const out: Record<string, number> = {}
  for (const [name, rows] of [
    ['departments', departments()],
    ['specialists', specialists()],
  ] as const) {
    const first = keptList(rows)
    // A rename at each of five places in turn (where a row lies among the cuts changes what its
    // write re-encodes), and an add at the end.
    const updates = RENAMED.map((at) =>
      keptList(rows.map((r, i) => (i === at ? { ...r, name: `${String(r.name)} (новое)` } : r))),
    )
    const afterAdd = keptList([...rows, { ...rows[999]!, id: rows[999]!.id + 10 }])
    const base: EncodedList = (await gzipInPieces(first.bytes, first.cuts)).encoded
    let reencoded = 0
    let piecedBytes = 0
    let whole = 0
    for (const update of updates) {
      const { gzip, compressed } = await gzipInPieces(update.bytes, update.cuts, base)
      reencoded += compressed / updates.length
      piecedBytes += gzip.byteLength / updates.length
      whole += gzipSync(update.bytes).byteLength / updates.length
    }
    const added = await gzipInPieces(afterAdd.bytes, afterAdd.cuts, base)
    const entry = withRows(
      { json: Buffer.from('[]'), index: { ids: [], ends: [] } },
      rows.map((row) => ({ id: row.id, json: Buffer.from(JSON.stringify(row)) })),
    )
    const written = RENAMED.map((at) => [
      { id: rows[at]!.id, json: Buffer.from(JSON.stringify({ ...rows[at], name: 'Новое имя' })) },
    ])

    const nextWritten = inTurn(written)
    const nextWhole = inTurn(updates)
    const nextWholeAsync = inTurn(updates)
    const nextPieced = inTurn(updates)

    const ways = {
      write_into_list: () => withRows(entry, nextWritten()),
      whole_sync: () => gzipSync(nextWhole().bytes),
      whole_async: () => new Promise((resolve) => gzip(nextWholeAsync().bytes, resolve)),
      pieces_first: () => gzipInPieces(first.bytes, first.cuts),
      pieces_after_update: () => {
        const update = nextPieced()
        return gzipInPieces(update.bytes, update.cuts, base)
      },
      pieces_after_add: () => gzipInPieces(afterAdd.bytes, afterAdd.cuts, base),
    }
    const figures: Record<string, { cpu: number[]; loop: number[] }> = {}
    for (const way of Object.keys(ways)) figures[way] = { cpu: [], loop: [] }
    // One round to warm each way up, not counted; then the ways in turn, in alternating order.
    for (const run of Object.values(ways)) await cost(run)
    for (let round = 0; round < ROUNDS; round++) {
      const order = Object.entries(ways)
      if (round % 2) order.reverse()
      for (const [way, run] of order) {
        const { cpu, loop } = await cost(run)
        figures[way]!.cpu.push(cpu)
        figures[way]!.loop.push(loop)
      }
    }
    console.log(
      `${name}: ${first.bytes.byteLength} B in ${first.cuts.length} pieces; gzip whole ` +
        `${whole.toFixed(0)} B, in pieces ${piecedBytes.toFixed(0)} B ` +
        `(${(((piecedBytes - whole) / whole) * 100).toFixed(1)} %); a rename re-encodes ` +
        `${reencoded.toFixed(1)} pieces on average, an add ${added.compressed}`,
    )
    out[`kept_list_${name}_bytes_whole`] = Math.round(whole)
    out[`kept_list_${name}_bytes_pieces`] = Math.round(piecedBytes)
    out[`kept_list_${name}_pieces_after_update`] = reencoded
    for (const [way, { cpu, loop }] of Object.entries(figures)) {
      const c = stats(cpu)
      const l = stats(loop)
      console.log(
        `  ${way}: CPU ${c.median.toFixed(3)} ms (${c.low.toFixed(3)}–${c.high.toFixed(3)}), ` +
          `on the calling thread ${l.median.toFixed(3)} ms (${l.low.toFixed(3)}–${l.high.toFixed(3)})`,
      )
      out[`kept_list_${name}_${way}_cpu_ms`] = c.median
      out[`kept_list_${name}_${way}_thread_ms`] = l.median
    }
  }
  return out
}
