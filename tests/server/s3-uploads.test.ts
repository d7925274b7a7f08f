import { readFileSync } from 'node:fs'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiApp } from '../../server/app.ts'
import { S3UploadStorage, type S3Settings } from '../../server/uploads/s3-storage.ts'
import {
  json,
  pngImage,
  secondInstance,
  testServer,
  uploadForm,
  type TestServer,
  type TestUser,
} from './helpers.ts'

/**
 * Uploads in S3-compatible object storage (server/README.md,
 * "Several instances behind a load balancer"), against a local S3 server started in this process
 * (s3rver): what one instance receives, another serves, whole, in ranges and as resized variants; a
 * refused upload leaves nothing in the bucket or on the machine.
 */

const WEBM = readFileSync(new URL('../fixtures/clip.webm', import.meta.url))

let s3: S3rver
let s3Dir: string
let tempA: string
let settings: S3Settings
let s: TestServer
let other: ApiApp
let u: TestUser

beforeAll(async () => {
  s3Dir = await mkdtemp(join(tmpdir(), 'promo-s3-'))
  tempA = await mkdtemp(join(tmpdir(), 'promo-s3-a-'))
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: 'promo-uploads', configs: [] }],
  })
  const { port } = await s3.run()
  settings = {
    endpoint: `http://127.0.0.1:${port}`,
    bucket: 'promo-uploads',
    // s3rver's own documented key pair.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    region: 'us-east-1',
  }
  // One instance with the storage made by hand (its temporary folder watched), the other as the
  // server makes it from its settings (S3_* in the environment, server/config.ts).
  s = await testServer({ uploads: new S3UploadStorage(settings, tempA) })
  other = await secondInstance(s, { s3: settings })
  u = await s.signUp()
})

afterAll(async () => {
  await other?.close()
  await s?.close()
  await s3?.close()
  for (const dir of [s3Dir, tempA]) await rm(dir, { recursive: true, force: true })
})

/** The uploads in the bucket, as its listing says (ListObjectsV2). */
async function objectsInBucket(): Promise<string[]> {
  const files = await new S3UploadStorage(settings, tempA).list()
  return files.map((file) => file.name).sort()
}

function upload(bytes: Uint8Array, name: string, type: string) {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name)
  return s.call('POST', '/api/image/upload', { token: u.token, raw: form })
}

describe('uploads in S3-compatible storage', () => {
  it('an image sent to one instance is served by another, with its resized variants', async () => {
    const png = pngImage(1200, 600)
    const res = await upload(png, 'a.png', 'image/png')
    expect(res.status).toBe(200)
    const { url } = await json<{ url: string }>(res)
    const name = url.split('/').pop()!
    expect(await objectsInBucket()).toContain(name)

    const served = await other.request(url)
    expect(served.status).toBe(200)
    expect(served.headers.get('Content-Type')).toBe('image/png')
    const bytes = Buffer.from(await served.arrayBuffer())
    expect([bytes.length, bytes.equals(Buffer.from(png))]).toEqual([png.length, true])

    // A variant made by the other instance is kept in the bucket too, for every instance.
    const stem = name.replace(/\.png$/, '')
    const variant = await other.request(`/uploads/${stem}--w480.webp`)
    expect(variant.status).toBe(200)
    const meta = await sharp(Buffer.from(await variant.arrayBuffer())).metadata()
    expect(meta.width).toBe(480)
    expect(await objectsInBucket()).toContain(`${stem}--w480.webp`)
    // Nothing stays on the receiving machine's disk.
    expect(await readdir(tempA)).toEqual([])
  })

  it('a video is served by another instance in byte ranges', async () => {
    const res = await upload(WEBM, 'clip.webm', 'video/webm')
    expect(res.status).toBe(200)
    const { url } = await json<{ url: string }>(res)
    const whole = await other.request(url)
    expect(whole.status).toBe(200)
    expect(whole.headers.get('Accept-Ranges')).toBe('bytes')
    const bytes = Buffer.from(await whole.arrayBuffer())
    expect([bytes.length, bytes.equals(WEBM)]).toEqual([WEBM.length, true])

    const part = await other.request(url, { headers: { Range: 'bytes=100-199' } })
    expect(part.status).toBe(206)
    expect(part.headers.get('Content-Range')).toBe(`bytes 100-199/${WEBM.length}`)
    expect(Buffer.from(await part.arrayBuffer()).equals(WEBM.subarray(100, 200))).toBe(true)

    const tail = await other.request(url, { headers: { Range: `bytes=${WEBM.length - 10}-` } })
    expect(tail.status).toBe(206)
    expect(Buffer.from(await tail.arrayBuffer()).equals(WEBM.subarray(WEBM.length - 10))).toBe(true)
  })

  it('a refused upload leaves nothing in the bucket nor on the machine', async () => {
    const before = await objectsInBucket()
    const notAnImage = new TextEncoder().encode('<svg onload="alert(1)"></svg>'.repeat(10))
    const res = await s.call('POST', '/api/image/upload', {
      token: u.token,
      raw: uploadForm(notAnImage, {}, 'a.png'),
    })
    expect(res.status).toBe(415)
    expect(await objectsInBucket()).toEqual(before)
    expect(await readdir(tempA)).toEqual([])
  })

  it('an unknown upload is a 404 on every instance', async () => {
    expect((await other.request('/uploads/0123456789abcdef.png')).status).toBe(404)
    expect((await s.call('GET', '/uploads/0123456789abcdef.png')).status).toBe(404)
  })
})
