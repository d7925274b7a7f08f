import { readFileSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { Agent, request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../server/start.ts'
import { DiskUploadStorage, type PartialUpload } from '../../server/uploads/storage.ts'
import { json, pngImage, testServer, uploadForm } from './helpers.ts'

/**
 * Uploads are received as they stream (docs/API.md, "Projects, backgrounds, uploads"): written to
 * a temporary file in the upload directory and renamed into place only once complete and
 * accepted, held to the limit of their kind and to the quota on the way, and fingerprinted for
 * Idempotency-Key from the same bytes. Over a real socket, with the uploads on disk.
 */
const MP4 = readFileSync(new URL('../fixtures/clip.mp4', import.meta.url))

const IMAGE_MAX = 64 * 1024
const VIDEO_MAX = 1024 * 1024
const QUOTA = 1536 * 1024

/** An MP4 of `size` bytes: the fixture's boxes, then a `free` box filling the rest. */
function mp4OfSize(size: number): Buffer {
  const free = Buffer.alloc(size - MP4.length, 7)
  free.writeUInt32BE(free.length, 0)
  free.write('free', 4, 'ascii')
  return Buffer.concat([MP4, free])
}

/** Upload storage on disk that tells when a partial upload has had bytes written to it. */
class WatchedUploads extends DiskUploadStorage {
  private waiting: ((bytes: number) => void) | null = null
  /** The most bytes written to any one partial upload since the last `reset`. */
  largest = 0
  /** Resolves once an upload being received has `bytes` written. */
  written(bytes: number): Promise<void> {
    return new Promise((resolve) => {
      this.waiting = (total) => {
        if (total < bytes) return
        this.waiting = null
        resolve()
      }
    })
  }
  override async begin(): Promise<PartialUpload> {
    const partial = await super.begin()
    let total = 0
    return {
      ...partial,
      write: async (chunk) => {
        await partial.write(chunk)
        total += chunk.byteLength
        this.largest = Math.max(this.largest, total)
        this.waiting?.(total)
      },
    }
  }
}

let dir: string
let storage: WatchedUploads
let server: RunningServer
/** Answered requests by path, as the request log has them: a signal that a request is over. */
const answered: { path: string; status: number }[] = []
let onAnswer: (() => void) | null = null
let agent: Agent
let token = ''

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'promo-streamed-'))
  storage = new WatchedUploads(dir)
  server = await startServer({
    port: 0,
    dataDir: 'memory',
    uploads: storage,
    uploadMaxBytes: IMAGE_MAX,
    videoUploadMaxBytes: VIDEO_MAX,
    uploadQuotaBytes: QUOTA,
    log: (entry) => {
      if (typeof entry.status === 'number' && typeof entry.path === 'string') {
        answered.push({ path: entry.path, status: entry.status })
        onAnswer?.()
      }
    },
  })
  agent = new Agent({ keepAlive: true, maxSockets: 1 })
}, 60_000)
afterAll(async () => {
  agent.destroy()
  await server.close()
  await rm(dir, { recursive: true, force: true })
})
beforeEach(async () => {
  // Each test its own user, so that the quota starts afresh.
  const res = await fetch(`${server.url}/api/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: 'Загрузки',
      email: `streamed-${Math.random().toString(36).slice(2)}@example.ru`,
      password: 'password123',
    }),
  })
  token = ((await res.json()) as { access_token: string }).access_token
})

type Part = { name: string; value: string | Uint8Array; filename?: string }

function multipart(boundary: string, parts: Part[]): Buffer {
  const chunks: Buffer[] = []
  for (const part of parts) {
    const filename = part.filename ? `; filename="${part.filename}"` : ''
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}\r\n` +
          (part.filename ? 'Content-Type: application/octet-stream\r\n' : '') +
          '\r\n',
      ),
      Buffer.from(part.value),
      Buffer.from('\r\n'),
    )
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return Buffer.concat(chunks)
}

