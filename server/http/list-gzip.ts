import { constants, crc32, deflateRawSync } from 'node:zlib'

/**
 * Gzip for kept lists (server/services/list-cache.ts), in pieces that the list's next version
 * reuses: a write changes a row or two of a list of a thousand, and encoding the whole list again
 * after each write was a third of the server's CPU under a team's load (server/README.md,
 * "Throughput").
 *
 * A list's bytes are cut between rows into pieces of some 28 KiB. Where the cuts fall is decided
 * by the rows' ids, so rows written, added or removed elsewhere do not move them. Each
 * piece is raw deflate ended by a sync flush (which leaves it on a byte boundary, so the pieces
 * join into one deflate stream), compressed with the 32 KiB before it as its dictionary: deflate
 * looks back at most that far, so the joined stream decodes to the list as if it had been
 * compressed whole, and comes out within a few percent of that size. A piece of an earlier
 * version is used again when its bytes and the 32 KiB before them are unchanged: a write encodes
 * the piece of its row and those that begin within 32 KiB after it, the rest is copied.
 */

/** How far deflate looks back (zlib's window at its largest). */
const WINDOW = 32 * 1024
/** The least and the most a piece holds (but the last). */
const MIN_PIECE = 24 * 1024
const MAX_PIECE = 96 * 1024
/** Longer lists go whole to Node's asynchronous gzip (server/http/compression.ts). */
const MAX_BYTES = 2 * 1024 * 1024
/**
 * Encoding pieces runs on the server's thread: after this long in one go it lets other work run
 * before going on (a list seen for the first time is encoded whole, some 7 ms for 400 KB).
 */
const SLICE_MS = 2

/** A gzip member's header: deflate, no name, no time, unknown OS (RFC 1952). */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff])
/** An empty final block with fixed codes (RFC 1951, 3.2.6): ends the joined deflate stream. */
const LAST_BLOCK = Buffer.from([0x03, 0x00])

/** A piece of an encoded version: where it lay in that version's bytes, and its deflate. */
interface Piece {
  start: number
  end: number
  deflated: Buffer
}

/** A version as encoded: its bytes and its pieces, by the id of the first row of each. */
export interface EncodedList {
  bytes: Uint8Array
  pieces: Map<number, Piece>
}

/** Where a list's bytes are cut: each piece's end, and its key (the id of its first row). */
export interface Cut {
  key: number
  end: number
}

/** A well-mixed 32-bit hash of an id (MurmurHash3's finaliser). */
function mix(id: number): number {
  let h = id | 0
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

/**
 * The pieces of a list whose row `i` has id `ids[i]` and ends at byte `ends[i]` (the index of
 * list-cache.ts). A row may end a piece when a hash of its id is divisible by the number of rows
 * that make some 4 KiB at the list's mean row size, rounded to a power of two (so that a mean
 * that drifts a little does not move every cut); a piece ends at the first such row once it
 * holds 24 KiB, and at 96 KiB whatever the row. Each cut depends only on the rows since the cut
 * before, so after a changed row the cuts soon fall where they fell before. The first piece holds
 * the `[` and the last the `]`; an empty list is one piece.
 */
export function cutsOf(ids: ArrayLike<number>, ends: ArrayLike<number>, total: number): Cut[] {
  const n = ids.length
  const every = 2 ** Math.max(0, Math.round(Math.log2(4096 / (total / Math.max(1, n)))))
  const cuts: Cut[] = []
  let key = n > 0 ? ids[0]! : -1
  let start = 0
  for (let i = 0; i < n - 1; i++) {
    const size = ends[i]! - start
    if (size >= MAX_PIECE || (size >= MIN_PIECE && mix(ids[i]!) % every === 0)) {
      cuts.push({ key, end: ends[i]! })
      key = ids[i + 1]!
      start = ends[i]!
    }
  }
  cuts.push({ key, end: total })
  return cuts
}

/** Whether `old` can stand for bytes[start, end): the same bytes, after the same WINDOW before. */
function reusable(base: EncodedList, old: Piece, bytes: Uint8Array, start: number, end: number) {
  if (old.end - old.start !== end - start) return false
  const from = Math.max(0, start - WINDOW)
  const oldFrom = Math.max(0, old.start - WINDOW)
  if (start - from !== old.start - oldFrom) return false
  return Buffer.compare(bytes.subarray(from, end), base.bytes.subarray(oldFrom, old.end)) === 0
}

const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * The gzip of `bytes` cut at `cuts`, using the pieces of `base` (an earlier version) that still
 * fit; with the version as encoded, for the next one, and how many pieces were compressed anew.
 */
export async function gzipInPieces(
  bytes: Uint8Array,
  cuts: readonly Cut[],
  base?: EncodedList,
): Promise<{ gzip: Buffer; encoded: EncodedList; compressed: number }> {
  const pieces = new Map<number, Piece>()
  const parts: Buffer[] = [HEADER]
  let compressed = 0
  let start = 0
  let since = performance.now()
  for (const { key, end } of cuts) {
    const old = base?.pieces.get(key)
    let deflated = old && reusable(base!, old, bytes, start, end) ? old.deflated : undefined
    if (!deflated) {
      if (performance.now() - since > SLICE_MS) {
        await yieldToOthers()
        since = performance.now()
      }
      deflated = deflateRawSync(bytes.subarray(start, end), {
        finishFlush: constants.Z_SYNC_FLUSH,
        ...(start > 0 && { dictionary: bytes.subarray(Math.max(0, start - WINDOW), start) }),
      })
      compressed++
    }
    pieces.set(key, { start, end, deflated })
    parts.push(deflated)
    start = end
  }
  const trailer = Buffer.alloc(8)
  trailer.writeUInt32LE(crc32(bytes), 0)
  trailer.writeUInt32LE(bytes.byteLength % 2 ** 32, 4)
  parts.push(LAST_BLOCK, trailer)
  return { gzip: Buffer.concat(parts), encoded: { bytes, pieces }, compressed }
}

/** A kept list's rows, and the latest earlier version of it that was encoded, if any. */
interface Layout {
  ids: ArrayLike<number>
  ends: ArrayLike<number>
  base: EncodedList | undefined
}

/** Lists known to be rows (by the identity of their bytes), until they are encoded. */
const layouts = new WeakMap<Uint8Array, Layout>()
/** Lists as encoded, for the versions made from them. */
const encodedLists = new WeakMap<Uint8Array, EncodedList>()

/**
 * Tells the encoder that `bytes` is a list of rows (list-cache.ts's index) made from the list
 * `from`. Only the latest encoded version of its line is kept with it, never a chain of versions.
 */
export function describeList(
  bytes: Uint8Array,
  index: { ids: ArrayLike<number>; ends: ArrayLike<number> },
  from?: Uint8Array,
): void {
  if (bytes.byteLength > MAX_BYTES) return
  const base = from && (encodedLists.get(from) ?? layouts.get(from)?.base)
  layouts.set(bytes, { ids: index.ids, ends: index.ends, base })
}

/** The gzip of a list described above, reusing what it can; undefined for any other body. */
export function gzipList(bytes: Uint8Array): Promise<Buffer> | undefined {
  const layout = layouts.get(bytes)
  if (!layout) return undefined
  return gzipInPieces(bytes, cutsOf(layout.ids, layout.ends, bytes.byteLength), layout.base).then(
    ({ gzip, encoded }) => {
      encodedLists.set(bytes, encoded)
      layouts.delete(bytes)
      return gzip
    },
  )
}
