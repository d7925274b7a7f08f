import { readFileSync } from 'node:fs'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DiskUploadStorage } from '../../server/uploads/storage.ts'
import { json, pngImage, testServer, type TestServer, type TestUser } from './helpers.ts'

// Real clips recorded by Chromium (tests/fixtures/README.md): an H.264 MP4 and a VP8 WebM.
const MP4 = readFileSync(new URL('../fixtures/clip.mp4', import.meta.url))
const WEBM = readFileSync(new URL('../fixtures/clip.webm', import.meta.url))

const IMAGE_MAX = 4 * 1024
const VIDEO_MAX = 48 * 1024

type ErrorBody = { error: { code: string; message: string } }

let s: TestServer
let u: TestUser
let uploadsDir: string

beforeAll(async () => {
  // Uploads on disk: ranges are read from the file, not from a copy in memory.
  uploadsDir = await mkdtemp(join(tmpdir(), 'promo-video-uploads-'))
  s = await testServer({
    uploadMaxBytes: IMAGE_MAX,
    videoUploadMaxBytes: VIDEO_MAX,
    uploads: new DiskUploadStorage(uploadsDir),
  })
  u = await s.signUp()
})
afterAll(async () => {
  await s.close()
  await rm(uploadsDir, { recursive: true, force: true })
})

function form(bytes: Uint8Array, name: string, type: string, fields: Record<string, string> = {}) {
  const data = new FormData()
  data.append('file', new Blob([new Uint8Array(bytes)], { type }), name)
  for (const [key, value] of Object.entries(fields)) data.append(key, value)
  return data
}

function upload(bytes: Uint8Array, name: string, type: string) {
  return s.call('POST', '/api/image/upload', { token: u.token, raw: form(bytes, name, type) })
}

/** An MP4 of `size` bytes: the fixture's boxes, then a `free` box filling the rest. */
function mp4OfSize(size: number): Buffer {
  const free = Buffer.alloc(size - MP4.length)
  free.writeUInt32BE(free.length, 0)
  free.write('free', 4, 'ascii')
  return Buffer.concat([MP4, free])
}

function expectRussian(text: string) {
  expect(text).toMatch(/[а-яё]/i)
}

describe('video uploads on image/upload', () => {
  it('accepts an MP4 and serves it back as video/mp4', async () => {
    const res = await upload(MP4, 'clip.mp4', 'video/mp4')
    expect(res.status).toBe(200)
    const { url } = await json<{ url: string }>(res)
    expect(url).toMatch(/^\/uploads\/[0-9a-f]{32}\.mp4$/)
    const served = await s.app.request(url)
    expect(served.status).toBe(200)
    expect(served.headers.get('Content-Type')).toBe('video/mp4')
    expect(served.headers.get('Accept-Ranges')).toBe('bytes')
    expect(served.headers.get('Content-Length')).toBe(String(MP4.length))
    expect(Buffer.from(await served.arrayBuffer()).equals(MP4)).toBe(true)
    expect(await readdir(uploadsDir)).toContain(url.slice('/uploads/'.length))
  })

  it('accepts a WebM and serves it back as video/webm', async () => {
    // The declared type and name do not matter: the bytes do.
    const res = await upload(WEBM, 'clip.bin', 'application/octet-stream')
    expect(res.status).toBe(200)
    const { url } = await json<{ url: string }>(res)
    expect(url).toMatch(/^\/uploads\/[0-9a-f]{32}\.webm$/)
    const served = await s.app.request(url)
    expect(served.headers.get('Content-Type')).toBe('video/webm')
    expect(Buffer.from(await served.arrayBuffer()).equals(WEBM)).toBe(true)
  })

  it('refuses text renamed .mp4, a HEIF picture and a Matroska file with a Russian 415', async () => {
    const text = Buffer.from('Это не видео, а просто текст с расширением .mp4\n'.repeat(4))
    const heif = Buffer.from(MP4)
    heif.write('heic', 8, 'ascii')
    heif.write('mif1heic', 16, 'ascii')
    const matroska = Buffer.from(WEBM)
    matroska.write('matr', WEBM.indexOf('webm'), 'ascii')
    for (const [bytes, label] of [
      [text, 'text'],
      [heif, 'heif'],
      [matroska, 'matroska'],
    ] as const) {
      const res = await upload(bytes, 'clip.mp4', 'video/mp4')
      expect(res.status, label).toBe(415)
      const body = await json<ErrorBody>(res)
      expect(body.error.code).toBe('unsupported_media_type')
      expectRussian(body.error.message)
      expect(body.error.message).toContain('MP4')
    }
  })

  it('keeps backgrounds to images: a video is no background', async () => {
    const project = await json<{ id: number }>(
      await s.call('POST', '/api/project/add', {
        token: u.token,
        body: { workspace_id: u.workspaceId, name: 'Видео-фон' },
      }),
    )
    const res = await s.call('POST', '/api/project/add_bg', {
      token: u.token,
      raw: form(WEBM, 'clip.webm', 'video/webm', { project_id: String(project.id) }),
    })
    expect(res.status).toBe(415)
    expectRussian((await json<ErrorBody>(res)).error.message)
  })

  it('gives videos their own larger limit, and keeps images to theirs', async () => {
    const video = mp4OfSize(VIDEO_MAX - 1024)
    expect(video.length).toBeGreaterThan(IMAGE_MAX)
    expect((await upload(video, 'big.mp4', 'video/mp4')).status).toBe(200)

    const tooBig = await upload(mp4OfSize(VIDEO_MAX + 1), 'huge.mp4', 'video/mp4')
    expect(tooBig.status).toBe(413)
    const body = await json<ErrorBody>(tooBig)
    expect(body.error.code).toBe('too_large')
    expectRussian(body.error.message)

    // An image the size of that accepted video is over the image limit.
    const image = Buffer.concat([pngImage(2, 2), Buffer.alloc(IMAGE_MAX)])
    expect((await upload(image, 'big.png', 'image/png')).status).toBe(413)
    expect((await upload(pngImage(2, 2), 'small.png', 'image/png')).status).toBe(200)
  })
})

