/**
 * Record lists kept in memory, each with the version of the records it shows (record_versions,
 * server/db/migrations.ts). An entry is only ever served after the database confirmed its version,
 * so several instances over one PostgreSQL each keep their own and none serves a stale list. Kept as UTF-8 bytes, ready
 * to send. Bounded by total size: the entries used longest ago go first.
 */
export interface ListEntry {
  version: string
  json: Uint8Array<ArrayBuffer>
  /** The rows the bytes say, each as its JSON, once a write on this instance needed them. */
  rows?: readonly { id: number; json: Uint8Array }[]
  /**
   * The version and these users' membership were confirmed by a read sent while this
   * instance listened for changes, in its listening period `epoch` (RecordService): the entry
   * answers them from memory while no announcement since says otherwise.
   */
  listening?: { epoch: number; members: Set<number> }
}

export class ListCache {
  private readonly entries = new Map<string, ListEntry>()
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
    if (entry.json.byteLength > this.maxBytes / 4) return
    this.entries.set(key, entry)
    this.size += entry.json.byteLength
    for (const [oldest] of this.entries) {
      if (this.size <= this.maxBytes) break
      this.delete(oldest)
    }
  }

  private delete(key: string): void {
    const entry = this.entries.get(key)
    if (!entry) return
    this.entries.delete(key)
    this.size -= entry.json.byteLength
  }
}
