/**
 * `npm run bench kept-list`: what a write costs a kept list (server/services/list-cache.ts) on the
 * server: putting the written row into the list (`withRows`), and gzipping the list's new version,
 * whole (Node's gzip at its default level, as every other body is sent) against from its pieces'
 * deflates, which the versions share (server/common/list-gzip.ts). Three lists: the load
 * benchmark's departments (rows that differ only by their number), 1,000 and 4,000 of them, and
 * 1,000 specialists with names, positions, phones, e-mails and descriptions. A row is renamed at
 * five places in turn, and every way that encodes a renamed list takes the five in turn. Per list:
 * the bytes each way; the CPU of one encoding whole, synchronously and with Node's asynchronous
 * gzip (its share on the server's own thread too); and from pieces: a list seen for the first
 * time (made and encoded), a rename and an add at the end (each made into the list and encoded, as
 * the server does after a write). Rounds alternate the ways; median and range.
 *
 * `BENCH_SMOKE=1` (or `{ smoke: true }`): the same lists, one round of five encodings a way.
 */
import { gzip, gzipSync } from 'node:zlib'
import { performance } from 'node:perf_hooks'
import { ListBody } from '../../server/services/list-cache.ts'
import { seededRandom } from '../support/random.ts'
import { isSmoke, type BenchOptions } from './smoke.ts'

/** Encodings per round and way, so that a figure is milliseconds, not the timer's grain. */
const REPEAT = 40
/** Where the renamed rows lie, as shares of the list; one list each. */
const RENAMED = [0.1, 0.3, 0.5, 0.7, 0.9]

type Row = Record<string, unknown> & { id: number }

const WORDS = (
  'анна иван петров мария сидорова ольга смирнова врач косметолог стоматолог хирург терапевт ' +
  'администратор приём консультация пятница суббота утро вечер клиника центр отделение массаж ' +
  'уход лечение зубов кожи лица процедура курс запись скидка первичный повторный детский взрослый'
).split(' ')

const departments = (count: number): Row[] =>
  Array.from({ length: count }, (_, i) => ({
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
async function cost(run: () => unknown, repeat: number): Promise<{ cpu: number; loop: number }> {
  const cpu = process.cpuUsage()
  const loop = performance.eventLoopUtilization()
  for (let i = 0; i < repeat; i++) await run()
  const used = process.cpuUsage(cpu)
  return {
    cpu: (used.user + used.system) / 1000 / repeat,
    loop: performance.eventLoopUtilization(loop).active / repeat,
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

const asRows = (rows: readonly Row[]) =>
  rows.map((row) => ({ id: row.id, json: Buffer.from(JSON.stringify(row)) }))

export async function runKeptListBench(
  options: BenchOptions = {},
): Promise<Record<string, number>> {
  const smoke = isSmoke(options)
  const rounds = smoke ? 1 : Number(process.env.BENCH_ROUNDS ?? 7)
  const repeat = smoke ? 5 : REPEAT
  const out: Record<string, number> = {}
  for (const [name, rows] of [
    ['departments', departments(1000)],
    ['departments_4000', departments(4000)],
    ['specialists', specialists()],
  ] as const) {
    const base = ListBody.of(asRows(rows))
    await base.encode()
    const renamedAt = RENAMED.map((share) => Math.floor(share * rows.length))
    // A rename at each of five places in turn (where a row lies among the pieces changes what its
    // write re-encodes), and an add at the end.
    const renames = renamedAt.map((at) =>
      asRows([{ ...rows[at]!, name: `${String(rows[at]!.name)} (новое)` }]),
    )
    const added = asRows([{ ...rows.at(-1)!, id: rows.at(-1)!.id + 10 }])
    const renamedLists = renames.map((rename) => base.withRows(rename).bytes())
    let compressed = 0
    let checked = 0
    let piecedBytes = 0
    let whole = 0
    for (const rename of renames) {
      const report = await base.withRows(rename).encode()
      compressed += report.compressed / renames.length
      checked += report.checked / renames.length
      piecedBytes += report.gzip.byteLength / renames.length
    }
    for (const bytes of renamedLists) whole += gzipSync(bytes).byteLength / renamedLists.length
    const afterAdd = await base.withRows(added).encode()

    const nextWritten = inTurn(renames)
    const nextWhole = inTurn(renamedLists)
    const nextWholeAsync = inTurn(renamedLists)
    const nextPieced = inTurn(renames)
    const asJson = asRows(rows)

    const ways = {
      write_into_list: () => base.withRows(nextWritten()),
      whole_sync: () => gzipSync(nextWhole()),
      whole_async: () => new Promise((resolve) => gzip(nextWholeAsync(), resolve)),
      pieces_first: () => ListBody.of(asJson).encode(),
      pieces_after_update: () => base.withRows(nextPieced()).encode(),
      pieces_after_add: () => base.withRows(added).encode(),
    }
    const figures: Record<string, { cpu: number[]; loop: number[] }> = {}
    for (const way of Object.keys(ways)) figures[way] = { cpu: [], loop: [] }
    // One round to warm each way up, not counted; then the ways in turn, in alternating order.
    for (const run of Object.values(ways)) await cost(run, repeat)
    for (let round = 0; round < rounds; round++) {
      const order = Object.entries(ways)
      if (round % 2) order.reverse()
      for (const [way, run] of order) {
        const { cpu, loop } = await cost(run, repeat)
        figures[way]!.cpu.push(cpu)
        figures[way]!.loop.push(loop)
      }
    }
    console.log(
      `${name}: ${base.byteLength} B in ${base.pieces.length} pieces; gzip whole ` +
        `${whole.toFixed(0)} B, from pieces ${piecedBytes.toFixed(0)} B ` +
        `(${(((piecedBytes - whole) / whole) * 100).toFixed(1)} %); a rename compresses ` +
        `${compressed.toFixed(1)} pieces on average and checks ${checked.toFixed(1)}, ` +
        `an add compresses ${afterAdd.compressed}`,
    )
    out[`kept_list_${name}_bytes_whole`] = Math.round(whole)
    out[`kept_list_${name}_bytes_pieces`] = Math.round(piecedBytes)
    out[`kept_list_${name}_pieces_after_update`] = compressed
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
