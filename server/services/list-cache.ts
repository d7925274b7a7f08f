import {
  gzipPieces,
  joinPieces,
  sameBytes,
  type GzipReport,
  type Piece,
} from '../common/list-gzip.ts'

/**
 * Record lists kept in memory, each with the version of the records it shows (record_versions,
 * server/db/migrations.ts). An entry is only ever served after the database confirmed its version,
 * so several instances over one PostgreSQL each keep their own and none serves a stale list.
 * Bounded by total size: the entries used longest ago go first.
 */
export interface ListEntry {
  version: string
  /** The JSON array, as sent (ListBody). */
  body: ListBody
  /**
   * The version and these users' membership were confirmed by a read sent while this
   * instance listened for changes, in its listening period `epoch` (RecordService): the entry
   * answers them from memory while no announcement since says otherwise.
   */
  listening?: { epoch: number; members: Set<number> }
}

/** A row as it goes into a list: its id and its JSON. */
export interface RowJson {
  id: number
  json: Uint8Array
}

/**
 * A piece of a list: rows in id order, row `i` with id `ids[i]`, its JSON ending at byte
 * `ends[i]` of the piece's text (exclusive) and starting one byte after the end of the row before
 * (past its comma), or at byte 1 (past the piece's `[` or `,`).
 */
interface RowPiece extends Piece {
  readonly ids: Float64Array
  readonly ends: Float64Array
}

/** The least and the most a piece holds (but the last of a run of rows). */
const MIN_PIECE = 24 * 1024
const MAX_PIECE = 96 * 1024

const OPEN = 0x5b // [
const COMMA = 0x2c // ,