type Reply = { status: number; body: string; close: boolean; reusedSocket: boolean }

/**
 * Sends a body in 64 KB pieces on the shared kept-alive socket: with a Content-Length, or chunked
 * (none) when `chunked`.
 */
function send(
  path: string,
  body: Buffer,
  options: { chunked?: boolean; headers?: Record<string, string>; boundary?: string } = {},
): Promise<Reply> {
  const url = new URL(server.url)
  const headers: Record<string, string> = {
    'Content-Type': `multipart/form-data; boundary=${options.boundary ?? 'b0undary'}`,
    Authorization: `Bearer ${token}`,
    ...options.headers,
  }
  if (!options.chunked) headers['Content-Length'] = String(body.byteLength)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname: url.hostname, port: url.port, path, method: 'POST', headers, agent },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            close: res.headers.connection === 'close',
            reusedSocket: req.reusedSocket,
          }),
        )
      },
    )
    req.on('error', reject)
    for (let i = 0; i < body.byteLength; i += 64 * 1024) req.write(body.subarray(i, i + 64 * 1024))
    req.end()
  })
}

const checkAuth = () =>
  new Promise<{ status: number; reusedSocket: boolean }>((resolve, reject) => {
    const url = new URL(server.url)
    const req = httpRequest(
      { hostname: url.hostname, port: url.port, path: '/api/check_auth', agent },
      (res) => {
        res.resume()
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, reusedSocket: req.reusedSocket }),
        )
      },
    )
    req.on('error', reject)
    req.end()
  })

/** Every file in the upload directory, kept or temporary. */
const files = async () => (await readdir(dir)).sort()
const errorCode = (reply: Reply) =>
  (JSON.parse(reply.body) as { error: { code: string } }).error.code

