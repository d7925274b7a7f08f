import { promisify } from 'node:util'
import { brotliCompress, constants as zlib, crc32, deflateRawSync } from 'node:zlib'

const brotli = promisify(brotliCompress)

/**
 * A page rendered once whose answers each carry a few values of their own (its forms' signed
 * token and submission ids, docs/requests.md), sent compressed without compressing it per answer.
 *
 * The renderer puts every slot at the end of the page (src/features/published/forms.tsx,
 * `FormStamps`). What comes before the first slot, nearly all of the page, is compressed once in
 * each encoding: deflate ended by a sync flush, brotli at its best ended by a flush, each stream
 * left open on a byte boundary. An answer's tail, the rest with its values stamped in, follows as
 * stored data (deflate's stored blocks, RFC 1951 §3.2.4; brotli's uncompressed meta-blocks,
 * RFC 7932 §9.2), then each format's end. The tail is a few hundred bytes.
 */
export interface StampedPage {
  /** Everything before the first slot (the whole page when it has none). */
  head: Buffer
  /** The tail's fixed runs; `slots[i]` stands between `runs[i]` and `runs[i + 1]`. */
  runs: Buffer[]
  slots: string[]
  headDeflated: Buffer
  headCrc: number
  /** The head in brotli, made on the first answer that accepts it. */
  headBrotli(): Promise<Buffer>
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff])
/** Deflate: BFINAL = 1, fixed Huffman codes, the end-of-block code at once. */
const DEFLATE_END = Buffer.from([0x03, 0x00])
/** Brotli: ISLAST = 1, ISLASTEMPTY = 1, padded to the byte. */
const BROTLI_END = Buffer.from([0x03])
/** The most one stored block of either format holds here. */
const STORED_MAX = 65_535

export function stampedPage(
  html: string,
  slotPattern: RegExp,
  { brotliQuality = zlib.BROTLI_MAX_QUALITY } = {},
): StampedPage {
  const matches = [...html.matchAll(new RegExp(slotPattern.source, 'g'))]
  const headEnd = matches[0]?.index ?? html.length
  const head = Buffer.from(html.slice(0, headEnd))
  const runs: Buffer[] = []
  const slots: string[] = []
  let last = headEnd
  for (const match of matches) {
    runs.push(Buffer.from(html.slice(last, match.index)))
    slots.push(match[0])
    last = match.index + match[0].length
  }
  runs.push(Buffer.from(html.slice(last)))
  let headBrotli: Promise<Buffer> | null = null
  return {
    head,
    runs,
    slots,
    headDeflated: deflateRawSync(head, { level: 9, finishFlush: zlib.Z_SYNC_FLUSH }),
    headCrc: crc32(head),
    headBrotli: () =>
      (headBrotli ??= brotli(head, {
        params: {
          [zlib.BROTLI_PARAM_QUALITY]: brotliQuality,
          [zlib.BROTLI_PARAM_SIZE_HINT]: head.length,
        },
        finishFlush: zlib.BROTLI_OPERATION_FLUSH,
      })),
  }
}

/** `bytes` in pieces a stored block can hold. */
function* pieces(bytes: Buffer): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += STORED_MAX) yield bytes.subarray(at, at + STORED_MAX)
}

/** A deflate stored block: BFINAL = 0, BTYPE = 00, then LEN and NLEN. */
function storedBlock(bytes: Buffer): Buffer[] {
  const head = Buffer.alloc(5)
  head.writeUInt16LE(bytes.length, 1)
  head.writeUInt16LE(~bytes.length & 0xffff, 3)
  return [head, bytes]
}

/** A brotli uncompressed meta-block: ISLAST = 0, four nibbles of MLEN − 1, ISUNCOMPRESSED = 1. */
function uncompressedMetaBlock(bytes: Buffer): Buffer[] {
  const bits = ((bytes.length - 1) << 3) | (1 << 19)
  return [Buffer.from([bits & 0xff, (bits >> 8) & 0xff, bits >> 16]), bytes]
}

/** The answer's tail: the runs after the head with each slot's value. */
function tailOf(page: StampedPage, value: (slot: string) => string): Buffer {
  const parts: Buffer[] = []
  page.runs.forEach((run, i) => {
    parts.push(run)
    const slot = page.slots[i]
    if (slot !== undefined) parts.push(Buffer.from(value(slot)))
  })
  return Buffer.concat(parts)
}

/** The page with each slot's value: as it is, gzip-encoded, and brotli-encoded when asked. */
export async function stamp(
  page: StampedPage,
  value: (slot: string) => string,
  encoding: 'br' | 'gzip' | null,
): Promise<Buffer> {
  const tail = tailOf(page, value)
  if (encoding === null) return Buffer.concat([page.head, tail])
  const stored = [...pieces(tail)]
  if (encoding === 'br') {
    return Buffer.concat([
      await page.headBrotli(),
      ...stored.flatMap(uncompressedMetaBlock),
      BROTLI_END,
    ])
  }
  const trailer = Buffer.alloc(8)
  trailer.writeUInt32LE(crc32(tail, page.headCrc) >>> 0, 0)
  trailer.writeUInt32LE((page.head.length + tail.length) >>> 0, 4)
  return Buffer.concat([
    GZIP_HEADER,
    page.headDeflated,
    ...stored.flatMap(storedBlock),
    DEFLATE_END,
    trailer,
  ])
}
