/**
 * Recognises a video by its magic bytes (never by the declared type or name). Only the containers
 * browsers play in a <video> everywhere: MP4 (ISO base media) and WebM.
 */
export interface VideoInfo {
  format: 'mp4' | 'webm'
  contentType: string
  extension: string
}

const ascii = (b: Uint8Array, i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n))

/**
 * HEIF/AVIF still images are ISO base media files too (an `ftyp` box like MP4's); they are not
 * video, so these major brands are refused.
 */
const IMAGE_BRANDS = new Set(['avif', 'avis', 'heic', 'heix', 'heim', 'heis', 'hevc', 'hevx'])
const IMAGE_ONLY_BRANDS = new Set(['mif1', 'msf1'])
/** Brands of MP4 files (major or compatible) that browsers play. */
const MP4_BRANDS = new Set([
  'isom',
  'iso2',
  'iso3',
  'iso4',
  'iso5',
  'iso6',
  'mp41',
  'mp42',
  'avc1',
  'M4V ',
  'M4VP',
  'dash',
  'mmp4',
  'MSNV',
])

/** MP4: a `ftyp` box at offset 4 whose brands name an MP4 (not a HEIF/AVIF picture). */
function isMp4(b: Uint8Array): boolean {
  if (b.length < 16 || ascii(b, 4, 4) !== 'ftyp') return false
  const boxSize = ((b[0]! << 24) >>> 0) + (b[1]! << 16) + (b[2]! << 8) + b[3]!
  if (boxSize < 16) return false
  const major = ascii(b, 8, 4)
  if (IMAGE_BRANDS.has(major) || IMAGE_ONLY_BRANDS.has(major)) return false
  const end = Math.min(boxSize, b.length)
  const brands = [major]
  for (let i = 16; i + 4 <= end; i += 4) brands.push(ascii(b, i, 4))
  return brands.some((brand) => MP4_BRANDS.has(brand))
}

/** Reads an EBML variable-length size; null when malformed. */
function ebmlSize(b: Uint8Array, i: number): { value: number; length: number } | null {
  const first = b[i]
  if (first === undefined || first === 0) return null
  let length = 1
  while (!(first & (0x80 >> (length - 1)))) length += 1
  if (i + length > b.length) return null
  let value = first & (0xff >> length)
  for (let k = 1; k < length; k += 1) value = value * 256 + b[i + k]!
  return { value, length }
}

/** WebM: the EBML header (1A 45 DF A3) whose DocType (element 42 82) is "webm", not "matroska". */
function isWebm(b: Uint8Array): boolean {
  if (b.length < 8 || b[0] !== 0x1a || b[1] !== 0x45 || b[2] !== 0xdf || b[3] !== 0xa3) return false
  const header = ebmlSize(b, 4)
  if (!header) return false
  let i = 4 + header.length
  const end = Math.min(i + header.value, b.length)
  // The header's children: an id (1–4 bytes, its length marked like a size's), a size, the data.
  while (i < end) {
    const id = ebmlSize(b, i)
    if (!id || id.length > 4) return false
    const size = ebmlSize(b, i + id.length)
    if (!size) return false
    const data = i + id.length + size.length
    if (b[i] === 0x42 && b[i + 1] === 0x82 && id.length === 2) {
      return size.value <= 32 && ascii(b, data, size.value).replace(/\0+$/, '') === 'webm'
    }
    i = data + size.value
  }
  return false
}

export function sniffVideo(bytes: Uint8Array): VideoInfo | null {
  if (isMp4(bytes)) return { format: 'mp4', contentType: 'video/mp4', extension: 'mp4' }
  if (isWebm(bytes)) return { format: 'webm', contentType: 'video/webm', extension: 'webm' }
  return null
}
