#!/usr/bin/env node
// Draws the app icons into public/icons/ (run once after changing the design; the PNGs are committed).
// No image library: shapes are signed-distance functions sampled 4×4 per pixel for smooth edges,
// written as RGBA PNG with node:zlib. The same design is public/favicon.svg.
//
//   node scripts/make-icons.mjs
import { mkdirSync, writeFileSync } from 'node:fs'
import { deflateSync } from 'node:zlib'

const BLUE = [34, 139, 230] // theme_color #228be6
const WHITE = [255, 255, 255]
const DEEP = [25, 113, 194] // #1971c2, the blocks on the card

/** Signed distance to a rounded rectangle (negative inside), in the unit square. */
function roundRect(x, y, left, top, right, bottom, radius) {
  const cx = (left + right) / 2
  const cy = (top + bottom) / 2
  const hx = (right - left) / 2 - radius
  const hy = (bottom - top) / 2 - radius
  const dx = Math.abs(x - cx) - hx
  const dy = Math.abs(y - cy) - hy
  const outside = Math.hypot(Math.max(dx, 0), Math.max(dy, 0))
  return outside + Math.min(Math.max(dx, dy), 0) - radius
}

function circle(x, y, cx, cy, r) {
  return Math.hypot(x - cx, y - cy) - r
}

/**
 * The design in unit coordinates: a white page (the canvas) with a headline, a text line and a
 * button — what the product builds. `scale` shrinks it around the centre (maskable safe zone).
 */
function colourAt(x, y, { full, scale }) {
  const u = 0.5 + (x - 0.5) / scale
  const v = 0.5 + (y - 0.5) / scale
  const background = full ? -1 : roundRect(x, y, 0, 0, 1, 1, 0.22)
  if (background > 0) return null
  if (roundRect(u, v, 0.22, 0.2, 0.78, 0.8, 0.07) > 0) return BLUE
  if (roundRect(u, v, 0.3, 0.3, 0.7, 0.38, 0.03) <= 0) return DEEP
  if (roundRect(u, v, 0.3, 0.45, 0.6, 0.5, 0.025) <= 0) return BLUE
  if (roundRect(u, v, 0.3, 0.6, 0.56, 0.71, 0.055) <= 0) return BLUE
  if (circle(u, v, 0.65, 0.655, 0.045) <= 0) return DEEP
  return WHITE
}

function render(size, options) {
  const samples = 4
  const pixels = Buffer.alloc(size * size * 4)
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0
      let g = 0
      let b = 0
      let a = 0
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const colour = colourAt(
            (px + (sx + 0.5) / samples) / size,
            (py + (sy + 0.5) / samples) / size,
            options,
          )
          if (!colour) continue
          r += colour[0]
          g += colour[1]
          b += colour[2]
          a += 1
        }
      }
      const i = (py * size + px) * 4
      // Colours are averaged over the covered samples only, so edges fade out without darkening.
      pixels[i] = a ? Math.round(r / a) : 0
      pixels[i + 1] = a ? Math.round(g / a) : 0
      pixels[i + 2] = a ? Math.round(b / a) : 0
      pixels[i + 3] = Math.round((a / (samples * samples)) * 255)
    }
  }
  return pixels
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(bytes) {
  let c = 0xffffffff
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type, data) {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

function png(size, pixels) {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header[8] = 8 // bit depth
  header[9] = 6 // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1))
  for (let y = 0; y < size; y++) {
    rows[y * (size * 4 + 1)] = 0 // filter: none
    pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4)
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

const ICONS = [
  { file: 'icon-192.png', size: 192, full: false, scale: 1 },
  { file: 'icon-512.png', size: 512, full: false, scale: 1 },
  // Maskable: the background fills the square and the design sits inside the 80 % safe circle.
  { file: 'icon-maskable-512.png', size: 512, full: true, scale: 0.8 },
  // iOS rounds the corners itself and shows transparency as black.
  { file: 'apple-touch-icon.png', size: 180, full: true, scale: 0.9 },
]

const dir = new URL('../public/icons/', import.meta.url)
mkdirSync(dir, { recursive: true })
for (const icon of ICONS) {
  writeFileSync(new URL(icon.file, dir), png(icon.size, render(icon.size, icon)))
  console.log(`public/icons/${icon.file} (${icon.size}×${icon.size})`)
}
