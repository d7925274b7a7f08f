import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Services } from '../../server/services/services.ts'
import { DiskUploadStorage, MemoryUploadStorage } from '../../server/uploads/storage.ts'
import { sweepUploads } from '../../server/uploads/sweep.ts'
import {
  json,
  pngImage,
  testServer,
  textBlock,
  uploadForm,
  type TestServer,
  type TestUser,
} from './helpers.ts'

/**
 * The per-user upload quota and the sweep of files nothing refers to (docs/API.md,
 * "Projects, backgrounds, uploads").
 */
const clock = Date.UTC(2026, 0, 1)
const storage = new MemoryUploadStorage(() => clock)
const png = pngImage(8, 6)
let s: TestServer
let services: Services
let u: TestUser

beforeAll(async () => {
  s = await testServer({ uploads: storage, uploadQuotaBytes: png.length * 4 })
  services = (await s.app.ready()).services
  u = await s.signUp()
})
afterAll(() => s.close())

const DAY = 24 * 3_600_000

async function upload(user: TestUser, bytes: Uint8Array = png) {
  return s.call('POST', '/api/image/upload', { token: user.token, raw: uploadForm(bytes) })
}

async function stored(): Promise<string[]> {
  return (await storage.list()).map((f) => f.name).sort()
}

describe('upload quota', () => {
  it('a user past their quota gets 413 in Russian; another user is not affected', async () => {
    const user = await s.signUp()
    for (let i = 0; i < 4; i++) expect((await upload(user)).status).toBe(200)
    const before = await stored()
    const refused = await upload(user)
    expect(refused.status).toBe(413)
    expect(await json(refused)).toEqual({
      error: {
        code: 'too_large',
        message:
          'Место для ваших файлов закончилось. Удалите ненужные изображения и видео из проектов и попробуйте снова',
      },
    })
    expect(await stored()).toEqual(before)
    expect((await upload(await s.signUp())).status).toBe(200)
  })
})

describe('a refused background stores no file', () => {
  it('a JPEG whose size cannot be read, without a size given', async () => {
    const project = await json<{ id: number }>(
      await s.call('POST', '/api/project/add', {
        token: u.token,
        body: { workspace_id: u.workspaceId, name: 'Фон' },
      }),
    )
    const before = await stored()
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1])
    const res = await s.call('POST', '/api/project/add_bg', {
      token: u.token,
      raw: uploadForm(jpeg, { project_id: String(project.id) }, 'a.jpg'),
    })
    expect(res.status).toBe(422)
    expect(await stored()).toEqual(before)
  })
})

describe('the sweep of unreferenced uploads', () => {
  it('deletes old files nothing refers to, and nothing else', async () => {
    const owner = await s.signUp()
    const name = (url: string) => url.replace('/uploads/', '')
    // A background, an image block's picture, a video block's file, a specialist's photo.
    const project = await json<{ id: number }>(
      await s.call('POST', '/api/project/add', {
        token: owner.token,
        body: { workspace_id: owner.workspaceId, name: 'Уборка' },
      }),
    )
    const bg = await json<{ id: number; image_url: string }>(
      await s.call('POST', '/api/project/add_bg', {
        token: owner.token,
        raw: uploadForm(png, { project_id: String(project.id) }),
      }),
    )
    const picture = (await json<{ url: string }>(await upload(owner))).url
    await s.call('POST', '/api/image/add', {
      token: owner.token,
      body: {
        ...textBlock(bg.id),
        width: 40,
        height: 30,
        scaleX: 1,
        scaleY: 1,
        image_url: picture,
      },
    })
    const photo = (await json<{ url: string }>(await upload(owner))).url
    await s.call('POST', '/api/specialist/add', {
      token: owner.token,
      body: { workspace_id: owner.workspaceId, name: 'Врач', photo_url: photo },
    })
    const orphan = (await json<{ url: string }>(await upload(owner))).url
    await storage.save('seed-landing-1.svg', new Uint8Array([60]))

    // Within the grace period nothing goes, referenced or not.
    expect(await sweepUploads(services.db, storage, { now: clock + DAY })).toEqual([])

    const removed = await sweepUploads(services.db, storage, { now: clock + 8 * DAY })
    expect(removed).toContain(name(orphan))
    const left = await stored()
    for (const kept of [bg.image_url, picture, photo]) expect(left).toContain(name(kept))
    expect(left).not.toContain(name(orphan))
    expect(left).toContain('seed-landing-1.svg')
    // The file is gone from /uploads too.
    expect((await s.call('GET', orphan)).status).toBe(404)

    // Deleting the background (and with it its blocks) lets their files go at the next sweep.
    await s.call('POST', '/api/project/delete_bg', { token: owner.token, body: { id: bg.id } })
    const next = await sweepUploads(services.db, storage, { now: clock + 8 * DAY })
    expect(next.sort()).toEqual([name(bg.image_url), name(picture)].sort())
    expect(await stored()).toContain(name(photo))
  })
})

describe('partial uploads left by a process that died mid-upload', () => {
  it('are swept once a day old; one still being written is left alone', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'promo-partials-'))
    try {
      const disk = new DiskUploadStorage(dir)
      const now = Date.now()
      // One left behind two days ago, one of an upload arriving now, one kept file.
      await writeFile(join(dir, '.upload-0123abcd.4242.tmp'), 'half')
      const twoDaysAgo = new Date(now - 2 * DAY)
      await utimes(join(dir, '.upload-0123abcd.4242.tmp'), twoDaysAgo, twoDaysAgo)
      const arriving = await disk.begin()
      await arriving.write(new Uint8Array([1, 2, 3]))
      await disk.save('0123456789abcdef.png', png)
      await sweepUploads(services.db, disk, { now })
      const left = await readdir(dir)
      expect(left).not.toContain('.upload-0123abcd.4242.tmp')
      expect(left.filter((name) => name.endsWith('.tmp'))).toHaveLength(1)
      expect(left).toContain('0123456789abcdef.png')
      await arriving.discard()
      expect(await readdir(dir)).toEqual(['0123456789abcdef.png'])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
