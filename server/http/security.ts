import type { MiddlewareHandler } from 'hono'
import { EMBED_ORIGINS } from '../../src/domain/video-embed.ts'
import { getHeader, setHeader } from './answer.ts'
import type { AppEnv } from './env.ts'

/**
 * The app's content security policy: Pixi draws with WebGL and loads textures from blob: and
 * data: URLs, workers come from our origin (or blob:), Mantine sets inline styles. Scripts only
 * from our origin, plus the exact inline scripts of index.html (by hash), if any.
 */
export function appCsp(inlineScriptHashes: readonly string[]): string {
  return [
    "default-src 'self'",
    `script-src 'self'${inlineScriptHashes.map((h) => ` ${h}`).join('')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "media-src 'self' blob: https:",
    "worker-src 'self' blob:",
    // The preview's players of outside videos (src/domain/video-embed.ts), loaded on a tap.
    `frame-src ${EMBED_ORIGINS.join(' ')}`,
    "connect-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

/**
 * Uploaded files are images or videos; nothing in them may run. (media-src lets the browser play
 * a video opened on its own, in the player page it builds around it.)
 */
export const UPLOAD_CSP =
  "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox"

export function securityHeaders(csp: () => string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next()
    const res = c.res
    setHeader(res, 'X-Content-Type-Options', 'nosniff')
    // A font is never a document: the policies that govern one would only weigh on each of a
    // published page's font files, on the slow link its fonts are waited for on.
    if (getHeader(res, 'Content-Type')?.startsWith('font/')) return
    if (getHeader(res, 'Content-Security-Policy') === null) {
      setHeader(res, 'Content-Security-Policy', csp())
    }
    setHeader(res, 'X-Frame-Options', 'DENY')
    setHeader(res, 'Referrer-Policy', 'strict-origin-when-cross-origin')
    // A published page holds no session and no secret for an opener to reach, and isolating it
    // would start its visitor's browser a fresh process on every visit (docs/publishing.md,
    // "Security"); the app keeps its window to itself.
    if (!c.req.path.startsWith('/p/')) setHeader(res, 'Cross-Origin-Opener-Policy', 'same-origin')
    setHeader(res, 'Permissions-Policy', 'camera=(), microphone=(), geolocation=()')
    if (c.req.path.startsWith('/api/')) setHeader(res, 'Cache-Control', 'no-store')
  }
}
