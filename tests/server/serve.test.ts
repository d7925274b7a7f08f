import { createHash } from 'node:crypto'
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { get, type IncomingHttpHeaders } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  brotliCompressSync,
  brotliDecompressSync,
  constants as zlibConstants,
  gunzipSync,
} from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../server/index.ts'
import { json } from './helpers.ts'

/** The real HTTP server over a built app: static files, SPA fallback, headers, the demo seed. */
let dir: string
let server: RunningServer
const inline = "window.__boot = 'ok'"
const PREBUILT = `// ${'y'.repeat(2000)}`
/** The build's own copy, at a quality the server never uses, so it can be told apart. */
const prebuiltCopy = brotliCompressSync(PREBUILT, {
  params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1 },
})

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'promo-dist-'))
  await mkdir(join(dir, 'assets'))
  await writeFile(
    join(dir, 'index.html'),
    `<!doctype html><html><head><script>${inline}</script><script type="module" src="/assets/index-AbC123.js"></script></head><body>${'<p>Промо</p>'.repeat(100)}</body></html>`,
  )
  await writeFile(
    join(dir, 'assets', 'index-AbC123.js'),
    `console.log(${JSON.stringify('x'.repeat(5000))})`,
  )
  await writeFile(join(dir, 'assets', 'prebuilt-Zz9.js'), PREBUILT)
  await writeFile(join(dir, 'assets', 'prebuilt-Zz9.js.br'), prebuiltCopy)
  await writeFile(join(dir, 'assets', 'stale-Yy8.js'), PREBUILT)
  await writeFile(join(dir, 'assets', 'stale-Yy8.js.br'), brotliCompressSync('// an older build'))
  await writeFile(join(dir, 'sw.js'), 'self.addEventListener("install", () => {})')
  await writeFile(join(dir, 'manifest.webmanifest'), '{"name":"Промо"}')
  await writeFile(join(dir, 'secret.txt.bak'), 'nope')
  server = await startServer({
    port: 0,
    dataDir: 'memory',
    databaseUrl: process.env.DATABASE_URL,
    schema: process.env.DATABASE_URL ? `t_serve_${process.pid}` : undefined,
    staticDir: dir,
    seed: true,
  })
})

afterAll(async () => {
  await server.close()
  await rm(dir, { recursive: true, force: true })
  if (process.env.DATABASE_URL) {
    const { default: pg } = await import('pg')
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await client.connect()
    await client.query(`DROP SCHEMA IF EXISTS t_serve_${process.pid} CASCADE`)
    await client.end()
  }
})

describe('static app', () => {
  it('serves index.html without caching and with the security headers', async () => {
    const res = await fetch(`${server.url}/`)
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toContain('text/html')
    expect(res.headers.get('Cache-Control')).toBe('no-cache')
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff')
    const csp = res.headers.get('Content-Security-Policy')!
    const hash = createHash('sha256').update(inline).digest('base64')
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}'`)
    for (const directive of [
      "frame-ancestors 'none'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "worker-src 'self' blob:",
      "connect-src 'self'",
    ]) {
      expect(csp).toContain(directive)
    }
    expect(csp).not.toContain('unsafe-eval')
  })

  it('falls back to index.html for client routes, never for /api or /uploads', async () => {
    for (const path of ['/projects', '/projects/5/edit/type-1', '/pages/login?to=/x']) {
      const res = await fetch(server.url + path)
      expect(res.status, path).toBe(200)
      expect(await res.text()).toContain('__boot')
    }
    const api = await fetch(`${server.url}/api/unknown`)
    expect(api.status).toBe(404)
    expect(api.headers.get('Content-Type')).toContain('application/json')
    const upload = await fetch(`${server.url}/uploads/missing.png`)
    expect(upload.status).toBe(404)
    expect(await upload.text()).not.toContain('__boot')
    expect((await fetch(`${server.url}/assets/missing-123.js`)).status).toBe(404)
    expect((await fetch(`${server.url}/%2e%2e/package.json`)).status).toBe(404)
  })

  it('caches hashed assets for a year and revalidates sw.js and the manifest', async () => {
    const asset = await fetch(`${server.url}/assets/index-AbC123.js`, {
      headers: { 'Accept-Encoding': 'gzip' },
    })
    expect(asset.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
    expect(asset.headers.get('Content-Type')).toContain('javascript')
    expect(await asset.text()).toContain('xxxx')
    const sw = await fetch(`${server.url}/sw.js`)
    expect(sw.headers.get('Cache-Control')).toBe('no-cache')
    const manifest = await fetch(`${server.url}/manifest.webmanifest`)
    expect(manifest.headers.get('Cache-Control')).toBe('no-cache')
    expect(manifest.headers.get('Content-Type')).toContain('application/manifest+json')
  })

  it('sends the app brotli-encoded when the browser accepts it, gzip otherwise, raw to others', async () => {
    const original = await readFile(join(dir, 'assets', 'index-AbC123.js'))
    const raw = (path: string, acceptEncoding?: string) =>
      new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((done, fail) => {
        const headers = acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {}
        get(server.url + path, { headers }, (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('end', () => done({ headers: res.headers, body: Buffer.concat(chunks) }))
        }).on('error', fail)
      })
    const br = await raw('/assets/index-AbC123.js', 'gzip, deflate, br, zstd')
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers.vary).toContain('Accept-Encoding')
    expect(Number(br.headers['content-length'])).toBe(br.body.length)
    expect(br.body.length).toBeLessThan(original.length / 10)
    expect(brotliDecompressSync(br.body).equals(original)).toBe(true)
    const gz = await raw('/assets/index-AbC123.js', 'gzip, deflate, br;q=0')
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gz.body).equals(original)).toBe(true)
    const plain = await raw('/assets/index-AbC123.js')
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body.equals(original)).toBe(true)
    // The build's own encoded copy, written beside the file, is the one sent, unless it is not
    // this version of the file (then the server encodes the file itself).
    const built = await raw('/assets/prebuilt-Zz9.js', 'br')
    expect(built.headers['content-encoding']).toBe('br')
    expect(built.body.equals(prebuiltCopy)).toBe(true)
    const stale = await raw('/assets/stale-Yy8.js', 'br')
    expect(brotliDecompressSync(stale.body).toString()).toBe(PREBUILT)
    // A client route gets index.html encoded as well.
    const page = await raw('/projects', 'br')
    expect(page.headers['content-encoding']).toBe('br')
    expect(brotliDecompressSync(page.body).toString()).toContain('__boot')
  })
})

