import { constants, crc32, deflateRawSync, inflateRawSync } from 'node:zlib'

/**
 * Gzip for kept lists (server/services/list-cache.ts), made of the list's pieces, each encoded
 * once and used again by the list's later versions: a write changes a row or two of a list of
 * thousands, and encoding the whole list again after each write was a third of the server's CPU
 * under a team's load (server/README.md, "Throughput, and which engine").
 *
 * A kept list is held as pieces of whole rows (some 28 KiB each) that its versions share: a write
 * makes new pieces for the rows it touched, and every other piece is the very object of the
 * version before. Each piece is raw deflate ended by a sync flush (which leaves it on a byte
 * boundary, so the pieces join into one deflate stream), compressed with the 16 KiB before it as
 * its dictionary: the joined stream decodes to the list as if it had been compressed whole, and
 * comes out within a few percent of that size. (Deflate could look back 32 KiB, but a dictionary
 * that long made each piece three times as costly to compress, for the same bytes on the bench's
 * departments and some 2 % fewer on lists of varied text: server/README.md,
 * "Throughput, and which engine".)
 *
 * A piece's deflate stays valid while the 16 KiB before it are the bytes it was compressed after:
 * the same pieces before it, or other pieces that end in the same bytes (a row changed further
 * back). When those bytes changed, the old deflate is decoded against the new ones: when it gives
 * the piece's bytes, it is valid as it is (its back-references did not reach into what changed),
 * which costs a tenth of compressing it again. The list's CRC is combined from its pieces' CRCs,
 * so nothing is done over the whole list's bytes.
 */

/** How much of the list before a piece is its dictionary (deflate's window is twice that). */
const DICTIONARY = 16 * 1024
/**
 * Encoding runs on the server's thread: after this long in one go it lets other work run before
 * going on (a list seen for the first time is encoded whole, some 7 ms for 400 KB).
 */
const SLICE_MS = 2

/** A gzip member's header: deflate, no name, no time, unknown OS (RFC 1952). */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff])
/** What ends every list: `]`. */
const CLOSE = Buffer.from(']')
/** `]` as the final block of the joined stream (a literal: it refers to nothing before it). */
const CLOSE_BLOCK = deflateRawSync(CLOSE)
const CLOSE_CRC = crc32(CLOSE)

/** A piece of a list: its bytes as they lie in the list, and what is known of their encoding. */
export interface Piece {
  /** `[` for the first piece, `,` for the others, then its rows' JSON joined by commas. */
  readonly text: Uint8Array
  /** The CRC-32 of `text`, once asked for. */
  crc?: number
  /** Its latest deflate, the pieces before it then, and the dictionary they gave. */
  deflated?: Deflated
}

interface Deflated {
  after: readonly Piece[]
  dictionary: Uint8Array
  bytes: Buffer
}

/** What one encoding of a list did: pieces compressed, and old deflates found still valid. */
export interface GzipReport {
  gzip: Buffer
  compressed: number
  kept: number
  checked: number
}

/** The pieces before `pieces[k]` that hold the DICTIONARY bytes before it, nearest last. */
function windowOf(pieces: readonly Piece[], k: number): Piece[] {
  const before: Piece[] = []
  let size = 0
  for (let i = k - 1; i >= 0 && size < DICTIONARY; i--) {
    before.unshift(pieces[i]!)
    size += pieces[i]!.text.byteLength
  }
  return before
}

const sameObjects = (a: readonly Piece[], b: readonly Piece[]) =>
  a.length === b.length && a.every((piece, i) => piece === b[i])

/** The last DICTIONARY bytes of `before`: a view of the last piece when it is that long. */
function dictionaryOf(before: readonly Piece[]): Uint8Array {
  const last = before.at(-1)?.text
  if (!last) return new Uint8Array(0)
  if (last.byteLength >= DICTIONARY || before.length === 1) {
    return last.subarray(Math.max(0, last.byteLength - DICTIONARY))
  }
  const joined = Buffer.concat(before.map((p) => p.text))
  return joined.subarray(Math.max(0, joined.byteLength - DICTIONARY))
}

/** Whether two runs of bytes are the same bytes. */
export const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  a.byteLength === b.byteLength && Buffer.compare(a, b) === 0

