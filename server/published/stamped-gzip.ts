import { crc32, deflateRawSync, constants as zlib } from 'node:zlib'

/**
 * A page rendered once whose answers each carry a few values of their own (a form's signed token
 * and submission id, docs/requests.md), sent gzip-encoded without compressing it per answer.
 *
 * The page is cut at its slots. Each fixed run is raw deflate compressed once, on its own, ended
 * by a sync flush (which leaves the stream on a byte boundary and lets no later run refer back
 * into it); a slot's value goes between them as a stored block; an empty final block ends the
 * stream. Joined, they are one valid deflate stream of the page with its values, wrapped in
 * gzip's header and its trailer (the CRC-32 and length of what it decodes to).
 */
export interface StampedPage {
  /** The fixed runs; `slots[i]` stands between `runs[i]` and `runs[i + 1]`. */
  runs: Buffer[]
  slots: string[]
  deflated: Buffer[]
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff])
/** BFINAL = 1, fixed Huffman codes, the end-of-block code at once. */
const FINAL_EMPTY_BLOCK = Buffer.from([0x03, 0x00])

export function stampedPage(html: string, slotPattern: RegExp): StampedPage {
  const runs: Buffer[] = []
  const slots: string[] = []
  let last = 0
  for (const match of html.matchAll(new RegExp(slotPattern.source, 'g'))) {
    runs.push(Buffer.from(html.slice(last, match.index)))
    slots.push(match[0])
    last = match.index + match[0].length
  }
  runs.push(Buffer.from(html.slice(last)))
  const deflated = runs.map((run) =>
    deflateRawSync(run, { level: 9, finishFlush: zlib.Z_SYNC_FLUSH }),
  )
  return { runs, slots, deflated }
}

/** A stored (uncompressed) deflate block of up to 65,535 bytes. */
function storedBlock(bytes: Buffer): Buffer {
  const head = Buffer.alloc(5)
  head[0] = 0x00
  head.writeUInt16LE(bytes.length, 1)
  head.writeUInt16LE(~bytes.length & 0xffff, 3)
  return Buffer.concat([head, bytes])
}

/** The page with each slot's value, as it is and gzip-encoded. */
export function stamp(
  page: StampedPage,
  value: (slot: string) => string,
): { raw: Buffer; gzip: Buffer } {
  const rawParts: Buffer[] = []
  const gzipParts: Buffer[] = [GZIP_HEADER]
  page.runs.forEach((run, i) => {
    rawParts.push(run)
    gzipParts.push(page.deflated[i]!)
    const slot = page.slots[i]
    if (slot === undefined) return
    const bytes = Buffer.from(value(slot))
    if (bytes.length > 65_535) throw new Error('a slot value is too long for one stored block')
    rawParts.push(bytes)
    if (bytes.length > 0) gzipParts.push(storedBlock(bytes))
  })
  const raw = Buffer.concat(rawParts)
  const trailer = Buffer.alloc(8)
  trailer.writeUInt32LE(crc32(raw) >>> 0, 0)
  trailer.writeUInt32LE(raw.length >>> 0, 4)
  gzipParts.push(FINAL_EMPTY_BLOCK, trailer)
  return { raw, gzip: Buffer.concat(gzipParts) }
}
