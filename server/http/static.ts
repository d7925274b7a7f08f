import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { extname, resolve, sep } from 'node:path'
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

async function fileAt(path: string): Promise<Buffer | null> {
  try {
    const info = await stat(path)
    if (!info.isFile()) return null
    return await readFile(path)
  } catch {
    return null
  }
}

/**
 * Serves the built PWA: hashed /assets/* cached for a year; everything else (index.html, sw.js,
 * the manifest) revalidated on each load; client routes fall back to index.html.
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
    const type = CONTENT_TYPES[extname(served).toLowerCase()] ?? 'application/octet-stream'
    const cache = path.startsWith('/assets/') ? IMMUTABLE : 'no-cache'
    return new Response(c.req.method === 'HEAD' ? null : new Uint8Array(file), {
      headers: {
        'Content-Type': type,
        'Cache-Control': cache,
        'Content-Length': String(file.length),
      },
    })
  }
}
