import { describeList } from '../http/list-gzip.ts'

/**
 * Record lists kept in memory, each with the version of the records it shows (record_versions,
 * server/db/migrations.ts). An entry is only ever served after the database confirmed its version,
 * so several instances over one PostgreSQL each keep their own and none serves a stale list. Kept as UTF-8 bytes, ready
 * to send. Bounded by total size: the entries used longest ago go first.
 */
export interface ListEntry {
  version: string
  /** The JSON array, as sent. */
  json: Uint8Array<ArrayBuffer>
  /** Where each row's JSON lies in `json` (RowIndex): where a write puts its row, and a get finds it. */
  index: RowIndex
  /**
   * The version and these users' membership were confirmed by a read sent while this
   * instance listened for changes, in its listening period `epoch` (RecordService): the entry
   * answers them from memory while no announcement since says otherwise.
   */
  listening?: { epoch: number; members: Set<number> }
}

/**
 * The rows of a list's bytes, in id order: row `i` has id `ids[i]` and its JSON ends at byte
 * `ends[i]` (exclusive); it starts one byte after the end of the row before (past its comma), or
 * at byte 1 (past the `[`).
 */
export interface RowIndex {
  ids: ArrayLike<number>
  ends: ArrayLike<number>
}

const OPEN = Uint8Array.of(0x5b) // [
const COMMA = Uint8Array.of(0x2c) // ,
const CLOSE = Uint8Array.of(0x5d) // ]

/** A list's bytes with its index, written out row by row (the database's JSON is spaced). */
function indexRows(json: Uint8Array): { json: Uint8Array<ArrayBuffer>; index: RowIndex } {
  const rows = (JSON.parse(Buffer.from(json).toString('utf8')) as { id: number }[]).map((r) => ({
    id: r.id,
    json: Buffer.from(JSON.stringify(r)),
  }))
  return withRows(
    { json: new Uint8Array(Uint8Array.of(0x5b, 0x5d)), index: { ids: [], ends: [] } },
    rows,
  )
}

/**
 * The list with `changed` put in, each replacing the row of its id or going in its place by id
 * (docs/API.md): the rows between changed ones are copied as runs of bytes, so a write costs
 * one copy of the list, not a step per row. `changed` is in id order, each id at most once.
 */
export function withRows(
  entry: { json: Uint8Array; index?: RowIndex },
  changed: readonly { id: number; json: Uint8Array }[],
): { json: Uint8Array<ArrayBuffer>; index: RowIndex } {
  const { json, index } = entry.index ? (entry as Required<typeof entry>) : indexRows(entry.json)
  const { ids, ends } = index
  const n = ids.length
  const parts: Uint8Array[] = [OPEN]
  // Typed arrays, filled in place: a list of thousands of rows is indexed anew on every write.
  const outIds = new Float64Array(n + changed.length)
  const outEnds = new Float64Array(n + changed.length)
  let count = 0
  let size = 1
  const put = (bytes: Uint8Array) => {
    if (size > 1) {
      parts.push(COMMA)
      size++
    }
    parts.push(bytes)
    size += bytes.byteLength
  }
  let i = 0
  let j = 0
  while (i < n || j < changed.length) {
    const next = changed[j]
    if (next && (i === n || next.id <= ids[i]!)) {
      if (i < n && next.id === ids[i]) i++
      put(next.json)
      outIds[count] = next.id
      outEnds[count++] = size
      j++
      continue
    }
    // Rows i..r-1 are kept as they are: one run of bytes, commas included.
    let r = i + 1
    while (r < n && (!next || ids[r]! < next.id)) r++
    const from = i === 0 ? 1 : ends[i - 1]! + 1
    const shift = size + (size > 1 ? 1 : 0) - from
    put(json.subarray(from, ends[r - 1]))
    for (let k = i; k < r; k++) {
      outIds[count] = ids[k]!
      outEnds[count++] = ends[k]! + shift
    }
    i = r
  }
  parts.push(CLOSE)
  const bytes = new Uint8Array(size + 1)
  let offset = 0
  for (const part of parts) {
    bytes.set(part, offset)
    offset += part.byteLength
  }
  const out = { ids: outIds.subarray(0, count), ends: outEnds.subarray(0, count) }
  // Its gzip reuses the pieces of the list it was made from (server/http/list-gzip.ts).
  describeList(bytes, out, json)
  return { json: bytes, index: out }
}

/**
 * Row `id` of an indexed list, as the bytes of its JSON in the list's (a view of them, not a
 * copy); undefined when the list has no such row.
 */
export function rowBytes(entry: ListEntry, id: number): Uint8Array<ArrayBuffer> | undefined {
  const { ids, ends } = entry.index
  let low = 0
  let high = ids.length - 1
  while (low <= high) {
    const middle = (low + high) >>> 1
    const at = ids[middle]!
    if (at === id)
      return entry.json.subarray(middle === 0 ? 1 : ends[middle - 1]! + 1, ends[middle])
    if (at < id) low = middle + 1
    else high = middle - 1
  }
  return undefined
}

export class ListCache {
  private readonly entries = new Map<string, ListEntry>()
  private readonly sizes = new Map<string, number>()
  private size = 0

  constructor(private readonly maxBytes = 32 * 1024 * 1024) {}

  get(key: string): ListEntry | undefined {
    const entry = this.entries.get(key)
    if (entry) {
      // Most recently used last.
      this.entries.delete(key)
      this.entries.set(key, entry)
    }
    return entry
  }

  /** The entry, without counting it as used. */
  peek(key: string): ListEntry | undefined {
    return this.entries.get(key)
  }

  set(key: string, entry: ListEntry): void {
    this.delete(key)
    const size = entry.json.byteLength
    if (size > this.maxBytes / 4) return
    this.entries.set(key, entry)
    this.sizes.set(key, size)
    this.size += size
    for (const [oldest] of this.entries) {
      if (this.size <= this.maxBytes) break
      this.delete(oldest)
    }
  }

  private delete(key: string): void {
    if (!this.entries.delete(key)) return
    this.size -= this.sizes.get(key) ?? 0
    this.sizes.delete(key)
  }
}
