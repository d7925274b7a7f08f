/**
 * The one byte range of a `Range` header (RFC 9110 §14) that the uploads route answers. Browsers
 * ask for ranges to stream and seek a video; a single range is all they ask for.
 *
 * - `null`: no usable Range header (absent, another unit, several ranges, malformed): send it all.
 * - `'unsatisfiable'`: a range that starts beyond the file: 416.
 * - `{ start, end }`: bytes start to end, end exclusive: 206.
 */
export type ByteRange = { start: number; end: number } | 'unsatisfiable' | null

export function parseRange(header: string | undefined, size: number): ByteRange {
  if (!header) return null
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header)
  if (!match) return null
  const [, first = '', last = ''] = match
  if (first === '' && last === '') return null
  if (first === '') {
    // A suffix: the last N bytes.
    const length = Number(last)
    if (length === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - length), end: size }
  }
  const start = Number(first)
  if (last !== '' && Number(last) < start) return null
  if (start >= size) return 'unsatisfiable'
  const end = last === '' ? size : Math.min(size, Number(last) + 1)
  return { start, end }
}
