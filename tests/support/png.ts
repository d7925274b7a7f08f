import { crc32, deflateSync } from 'node:zlib'
import sharp from 'sharp'

type Rgb = readonly [number, number, number]

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/**
 * A real (decodable) RGB PNG of `width` × `height`, for uploads in tests: plain grey, or the
 * colour `pixel` gives each point (a gradient makes a background visible on screen).
 */
export function pngImage(
  width: number,
  height: number,
  pixel: (x: number, y: number) => Rgb = () => [0x80, 0x80, 0x80],
): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bit depth
  header[9] = 2 // RGB
  const stride = width * 3 + 1
  const rows = Buffer.alloc(stride * height) // each row starts with filter 0 (none)
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) rows.set(pixel(x, y), y * stride + 1 + x * 3)
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/**
 * The RGBA pixels of a PNG (a screenshot), decoded in Node by sharp (a dependency of the server's
 * image resizing): row by row, four bytes a pixel.
 */
export async function pngPixels(png: Buffer): Promise<Uint8Array> {
  const { data } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  return new Uint8Array(data.buffer, data.byteOffset, data.length)
}
