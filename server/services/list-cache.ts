/**
 * Record lists kept in memory, each with the version of the records it shows (record_versions,
 * server/db/migrations.ts). An entry is only ever served after the database confirmed its version,
 * so several instances over one PostgreSQL each keep their own and none serves a stale list. Kept as UTF-8 bytes, ready
 * to send. Bounded by total size: the entries used longest ago go first.
 */
export interface ListEntry {
  version: string
  /** Left out until the list is next sent when `rows` are given (listBytes). */
  json?: Uint8Array<ArrayBuffer>
  /** The rows the bytes say, each as its JSON, once a write on this instance needed them. */
  rows?: readonly { id: number; json: Uint8Array }[]
  /**
   * The version and these users' membership were confirmed by a read sent while this
   * instance listened for changes, in its listening period `epoch` (RecordService): the entry
   * answers them from memory while no announcement since says otherwise.
   */
  listening?: { epoch: number; members: Set<number> }
}

/** The JSON array of rows kept as JSON each. */
function joinRows(rows: readonly { json: Uint8Array }[]): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(rowsSize(rows))
  bytes[0] = 0x5b // [
  let offset = 1
  for (const [i, r] of rows.entries()) {
    if (i > 0) bytes[offset++] = 0x2c // ,
    bytes.set(r.json, offset)
    offset += r.json.byteLength
  }
  bytes[offset] = 0x5d // ]
  return bytes
}

function rowsSize(rows: readonly { json: Uint8Array }[]): number {
  let size = rows.length === 0 ? 2 : rows.length + 1
  for (const r of rows) size += r.json.byteLength
  return size
}

/**
 * The bytes of the list, ready to send. An entry made from changed rows is joined only when it is
 * sent, so several writes in a row join the list once (each joins some hundred kilobytes for the
 * bench's 1,000 rows).
 */
export function listBytes(entry: ListEntry): Uint8Array<ArrayBuffer> {
  entry.json ??= joinRows(entry.rows ?? [])
  return entry.json
}

function sizeOf(entry: ListEntry): number {
  return entry.json?.byteLength ?? rowsSize(entry.rows ?? [])
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
    const size = sizeOf(entry)
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
