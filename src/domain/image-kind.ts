/**
 * What kind of picture a file's first bytes say it is — JPEG, PNG, GIF or WebP — or null. The name
 * and the type the browser guesses from it are not trusted: a renamed document says "image/png".
 * The server checks the same signatures when it stores an upload.
 */
export type ImageKind = 'jpeg' | 'png' | 'gif' | 'webp'

/** How many leading bytes `imageKindOf` needs. */
export const IMAGE_SIGNATURE_BYTES = 12

const ascii = (bytes: Uint8Array, from: number, length: number) =>
  String.fromCharCode(...bytes.subarray(from, from + length))

export function imageKindOf(bytes: Uint8Array): ImageKind | null {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
  if (png.every((byte, i) => bytes[i] === byte)) return 'png'
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg'
  const head = ascii(bytes, 0, 6)
  if (head === 'GIF87a' || head === 'GIF89a') return 'gif'
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'webp'
  return null
}