describe('byte ranges of uploads', () => {
  let url = ''
  beforeAll(async () => {
    url = (await json<{ url: string }>(await upload(WEBM, 'clip.webm', 'video/webm'))).url
  })

  const get = (range?: string, method = 'GET') =>
    s.app.request(url, { method, headers: range ? { Range: range } : {} })

  it('answers a range with 206 and exactly those bytes', async () => {
    const res = await get('bytes=0-9')
    expect(res.status).toBe(206)
    expect(res.headers.get('Content-Range')).toBe(`bytes 0-9/${WEBM.length}`)
    expect(res.headers.get('Content-Length')).toBe('10')
    expect(res.headers.get('Content-Type')).toBe('video/webm')
    expect(Buffer.from(await res.arrayBuffer()).equals(WEBM.subarray(0, 10))).toBe(true)
  })

  it('answers open-ended and suffix ranges, and clamps an end past the file', async () => {
    const tail = await get('bytes=100-')
    expect(tail.status).toBe(206)
    expect(tail.headers.get('Content-Range')).toBe(`bytes 100-${WEBM.length - 1}/${WEBM.length}`)
    expect(Buffer.from(await tail.arrayBuffer()).equals(WEBM.subarray(100))).toBe(true)

    const suffix = await get('bytes=-5')
    expect(suffix.status).toBe(206)
    expect(Buffer.from(await suffix.arrayBuffer()).equals(WEBM.subarray(WEBM.length - 5))).toBe(
      true,
    )

    const past = await get(`bytes=10-${WEBM.length * 2}`)
    expect(past.status).toBe(206)
    expect(Buffer.from(await past.arrayBuffer()).equals(WEBM.subarray(10))).toBe(true)
  })

  it('says 416 for a range beyond the file, and sends it all for a range it does not serve', async () => {
    const beyond = await get(`bytes=${WEBM.length}-`)
    expect(beyond.status).toBe(416)
    expect(beyond.headers.get('Content-Range')).toBe(`bytes */${WEBM.length}`)

    for (const header of ['bytes=0-1, 5-6', 'lines=1-2', 'bytes=9-3']) {
      const whole = await get(header)
      expect(whole.status, header).toBe(200)
      expect(Buffer.from(await whole.arrayBuffer()).equals(WEBM), header).toBe(true)
    }
  })

  it('answers HEAD with the length and no body', async () => {
    const res = await get(undefined, 'HEAD')
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Length')).toBe(String(WEBM.length))
    expect((await res.arrayBuffer()).byteLength).toBe(0)
  })
})
