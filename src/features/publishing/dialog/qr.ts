import qrcode from 'qrcode-generator'

/**
 * The QR code of a page's address (docs/screens.md "Publishing"): the module matrix from
 * qrcode-generator, drawn by us as one SVG path (on screen and the SVG for print) and onto a canvas
 * for the PNG, so both files show the very same code. Loaded with the publish dialog only.
 */

/** Modules of quiet zone around the code (the standard's minimum is 4). */
export const QUIET_ZONE = 4

export interface QrCode {
  /** Modules per side, without the quiet zone. */
  size: number
  /** Whether the module at row `r`, column `c` is dark. */
  dark: (r: number, c: number) => boolean
}

/** The code of `text`, at error correction level M (a print survives some wear), smallest version. */
export function qrCode(text: string): QrCode {
  const qr = qrcode(0, 'M')
  qr.addData(text, 'Byte')
  qr.make()
  const size = qr.getModuleCount()
  return { size, dark: (r, c) => qr.isDark(r, c) }
}

/** The dark modules as one path in module units (quiet zone included), runs of a row merged. */
export function qrPath(code: QrCode): string {
  const parts: string[] = []
  for (let r = 0; r < code.size; r += 1) {
    let c = 0
    while (c < code.size) {
      if (!code.dark(r, c)) {
        c += 1
        continue
      }
      const start = c
      while (c < code.size && code.dark(r, c)) c += 1
      parts.push(`M${start + QUIET_ZONE} ${r + QUIET_ZONE}h${c - start}v1h${start - c}z`)
    }
  }
  return parts.join('')
}

/** Side of the drawing in modules, quiet zone included. */
export const qrSide = (code: QrCode) => code.size + 2 * QUIET_ZONE

/** A standalone SVG file of the code: black on white, crisp at any print size. */
export function qrSvg(code: QrCode, title: string): string {
  const side = qrSide(code)
  const escaped = title.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}" width="${side * 10}" ` +
    `height="${side * 10}" shape-rendering="crispEdges"><title>${escaped}</title>` +
    `<rect width="${side}" height="${side}" fill="#fff"/>` +
    `<path fill="#000" d="${qrPath(code)}"/></svg>`
  )
}

/** Pixels per module of the PNG: 1,000 px or more a side, enough for a poster at 150 dpi. */
export function pngScale(code: QrCode): number {
  return Math.max(8, Math.ceil(1000 / qrSide(code)))
}

/** A PNG of the code (a canvas in the page). */
export async function qrPng(code: QrCode): Promise<Blob> {
  const scale = pngScale(code)
  const side = qrSide(code) * scale
  const canvas = document.createElement('canvas')
  canvas.width = side
  canvas.height = side
  const context = canvas.getContext('2d')
  if (!context) throw new Error('No 2D canvas')
  context.fillStyle = '#fff'
  context.fillRect(0, 0, side, side)
  context.fillStyle = '#000'
  for (let r = 0; r < code.size; r += 1)
    for (let c = 0; c < code.size; c += 1)
      if (code.dark(r, c))
        context.fillRect((c + QUIET_ZONE) * scale, (r + QUIET_ZONE) * scale, scale, scale)
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('No PNG'))), 'image/png'),
  )
}

/** Saves `blob` as a file named `name` (the browser's download). */
export function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  document.body.append(link)
  link.click()
  link.remove()
  // The download has started; the address is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}