describe('demo seed', () => {
  it('signs in the demo admin and editor and shows the clinic workspace', async () => {
    for (const [email, role] of [
      ['demo@promo.local', 'admin'],
      ['editor@promo.local', 'editor'],
    ]) {
      const res = await fetch(`${server.url}/api/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password: 'demo12345' }),
      })
      expect(res.status).toBe(200)
      const auth = await json<{ access_token: string; user: { role: string } }>(res)
      expect(auth.user.role).toBe(role)
      const headers = { Authorization: `Bearer ${auth.access_token}` }
      const ws = await json<{ id: number; name: string }[]>(
        await fetch(`${server.url}/api/workspace/list`, { headers }),
      )
      expect(ws.map((w) => w.name)).toContain('Клиника «Здоровье»')
      const clinic = ws.find((w) => w.name === 'Клиника «Здоровье»')!
      const projects = await json<{ id: number; type: number }[]>(
        await fetch(`${server.url}/api/project/list?workspace_id=${clinic.id}`, { headers }),
      )
      expect(projects.map((p) => p.type).sort()).toEqual([1, 2])
      const full = await json<{ backgrounds: { id: number; image_url: string }[] }>(
        await fetch(`${server.url}/api/project/get?project_id=${projects[0]!.id}`, { headers }),
      )
      expect(full.backgrounds.length).toBeGreaterThan(0)
      const image = await fetch(server.url + full.backgrounds[0]!.image_url)
      expect(image.headers.get('Content-Type')).toBe('image/svg+xml')
      const items = await json<{ type: string }[]>(
        await fetch(`${server.url}/api/project/get_items?bg_id=${full.backgrounds[0]!.id}`, {
          headers,
        }),
      )
      expect(new Set(items.map((i) => i.type)).size).toBeGreaterThan(1)
      for (const kind of ['department', 'location', 'specialist', 'amo', 'bitrix']) {
        const list = await json<unknown[]>(
          await fetch(`${server.url}/api/${kind}/list?workspace_id=${clinic.id}`, { headers }),
        )
        expect(list.length, kind).toBeGreaterThan(0)
      }
    }
  })
})

describe('startServer', () => {
  it('starts a second in-memory server on a random port and closes it', async () => {
    const other = await startServer({ port: 0, dataDir: 'memory' })
    try {
      expect(other.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(other.port).not.toBe(server.port)
      const res = await fetch(`${other.url}/api/check_auth`)
      expect(res.status).toBe(401)
    } finally {
      await other.close()
    }
    await expect(fetch(`${other.url}/api/check_auth`)).rejects.toThrow()
  })
})
