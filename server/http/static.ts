import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { extname, resolve, sep } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, brotliDecompress, constants as zlib, gunzip, gzip } from 'node:zlib'
import type { Context } from 'hono'
import type { AppEnv } from './env.ts'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
}

const IMMUTABLE = 'public, max-age=31536000, immutable'

/** Hashes of the inline scripts in index.html, so the CSP can allow exactly those. */
export async function inlineScriptHashes(staticDir: string): Promise<string[]> {
  let html: string
  try {
    html = await readFile(resolve(staticDir, 'index.html'), 'utf8')
  } catch {
    return []
  }
  const hashes: string[] = []
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    const code = match[1] ?? ''
    if (code.trim() === '') continue
    hashes.push(`'sha256-${createHash('sha256').update(code).digest('base64')}'`)
  }
  return hashes
}

interface StaticFile {
  data: Buffer
  /** Changes when the file does (a new build): the key of its encoded copies. */
  stamp: string
}

async function fileAt(path: string): Promise<StaticFile | null> {
  try {
    const info = await stat(path)
    if (!info.isFile()) return null
    const data = await readFile(path)
    return { data, stamp: `${info.mtimeMs}:${info.size}` }
  } catch {
    return null
  }
}

/** Text the app is made of: sent brotli- or gzip-encoded to a browser that accepts it. */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.webmanifest', '.svg'])
/** Smaller than this is sent as it is (the encoding's own overhead would eat the saving). */
const MIN_COMPRESS_BYTES = 1024

type Encoding = 'br' | 'gzip'
const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)
const unbrotli = promisify(brotliDecompress)
const gunzipAsync = promisify(gunzip)

/**
 * The encodings the request accepts, best first: brotli (at its highest quality, ~13% smaller than
 * gzip on our code), then gzip at level 9; `q=0` refuses one.
 */
export function acceptedEncoding(header: string | undefined): Encoding | null {
  const accepted = new Set<string>()
  for (const part of (header ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';')
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name)
  }
  if (accepted.has('br')) return 'br'
  if (accepted.has('gzip')) return 'gzip'
  return null
}

/**
 * Encoded copies of the files served, kept in memory (the built app is a few MB, its encoded
 * copies well under one): the build's own (`x.js.br`, `x.js.gz` beside `x.js`, written by
 * vite.config.ts) when it decodes to the file as it is now, otherwise made once per file version
 * off the main thread (zlib's thread pool).
 */
const encodedCopies = new Map<string, { stamp: string; data: Promise<Buffer> }>()
const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' }

function encodedCopy(path: string, file: StaticFile, encoding: Encoding): Promise<Buffer> {
  const key = `${encoding}:${path}`
  const kept = encodedCopies.get(key)
  if (kept && kept.stamp === file.stamp) return kept.data
  const data = fileAt(path + SUFFIX[encoding]).then(async (built) =>
    built && (await decodesTo(built.data, encoding, file.data))
      ? built.data
      : encode(file.data, encoding),
  )
  encodedCopies.set(key, { stamp: file.stamp, data })
  data.catch(() => encodedCopies.delete(key))
  return data
}

/** Whether the build's copy is this version of the file (decoding is cheap; dates lie after a copy). */
async function decodesTo(encoded: Buffer, encoding: Encoding, original: Buffer): Promise<boolean> {
  try {
    const decoded = encoding === 'br' ? await unbrotli(encoded) : await gunzipAsync(encoded)
    return decoded.equals(original)
  } catch {
    return false
  }
}

function encode(data: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(data, {
        params: {
          [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
          [zlib.BROTLI_PARAM_SIZE_HINT]: data.length,
        },
      })
    : gzipAsync(data, { level: 9 })
}

/**
 * Serves the built PWA: hashed /assets/* cached for a year; everything else (index.html, sw.js,
 * the manifest) revalidated on each load; client routes fall back to index.html. Text files go
 * brotli- or gzip-encoded when the browser accepts it (docs/performance.md).
 */
export function staticSite(staticDir: string) {
  const root = resolve(staticDir)
  return async (c: Context<AppEnv>): Promise<Response | null> => {
    let path: string
    try {
      path = decodeURIComponent(c.req.path)
    } catch {
      return null
    }
    if (path.includes('\0')) return null
    const target = resolve(root, `.${path}`)
    if (target !== root && !target.startsWith(root + sep)) return null
    let file = target === root ? null : await fileAt(target)
    let served = target
    if (!file) {
      // A path with an extension names a file that is missing; anything else is a client route.
      if (extname(path) !== '') return null
      served = resolve(root, 'index.html')
      file = await fileAt(served)
      if (!file) return null
    }
    const extension = extname(served).toLowerCase()
    const type = CONTENT_TYPES[extension] ?? 'application/octet-stream'
    const headers: Record<string, string> = {
      'Content-Type': type,
      'Cache-Control': path.startsWith('/assets/') ? IMMUTABLE : 'no-cache',
    }
    let body: Buffer = file.data
    if (COMPRESSIBLE.has(extension) && file.data.length >= MIN_COMPRESS_BYTES) {
      headers.Vary = 'Accept-Encoding'
      const encoding = acceptedEncoding(c.req.header('Accept-Encoding'))
      if (encoding) {
        body = await encodedCopy(served, file, encoding)
        headers['Content-Encoding'] = encoding
      }
    }
    headers['Content-Length'] = String(body.length)
    return new Response(c.req.method === 'HEAD' ? null : new Uint8Array(body), { headers })
  }
}
