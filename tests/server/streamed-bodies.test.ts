import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../server/start.ts'
import { pngImage } from './helpers.ts'

/**
 * Bodies without a Content-Length — chunked, as a proxy or a streaming client sends them — over a
 * real socket (the in-process `app.request` never sees one). They used to answer 500.
 */
let server: RunningServer
beforeAll(async () => {
  server = await startServer({ port: 0, dataDir: 'memory' })
}, 60_000)
afterAll(async () => {
  await server.close()
})

/** Sends `parts` one chunk each (Transfer-Encoding: chunked); resolves with status and body. */
function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  parts: (string | Uint8Array)[],
): Promise<{ status: number; body: string }> {
  const url = new URL(path, server.url)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname: url.hostname, port: url.port, path: url.pathname, method, headers },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        )
      },
    )
    req.on('error', reject)
    for (const part of parts) req.write(part)
    req.end()
  })
}

async function register(): Promise<string> {
  const body = JSON.stringify({
    name: 'Поток',
    email: `stream-${Math.random().toString(36).slice(2)}@example.ru`,
    password: 'password123',
  })
  const res = await send('POST', '/api/register', { 'Content-Type': 'application/json' }, [
    body.slice(0, 10),
    body.slice(10),
  ])
  expect(res.status).toBe(200)
  return (JSON.parse(res.body) as { access_token: string }).access_token
}

describe('bodies without a Content-Length', () => {
  it('a chunked JSON body is read whole', async () => {
    const token = await register()
    const res = await send(
      'POST',
      '/api/workspace/add',
      { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      ['{"name":', '"Потоковое пространство"}'],
    )
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body)).toMatchObject({ name: 'Потоковое пространство' })
  })

  it('a chunked multipart upload is stored', async () => {
    const token = await register()
    const boundary = 'streamboundary'
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`
    const res = await send(
      'POST',
      '/api/image/upload',
      {
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        Authorization: `Bearer ${token}`,
      },
      [head, new Uint8Array(pngImage(4, 4)), `\r\n--${boundary}--\r\n`],
    )
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body)).toHaveProperty('url')
  })

  it('an empty chunked POST and an OPTIONS get an answer, never a 5xx', async () => {
    const logout = await send('POST', '/api/logout', { 'Transfer-Encoding': 'chunked' }, [])
    expect(logout.status).toBeLessThan(500)
    const options = await send('OPTIONS', '/api/workspace/list', {}, [])
    expect(options.status).toBeLessThan(500)
  })

  it('a chunked body over the limit is refused with 413', async () => {
    const token = await register()
    const big = `{"name":"${'я'.repeat(600_000)}"}`
    const res = await send(
      'POST',
      '/api/workspace/add',
      { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      [big.slice(0, 500_000), big.slice(500_000)],
    )
    expect(res.status).toBe(413)
  })
})