describe('uploads received as they stream', () => {
  it('a chunked upload without a Content-Length is stored whole, byte for byte', async () => {
    const video = mp4OfSize(VIDEO_MAX - 4096)
    const reply = await send(
      '/api/image/upload',
      multipart('b0undary', [{ name: 'file', value: video, filename: 'clip.mp4' }]),
      { chunked: true },
    )
    expect(reply.status, reply.body).toBe(200)
    const { url } = JSON.parse(reply.body) as { url: string }
    const name = url.replace('/uploads/', '')
    expect(await files()).toContain(name)
    expect((await readFile(join(dir, name))).equals(video)).toBe(true)
    expect((await files()).filter((file) => file.endsWith('.tmp'))).toEqual([])
  })

  it('an image over its limit is refused with 413, leaves no file, and the connection serves the next request', async () => {
    const before = await files()
    const image = Buffer.concat([pngImage(4, 4), Buffer.alloc(IMAGE_MAX * 4)])
    for (const chunked of [false, true]) {
      storage.largest = 0
      const reply = await send(
        '/api/image/upload',
        multipart('b0undary', [{ name: 'file', value: image, filename: 'big.png' }]),
        { chunked },
      )
      expect(reply.status).toBe(413)
      expect(errorCode(reply)).toBe('too_large')
      expect(reply.close).toBe(false)
      // Refused as it passed the image limit: never written on to the end.
      expect(storage.largest).toBeLessThanOrEqual(IMAGE_MAX)
      const next = await checkAuth()
      expect(next.status).toBe(401)
      expect(next.reusedSocket).toBe(true)
    }
    expect(await files()).toEqual(before)
  })

  it('an upload the client gives up on halfway leaves no file, not even a temporary one', async () => {
    const before = await files()
    const video = mp4OfSize(VIDEO_MAX - 4096)
    const body = multipart('b0undary', [{ name: 'file', value: video, filename: 'clip.mp4' }])
    const over = new Promise<void>((resolve) => {
      onAnswer = () => {
        if (answered.at(-1)?.path === '/api/image/upload') resolve()
      }
    })
    const written = storage.written(256 * 1024)
    const url = new URL(server.url)
    const req = httpRequest({
      hostname: url.hostname,
      port: url.port,
      path: '/api/image/upload',
      method: 'POST',
      agent: false,
      headers: {
        'Content-Type': 'multipart/form-data; boundary=b0undary',
        'Content-Length': String(body.byteLength),
        Authorization: `Bearer ${token}`,
      },
    })
    req.on('error', () => undefined)
    req.write(body.subarray(0, 512 * 1024))
    // The server has begun writing the file; then the client is gone.
    await written
    req.destroy()
    await over
    onAnswer = null
    expect(await files()).toEqual(before)
  })

  it('a body that ends inside the file part is a 400, keeps no file, and the server goes on', async () => {
    const before = await files()
    const whole = (filename: string) =>
      multipart('b0undary', [{ name: 'file', value: mp4OfSize(VIDEO_MAX - 4096), filename }])
    for (const [path, cut] of [
      ['/api/image/upload', 200 * 1024],
      ['/api/image/upload', 100],
      ['/api/image/upload', 2000],
    ] as const) {
      const body = whole('cut.mp4')
      // A well-framed request whose multipart body simply stops mid-file: no closing boundary.
      const reply = await send(path, body.subarray(0, cut))
      expect(reply.status, `${path} cut at ${cut}: ${reply.body}`).toBe(400)
      expect(errorCode(reply)).toBe('validation_error')
    }
    const project = await fetch(`${server.url}/api/project/add`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ workspace_id: await workspaceId(), name: 'Обрыв', type: 1 }),
    })
    const { id } = (await project.json()) as { id: number }
    const jpeg = multipart('b0undary', [
      { name: 'project_id', value: String(id) },
      {
        name: 'file',
        value: Buffer.concat([pngImage(40, 40), Buffer.alloc(30_000)]),
        filename: 'a.png',
      },
    ])
    for (const chunked of [false, true]) {
      const reply = await send('/api/project/add_bg', jpeg.subarray(0, jpeg.byteLength - 200), {
        chunked,
      })
      expect(reply.status, reply.body).toBe(400)
    }
    // The process is alive and answers the next request; nothing was left behind.
    expect((await checkAuth()).status).toBe(401)
    expect(await files()).toEqual(before)
  })

  it('a file of neither kind is refused with 415 from its first bytes and leaves no file', async () => {
    const before = await files()
    const junk = Buffer.alloc(VIDEO_MAX - 4096, 0x41)
    const reply = await send(
      '/api/image/upload',
      multipart('b0undary', [{ name: 'file', value: junk, filename: 'junk.mp4' }]),
    )
    expect(reply.status).toBe(415)
    expect(await files()).toEqual(before)
  })

  it('the quota is enforced while the upload streams; a refused one leaves no file', async () => {
    const video = () =>
      multipart('b0undary', [
        { name: 'file', value: mp4OfSize(VIDEO_MAX - 4096), filename: 'a.mp4' },
      ])
    expect((await send('/api/image/upload', video(), { chunked: true })).status).toBe(200)
    const before = await files()
    const refused = await send('/api/image/upload', video(), { chunked: true })
    expect(refused.status).toBe(413)
    expect(JSON.parse(refused.body)).toMatchObject({
      error: { code: 'too_large', message: expect.stringMatching(/Место для ваших файлов/) },
    })
    expect(await files()).toEqual(before)
  })
})