/** A well-mixed 32-bit hash of an id (MurmurHash3's finaliser). */
function mix(id: number): number {
  let h = id | 0
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

/** One piece of `rows[from, to)`, opening the list (`[`) or following a piece (`,`). */
function makePiece(rows: readonly RowJson[], from: number, to: number, first: boolean): RowPiece {
  let size = 1
  for (let i = from; i < to; i++) size += rows[i]!.json.byteLength + (i > from ? 1 : 0)
  const text = new Uint8Array(size)
  const ids = new Float64Array(to - from)
  const ends = new Float64Array(to - from)
  text[0] = first ? OPEN : COMMA
  let offset = 1
  for (let i = from; i < to; i++) {
    if (i > from) text[offset++] = COMMA
    text.set(rows[i]!.json, offset)
    offset += rows[i]!.json.byteLength
    ids[i - from] = rows[i]!.id
    ends[i - from] = offset
  }
  return { text, ids, ends }
}

/**
 * `rows` (in id order) as pieces. A row may end a piece when a hash of its id is divisible by the
 * number of rows that make some 4 KiB at the rows' mean size, rounded to a power of two; a piece
 * ends at the first such row once it holds 24 KiB, and at 96 KiB whatever the row. Where a cut
 * falls depends only on the rows since the cut before, so rows cut again after a write soon fall
 * where they fell before. No rows make one piece (an empty list, or its start).
 */
function cutRows(rows: readonly RowJson[], first: boolean): RowPiece[] {
  let total = 0
  for (const row of rows) total += row.json.byteLength + 1
  const every = 2 ** Math.max(0, Math.round(Math.log2(4096 / (total / Math.max(1, rows.length)))))
  const pieces: RowPiece[] = []
  let from = 0
  let size = 0
  for (let i = 0; i < rows.length - 1; i++) {
    size += rows[i]!.json.byteLength + 1
    if (size >= MAX_PIECE || (size >= MIN_PIECE && mix(rows[i]!.id) % every === 0)) {
      pieces.push(makePiece(rows, from, i + 1, first && pieces.length === 0))
      from = i + 1
      size = 0
    }
  }
  pieces.push(makePiece(rows, from, rows.length, first && pieces.length === 0))
  return pieces
}

/** Row `i` of `piece`: a view of its JSON in the piece's text. */
const rowAt = (piece: RowPiece, i: number) =>
  piece.text.subarray(i === 0 ? 1 : piece.ends[i - 1]! + 1, piece.ends[i])

/** The rows of `piece`, each a view of its bytes in the piece. */
function rowsOf(piece: RowPiece): RowJson[] {
  return Array.from(piece.ids, (id, i) => ({ id, json: rowAt(piece, i) }))
}

/** The index of the last piece whose first row is at most `id` (0 when none is). */
function pieceFor(pieces: readonly RowPiece[], id: number): number {
  let low = 1
  let high = pieces.length - 1
  let found = 0
  while (low <= high) {
    const middle = (low + high) >>> 1
    if (pieces[middle]!.ids[0]! <= id) {
      found = middle
      low = middle + 1
    } else high = middle - 1
  }
  return found
}

/**
 * A kept list's JSON array, held as pieces of rows that its later versions share: a write makes
 * the pieces of the rows it touched anew (some 28 KiB each), and takes every other piece as it is,
 * so what a write costs does not grow with the list. Its gzip is made of its pieces' deflates,
 * each encoded once (server/common/list-gzip.ts); its bytes in one run only for a client that takes
 * no gzip.
 */
export class ListBody {
  #bytes: Uint8Array<ArrayBuffer> | undefined
  #gzip: Promise<GzipReport> | undefined

  private constructor(
    readonly pieces: readonly RowPiece[],
    /** The JSON's length in bytes. */
    readonly byteLength: number,
    readonly rowCount: number,
  ) {}

  private static made(pieces: readonly RowPiece[]): ListBody {
    let size = 1 // ]
    let rows = 0
    for (const piece of pieces) {
      size += piece.text.byteLength
      rows += piece.ids.length
    }
    return new ListBody(pieces, size, rows)
  }

  /**
   * The list of `rows`, in id order, each id once. A piece that comes out byte for byte a piece of
   * `previous` (an earlier version of the list) is that piece, with its encoding: a list read
   * afresh after a delete encodes only the pieces near the rows that left it.
   */
  static of(rows: readonly RowJson[], previous?: ListBody): ListBody {
    const pieces = cutRows(rows, true)
    if (previous) {
      const byFirstRow = new Map<number, RowPiece>()
      for (const piece of previous.pieces) {
        if (piece.ids.length > 0) byFirstRow.set(piece.ids[0]!, piece)
      }
      for (const [k, piece] of pieces.entries()) {
        const old = piece.ids.length > 0 ? byFirstRow.get(piece.ids[0]!) : undefined
        if (old && sameBytes(old.text, piece.text)) pieces[k] = old
      }
    }
    return ListBody.made(pieces)
  }

  /**
   * The list with `changed` put in, each replacing the row of its id or going in its place by id
   * (docs/API.md). `changed` is in id order, each id at most once. The pieces the rows fall in
   * are made anew, cut again where they grew; the others are this list's own.
   */
  withRows(changed: readonly RowJson[]): ListBody {
    if (changed.length === 0) return this
    const pieces = this.pieces
    const out: RowPiece[] = []
    let j = 0
    for (let k = 0; k < pieces.length; k++) {
      const nextFirst = k + 1 < pieces.length ? pieces[k + 1]!.ids[0]! : Infinity
      if (j >= changed.length || changed[j]!.id >= nextFirst) {
        out.push(pieces[k]!)
        continue
      }
      // The rows of this piece, with the changed rows that fall in it put in by id.
      const kept = rowsOf(pieces[k]!)
      const rows: RowJson[] = []
      let i = 0
      while (j < changed.length && changed[j]!.id < nextFirst) {
        const row = changed[j++]!
        while (i < kept.length && kept[i]!.id < row.id) rows.push(kept[i++]!)
        if (i < kept.length && kept[i]!.id === row.id) i++
        rows.push(row)
      }
      while (i < kept.length) rows.push(kept[i++]!)
      out.push(...cutRows(rows, k === 0))
    }
    return ListBody.made(out)
  }

  /** Row `id`'s JSON (a view of it in the list, not a copy); undefined when the list has none. */
  row(id: number): Uint8Array | undefined {
    const piece = this.pieces[pieceFor(this.pieces, id)]!
    let low = 0
    let high = piece.ids.length - 1
    while (low <= high) {
      const middle = (low + high) >>> 1
      const at = piece.ids[middle]!
      if (at === id) return rowAt(piece, middle)
      if (at < id) low = middle + 1
      else high = middle - 1
    }
    return undefined
  }

  /** The ids of its rows, in order. */
  ids(): number[] {
    return this.pieces.flatMap((piece) => Array.from(piece.ids))
  }

  /** The JSON's bytes in one run, made on first need and kept. */
  bytes(): Uint8Array<ArrayBuffer> {
    return (this.#bytes ??= joinPieces(this.pieces))
  }

  /** What encoding it in gzip did (server/common/list-gzip.ts); made on first need and kept. */
  encode(): Promise<GzipReport> {
    if (!this.#gzip) {
      const pending = gzipPieces(this.pieces)
      this.#gzip = pending
      // A failed encoding is not kept: the next answer tries again.
      pending.catch(() => {
        if (this.#gzip === pending) this.#gzip = undefined
      })
    }
    return this.#gzip
  }

  /** Its gzip. */
  gzip(): Promise<Uint8Array> {
    return this.encode().then((report) => report.gzip)
  }
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
    const size = entry.body.byteLength
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
