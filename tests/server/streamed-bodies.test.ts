import { request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../server/start.ts'
import { pngImage } from './helpers.ts'

/**
 * Bodies without a Content-Length — chunked, as a proxy or a streaming client sends them — over a
 * real socket (the in-process `app.request` never sees one). They used to answer 500.
 */
let server: RunningServer
const logs: Record<string, unknown>[] = []
const logWaiters: { match: (entry: Record<string, unknown>) => boolean; found: () => void }[] = []
beforeAll(async () => {
  server = await startServer({
    port: 0,
    dataDir: 'memory',
    log: (entry) => {
      logs.push(entry)
      for (const waiter of [...logWaiters]) {
        if (!waiter.match(entry)) continue
        logWaiters.splice(logWaiters.indexOf(waiter), 1)
        waiter.found()
      }
    },
  })
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

/** Resolves once the server has logged, from index `from` on, an entry that matches. */
function logged(from: number, match: (entry: Record<string, unknown>) => boolean): Promise<void> {
  if (logs.slice(from).some(match)) return Promise.resolve()
  return new Promise((found) => logWaiters.push({ match, found }))
}

/** Writes `text` to a new socket as it is; resolves with all the server sent once it closes. */
function sendRaw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => socket.write(text))
    let answer = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => (answer += chunk))
    socket.on('close', () => resolve(answer))
    socket.on('error', reject)
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

describe('bodies Node refuses itself', () => {
  const head = (path: string, extra: string) =>
    `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${extra}\r\n`

  it('broken chunk framing: answered 400 and logged as 400, not as a server fault', async () => {
    const path = '/api/location/add'
    const before = logs.length
    const answer = await sendRaw(
      `${head(path, 'Transfer-Encoding: chunked\r\n')}5\r\n{"nam\r\nnot-a-chunk-size\r\n`,
    )
    expect(answer).toMatch(/^HTTP\/1\.1 400 /)
    expect(answer).toContain('"code":"bad_request"')
    // The handler had begun reading the body when it broke: its request line is logged once it ends.
    await logged(before, (entry) => entry.path === path && 'status' in entry)
    const entries = logs.slice(before)
    expect(entries.filter((entry) => entry.path === path)).toEqual([
      expect.objectContaining({ method: 'POST', status: 400, level: 'info' }),
    ])
    expect(entries).toContainEqual(
      expect.objectContaining({ event: 'client_error', status: 400, level: 'info' }),
    )
    expect(entries.filter((entry) => entry.level === 'error')).toEqual([])
  })

  it('both a Content-Length and a Transfer-Encoding: answered 400 and logged as 400', async () => {
    const before = logs.length
    const answer = await sendRaw(
      `${head('/api/department/add', 'Content-Length: 5\r\nTransfer-Encoding: chunked\r\n')}5\r\n{"nam\r\n0\r\n\r\n`,
    )
    expect(answer).toMatch(/^HTTP\/1\.1 400 /)
    expect(logs.slice(before)).toEqual([
      expect.objectContaining({ event: 'client_error', status: 400, level: 'info' }),
    ])
  })
})