describe('Idempotency-Key on a streamed upload', () => {
  it('a repeat with the same bytes under a new boundary gets the stored answer and keeps no second file', async () => {
    const video = mp4OfSize(VIDEO_MAX - 4096)
    const headers = { 'Idempotency-Key': 'upload-replay' }
    const first = await send(
      '/api/image/upload',
      multipart('first', [{ name: 'file', value: video, filename: 'a.mp4' }]),
      { headers, boundary: 'first' },
    )
    expect(first.status).toBe(200)
    const after = await files()
    // The quota is spent by the first: the repeat is answered from the stored answer all the same.
    const again = await send(
      '/api/image/upload',
      multipart('second', [{ name: 'file', value: video, filename: 'b.mp4' }]),
      { headers, boundary: 'second', chunked: true },
    )
    expect(again.status).toBe(200)
    expect(again.body).toBe(first.body)
    expect(await files()).toEqual(after)
  })

  it('another file under the same key is 422 idempotency_mismatch and keeps nothing', async () => {
    const headers = { 'Idempotency-Key': 'upload-mismatch' }
    const first = await send(
      '/api/image/upload',
      multipart('b0undary', [{ name: 'file', value: pngImage(4, 4), filename: 'a.png' }]),
      { headers },
    )
    expect(first.status).toBe(200)
    const after = await files()
    const other = await send(
      '/api/image/upload',
      multipart('b0undary', [{ name: 'file', value: pngImage(5, 4), filename: 'a.png' }]),
      { headers },
    )
    expect(other.status).toBe(422)
    expect(errorCode(other)).toBe('idempotency_mismatch')
    expect(await files()).toEqual(after)
  })

  it('fields are compared whatever their order around the file', async () => {
    const project = await fetch(`${server.url}/api/project/add`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ workspace_id: await workspaceId(), name: 'Фон' }),
    })
    const { id } = (await project.json()) as { id: number }
    const image = pngImage(6, 3)
    const form = (alt: string, altFirst: boolean) => {
      const file: Part = { name: 'file', value: image, filename: 'a.png' }
      // `alt` sorts before `file`: after the file, the fingerprint is computed again from disk.
      const rest: Part[] = [
        { name: 'project_id', value: String(id) },
        { name: 'alt', value: alt },
      ]
      return multipart('b0undary', altFirst ? [...rest, file] : [file, ...rest])
    }
    const headers = { 'Idempotency-Key': 'upload-fields' }
    const first = await send('/api/project/add_bg', form('фон', false), { headers })
    expect(first.status, first.body).toBe(200)
    expect(JSON.parse(first.body)).toMatchObject({ width: 6, height: 3 })
    const again = await send('/api/project/add_bg', form('фон', true), { headers })
    expect(again.body).toBe(first.body)
    const other = await send('/api/project/add_bg', form('другой', false), { headers })
    expect(other.status).toBe(422)
  })
})

describe('a JPEG whose size comes after much metadata', () => {
  it('is measured from the received file, not from the bytes kept in memory', async () => {
    // Three 60 KB APP segments before the frame header: 300 × 600 pixels.
    const app = Buffer.alloc(60_000, 0x20)
    const segment = Buffer.concat([Buffer.from([0xff, 0xe1]), u16(app.length + 2), app])
    const frame = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0x02, 0x58, 0x01, 0x2c, 0x03])
    const jpeg = Buffer.concat([
      Buffer.from([0xff, 0xd8]),
      segment,
      segment,
      segment,
      frame,
      Buffer.alloc(15),
      Buffer.from([0xff, 0xd9]),
    ])
    const s = await testServer()
    try {
      const u = await s.signUp()
      const project = await json<{ id: number }>(
        await s.call('POST', '/api/project/add', {
          token: u.token,
          body: { workspace_id: u.workspaceId, name: 'JPEG' },
        }),
      )
      const res = await s.call('POST', '/api/project/add_bg', {
        token: u.token,
        raw: uploadForm(jpeg, { project_id: String(project.id) }, 'a.jpg'),
      })
      expect(res.status).toBe(200)
      expect(await json(res)).toMatchObject({ width: 300, height: 600 })
    } finally {
      await s.close()
    }
  })
})

function u16(value: number) {
  const out = Buffer.alloc(2)
  out.writeUInt16BE(value)
  return out
}

async function workspaceId(): Promise<number> {
  const res = await fetch(`${server.url}/api/workspace/list`, {
    headers: { Authorization: `Bearer ${token}` },
  })
  return ((await res.json()) as { id: number }[])[0]!.id
}
