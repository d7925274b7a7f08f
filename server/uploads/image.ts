/**
 * Recognises an image by its magic bytes (never by the declared type or name) and reads its pixel
 * size from the header. Only the formats browsers show everywhere: JPEG, PNG, WebP, GIF.
 */
export interface ImageInfo {
  format: 'png' | 'jpeg' | 'gif' | 'webp'
  contentType: string
  extension: string
  /** Pixel size, or null when the header is cut short or unusual. */
  width: number | null
  height: number | null
}

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8)
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16)
const u32be = (b: Uint8Array, i: number) =>
  ((b[i]! << 24) >>> 0) + (b[i + 1]! << 16) + (b[i + 2]! << 8) + b[i + 3]!
const ascii = (b: Uint8Array, i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n))

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return bytes.length >= signature.length && signature.every((value, i) => bytes[i] === value)
}

function size(width: number, height: number): Pick<ImageInfo, 'width' | 'height'> {
  return width > 0 && height > 0 ? { width, height } : { width: null, height: null }
}

function pngSize(b: Uint8Array) {
  if (b.length < 24 || ascii(b, 12, 4) !== 'IHDR') return size(0, 0)
  return size(u32be(b, 16), u32be(b, 20))
}

function gifSize(b: Uint8Array) {
  if (b.length < 10) return size(0, 0)
  return size(u16le(b, 6), u16le(b, 8))
}

/**
 * One step of the walk over a JPEG's segments from byte `i` (needs bytes i..i+9): the frame's
 * size, where the next segment starts, or null when the bytes are no JPEG segment.
 */
function jpegStep(b: Uint8Array, i: number): { size: ReturnType<typeof size> } | number | null {
  if (b[i] !== 0xff) return null
  const marker = b[i + 1]!
  if (marker === 0xff) return i + 1
  if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) return i + 2
  const length = u16be(b, i + 2)
  const isFrame = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)
  if (isFrame) return { size: size(u16be(b, i + 7), u16be(b, i + 5)) }
  return i + 2 + length
}

function jpegSize(b: Uint8Array) {
  let i = 2
  while (i + 9 < b.length) {
    const next = jpegStep(b, i)
    if (next === null) return size(0, 0)
    if (typeof next !== 'number') return next.size
    i = next
  }
  return size(0, 0)
}

/** Bytes of a stored file read at once while its JPEG segments are walked. */
const JPEG_WINDOW = 64 * 1024

/**
 * The pixel size of a JPEG of `total` bytes that is read in windows (an upload on disk, whose
 * frame header may come after more metadata than the bytes kept in memory): the same walk as
 * for bytes in memory, at most one read per window.
 */
export async function jpegSizeOf(
  read: (start: number, length: number) => Promise<Uint8Array>,
  total: number,
): Promise<Pick<ImageInfo, 'width' | 'height'>> {
  let base = 0
  let window: Uint8Array = new Uint8Array(0)
  let i = 2
  while (i + 9 < total) {
    if (i < base || i + 10 > base + window.length) {
      base = i
      window = await read(i, JPEG_WINDOW)
      if (window.length < 10) break
    }
    const next = jpegStep(window, i - base)
    if (next === null) return size(0, 0)
    if (typeof next !== 'number') return next.size
    i = base + next
  }
  return size(0, 0)
}

function webpSize(b: Uint8Array) {
  if (b.length < 30) return size(0, 0)
  const chunk = ascii(b, 12, 4)
  if (chunk === 'VP8 ') return size(u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff)
  if (chunk === 'VP8L') {
    const b1 = b[22]!
    const b2 = b[23]!
    const b3 = b[24]!
    return size(
      1 + (((b1 & 0x3f) << 8) | b[21]!),
      1 + (((b3 & 0xf) << 10) | (b2 << 2) | ((b1 & 0xc0) >> 6)),
    )
  }
  if (chunk === 'VP8X') return size(1 + u24le(b, 24), 1 + u24le(b, 27))
  return size(0, 0)
}

export function sniffImage(bytes: Uint8Array): ImageInfo | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return { format: 'png', contentType: 'image/png', extension: 'png', ...pngSize(bytes) }
  }
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) {
    return { format: 'jpeg', contentType: 'image/jpeg', extension: 'jpg', ...jpegSize(bytes) }
  }
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a')) {
    return { format: 'gif', contentType: 'image/gif', extension: 'gif', ...gifSize(bytes) }
  }
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') {
    return { format: 'webp', contentType: 'image/webp', extension: 'webp', ...webpSize(bytes) }
  }
  return null
}
