import { Agent, request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../server/start.ts'
import { pngImage } from './helpers.ts'

/**
 * A refused body (413) must leave a kept-alive connection usable: clients — browsers, undici's
 * fetch — send the next request on the same socket. The server used to answer 413 advertising
 * keep-alive without reading the body, then the socket died under the next request.
 */
let server: RunningServer
beforeAll(async () => {
  server = await startServer({
    port: 0,
    dataDir: 'memory',
    uploadMaxBytes: 64 * 1024,
    videoUploadMaxBytes: 64 * 1024 * 1024,
  })
}, 60_000)
afterAll(async () => {
  await server.close()
})

const big = (bytes: number) => `{"name":"${'a'.repeat(bytes)}"}`

describe('a 413 keeps the connection usable', () => {
  it('fetch: the next request after a 413 JSON body succeeds', async () => {
    for (let i = 0; i < 3; i++) {
      const refused = await fetch(`${server.url}/api/workspace/add`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer x' },
        body: big(2 * 1024 * 1024),
      })
      expect(refused.status).toBe(413)
      expect(await refused.json()).toMatchObject({ error: { code: 'too_large' } })
      const next = await fetch(`${server.url}/api/check_auth`)
      expect(next.status).toBe(401)
      await next.body?.cancel()
    }
  })

  it('a body far over the limit is refused with Connection: close; the next request gets a new socket', async () => {
    const refused = await fetch(`${server.url}/api/workspace/add`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: big(12 * 1024 * 1024),
    })
    expect(refused.status).toBe(413)
    expect(refused.headers.get('connection')).toBe('close')
    await refused.body?.cancel()
    const next = await fetch(`${server.url}/api/check_auth`)
    expect(next.status).toBe(401)
    await next.body?.cancel()
  })

  it('fetch: the next request after a 413 upload succeeds', async () => {
    // Signed in: an upload is read only after sign-in (a bad token is a 401 before it).
    const signUp = await fetch(`${server.url}/api/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Отказ', email: 'refused@example.ru', password: 'password123' }),
    })
    const { access_token } = (await signUp.json()) as { access_token: string }
    const form = new FormData()
    const image = new Uint8Array(512 * 1024)
    image.set(pngImage(4, 4))
    form.append('file', new Blob([image], { type: 'image/png' }), 'a.png')
    const refused = await fetch(`${server.url}/api/image/upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${access_token}` },
      body: form,
    })
    expect(refused.status).toBe(413)
    await refused.body?.cancel()
    const next = await fetch(`${server.url}/api/check_auth`)
    expect(next.status).toBe(401)
    await next.body?.cancel()
  })

  it('a body answered without being read (401 before an upload, 404) leaves the connection usable', async () => {
    for (const [path, bytes] of [
      ['/api/project/add_bg', 1_200_000],
      ['/api/image/upload', 3_000_000],
      ['/api/workspace/add', 900_000],
      ['/api/no/such/call', 500_000],
      ['/not-the-api', 500_000],
    ] as const) {
      const refused = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer not-a-token' },
        body: new Uint8Array(bytes),
      })
      expect(refused.status, path).toBeGreaterThanOrEqual(400)
      await refused.body?.cancel()
      const next = await fetch(`${server.url}/api/check_auth`)
      expect(next.status, path).toBe(401)
      await next.body?.cancel()
    }
  })

  it('headers too large for Node get the error body too', async () => {
    const res = await fetch(`${server.url}/api/check_auth`, {
      headers: { 'X-Padding': 'x'.repeat(20_000) },
    })
    expect(res.status).toBe(431)
    expect(await res.json()).toMatchObject({ error: { code: 'too_large' } })
    const next = await fetch(`${server.url}/api/check_auth`)
    expect(next.status).toBe(401)
    await next.body?.cancel()
  })

  it('node:http keep-alive agent: one socket, the request after the 413 is answered', async () => {
    for (const chunked of [false, true]) {
      const refused = await send('POST', '/api/workspace/add', big(3 * 1024 * 1024), chunked)
      expect(refused.status).toBe(413)
      const next = await send('GET', '/api/check_auth')
      expect(next.status).toBe(401)
    }
  })

  it('node:http keep-alive agent: a body answered without being read leaves the socket usable', async () => {
    for (const [path, bytes] of [
      ['/api/project/add_bg', 1_200_000],
      ['/api/workspace/add', 900_000],
      ['/not-the-api', 500_000],
    ] as const) {
      const refused = await send('POST', path, 'x'.repeat(bytes), false, 'Bearer not-a-token')
      expect(refused.status, path).toBeGreaterThanOrEqual(400)
      const next = await send('GET', '/api/check_auth')
      expect(next.status, path).toBe(401)
    }
  })
})

/** One kept-alive socket for every request (maxSockets 1): a dead one fails the next request. */
let agent: Agent
beforeAll(() => {
  agent = new Agent({ keepAlive: true, maxSockets: 1 })
})
afterAll(() => agent.destroy())

function send(method: string, path: string, body?: string, chunked = false, auth?: string) {
  const url = new URL(server.url)
  return new Promise<{ status: number; close: boolean }>((resolve, reject) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' }
    if (auth) headers.Authorization = auth
    if (body !== undefined && !chunked) headers['Content-Length'] = String(Buffer.byteLength(body))
    const req = httpRequest(
      { hostname: url.hostname, port: url.port, path, method, headers, agent },
      (res) => {
        res.resume()
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, close: res.headers.connection === 'close' }),
        )
      },
    )
    req.on('error', reject)
    if (body !== undefined) req.write(body)
    req.end()
  })
}

describe('an upload is held to the limit of its kind as it is read', () => {
  /**
   * Declares a body far larger than an image may be, sends only its start — an image — and
   * waits for the answer: it must come without the rest (before, the server waited for every
   * byte up to the video limit before looking at the file).
   */
  function startOfUpload(head: Uint8Array, declared: number) {
    const url = new URL(server.url)
    const boundary = 'kindboundary'
    const preamble = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    )
    return new Promise<{ status: number; close: boolean; body: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          hostname: url.hostname,
          port: url.port,
          path: '/api/image/upload',
          method: 'POST',
          headers: {
            'Content-Type': `multipart/form-data; boundary=${boundary}`,
            'Content-Length': String(declared),
            Authorization: `Bearer ${token}`,
          },
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('end', () => {
            resolve({
              status: res.statusCode ?? 0,
              close: res.headers.connection === 'close',
              body: Buffer.concat(chunks).toString('utf8'),
            })
            req.destroy()
          })
        },
      )
      req.on('error', reject)
      req.write(preamble)
      req.write(head)
      req.write(new Uint8Array(70 * 1024))
      // The rest never comes.
    })
  }

  let token = ''
  beforeAll(async () => {
    const res = await fetch(`${server.url}/api/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Загрузка', email: 'kind@example.ru', password: 'password123' }),
    })
    token = ((await res.json()) as { access_token: string }).access_token
  })

  it('an image declared as 50 MB is refused at once with 413, the connection closed', async () => {
    const res = await startOfUpload(new Uint8Array(pngImage(4, 4)), 50 * 1024 * 1024)
    expect(res.status).toBe(413)
    expect(res.close).toBe(true)
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'too_large' } })
  })
})
