import type { Context } from 'hono'
import { UPLOAD_CONTENT_TYPES, UPLOAD_NAME, type UploadStorage } from '../uploads/storage.ts'
import type { AppEnv } from './env.ts'
import { parseRange } from './range.ts'
import { UPLOAD_CSP } from './security.ts'

/**
 * `GET /uploads/<name>`: a stored upload with its type from the extension the server gave it,
 * cached for good (names are random and never reused). Byte ranges are answered (206), which
 * browsers need to stream and seek a video.
 */
export async function serveUpload(c: Context<AppEnv>, storage: UploadStorage): Promise<Response> {
  const name = c.req.param('name') ?? ''
  const size = UPLOAD_NAME.test(name) ? await storage.size(name) : null
  const extension = name.slice(name.lastIndexOf('.') + 1)
  // SVG only for the seeded demo backgrounds: uploads are always raster images or video.
  const type =
    extension === 'svg' && name.startsWith('seed-')
      ? 'image/svg+xml'
      : UPLOAD_CONTENT_TYPES[extension]
  if (size === null || !type) return c.text('Not found', 404)
  const headers: Record<string, string> = {
    'Content-Type': type,
    'Cache-Control': 'public, max-age=31536000, immutable',
    'Content-Security-Policy': UPLOAD_CSP,
    'Accept-Ranges': 'bytes',
  }
  const range = parseRange(c.req.header('Range'), size)
  if (range === 'unsatisfiable') {
    return new Response(null, {
      status: 416,
      headers: { ...headers, 'Content-Range': `bytes */${size}` },
    })
  }
  const { start, end } = range ?? { start: 0, end: size }
  const partial = range !== null
  if (partial) headers['Content-Range'] = `bytes ${start}-${end - 1}/${size}`
  headers['Content-Length'] = String(end - start)
  const body = c.req.method === 'HEAD' ? null : storage.stream(name, start, end)
  return new Response(body, { status: partial ? 206 : 200, headers })
}