/** Whether `deflated` decodes, after `dictionary`, to `text`. */
function decodesTo(deflated: Buffer, dictionary: Uint8Array, text: Uint8Array): boolean {
  try {
    const out = inflateRawSync(deflated, {
      finishFlush: constants.Z_SYNC_FLUSH,
      ...(dictionary.byteLength > 0 && { dictionary }),
    })
    return out.equals(text)
  } catch {
    return false
  }
}

const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * The gzip of the list made of `pieces` and `]`, from each piece's deflate where it is still
 * valid, compressing the others (and keeping their deflate on them, for the next version).
 */
export async function gzipPieces(pieces: readonly Piece[]): Promise<GzipReport> {
  const parts: Buffer[] = [HEADER]
  let compressed = 0
  let checked = 0
  let crc = 0
  let length = 0
  let since = performance.now()
  for (let k = 0; k < pieces.length; k++) {
    const piece = pieces[k]!
    const before = windowOf(pieces, k)
    let known = piece.deflated
    if (!known || !sameObjects(known.after, before)) {
      const dictionary = dictionaryOf(before)
      // Other pieces before it: still valid after the same bytes, or when its back-references
      // do not reach those that changed.
      let valid = known !== undefined && sameBytes(known.dictionary, dictionary)
      if (known && !valid) {
        checked++
        valid = decodesTo(known.bytes, dictionary, piece.text)
      }
      if (known && valid) known = { after: before, dictionary, bytes: known.bytes }
      else {
        if (performance.now() - since > SLICE_MS) {
          await yieldToOthers()
          since = performance.now()
        }
        const bytes = deflateRawSync(piece.text, {
          finishFlush: constants.Z_SYNC_FLUSH,
          ...(dictionary.byteLength > 0 && { dictionary }),
        })
        known = { after: before, dictionary, bytes }
        compressed++
      }
      piece.deflated = known
    }
    parts.push(known.bytes)
    piece.crc ??= crc32(piece.text)
    crc = crc32Combine(crc, piece.crc, piece.text.byteLength)
    length += piece.text.byteLength
  }
  crc = crc32Combine(crc, CLOSE_CRC, CLOSE.byteLength)
  length += CLOSE.byteLength
  const trailer = Buffer.alloc(8)
  trailer.writeUInt32LE(crc, 0)
  trailer.writeUInt32LE(length % 2 ** 32, 4)
  parts.push(CLOSE_BLOCK, trailer)
  return { gzip: Buffer.concat(parts), compressed, kept: pieces.length - compressed, checked }
}

/** The list's bytes: its pieces and `]`. */
export function joinPieces(pieces: readonly Piece[]): Uint8Array<ArrayBuffer> {
  let size = CLOSE.byteLength
  for (const piece of pieces) size += piece.text.byteLength
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const piece of pieces) {
    bytes.set(piece.text, offset)
    offset += piece.text.byteLength
  }
  bytes.set(CLOSE, offset)
  return bytes
}

/*
 * CRC-32 of two runs of bytes joined, from the CRC of each and the second's length, as zlib's
 * crc32_combine does it: the first CRC is carried over the second's length by multiplying by
 * x^(8 × length) modulo the CRC's polynomial (bit-reflected, as the CRC is).
 */
const POLY = 0xedb88320

/** a(x) × b(x) modulo the polynomial. */
function multiplyModP(a: number, b: number): number {
  let m = 0x80000000
  let p = 0
  for (;;) {
    if ((a & m) !== 0) {
      p ^= b
      if ((a & (m - 1)) === 0) break
    }
    m >>>= 1
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1
  }
  return p >>> 0
}

/** x^(2^k) modulo the polynomial, for k from 0 to 31. */
const X2N = new Uint32Array(32)
X2N[0] = 0x40000000
for (let k = 1; k < 32; k++) X2N[k] = multiplyModP(X2N[k - 1]!, X2N[k - 1]!)

/** x^(n × 2^k) modulo the polynomial. */
function x2nModP(n: number, k: number): number {
  let p = 0x80000000
  while (n) {
    if (n & 1) p = multiplyModP(X2N[k & 31]!, p)
    n = Math.floor(n / 2)
    k++
  }
  return p
}

/** The CRC-32 of A then B, from A's CRC, B's CRC and B's length in bytes. */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return (multiplyModP(x2nModP(lengthB, 3), crcA) ^ crcB) >>> 0
}
