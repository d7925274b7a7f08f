import { randomBytes } from 'node:crypto'
import { request as httpRequest } from 'node:http'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../server/start.ts'
import { MemoryUploadStorage, type PartialUpload } from '../../server/uploads/storage.ts'
import { sweepUploads } from '../../server/uploads/sweep.ts'
import { pngImage } from './helpers.ts'

/**
 * The per-user upload quota under parallel uploads (docs/API.md, "Projects, backgrounds,
 * uploads"): each upload holds room in the quota in the database as it arrives, so uploads sent
 * at once — to two instances over one database — cannot together pass it, and the room of a
 * refused or aborted upload is given back. Over real sockets; on PostgreSQL when DATABASE_URL is
 * set (two pools), else on one PGlite shared by both instances.
 */
const MB = 1024 * 1024
const QUOTA = 3 * MB
const IMAGE_MAX = 1.5 * MB
const QUOTA_MESSAGE =
  'Место для ваших файлов закончилось. Удалите ненужные изображения и видео из проектов и попробуйте снова'

/** Shared by both instances, as a shared upload directory is; tells when bytes were written. */
class WatchedUploads extends MemoryUploadStorage {
  private waiting: (() => void) | null = null
  private threshold = Number.POSITIVE_INFINITY
  /** Resolves once an upload being received has had `bytes` written. */
  bytesWritten(bytes: number): Promise<void> {
    return new Promise((resolve) => {
      this.waiting = () => resolve()
      this.threshold = bytes
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
        if (total >= this.threshold && this.waiting) {
          const found = this.waiting
          this.waiting = null
          this.threshold = Number.POSITIVE_INFINITY
          found()
        }
      },
    }
  }
}

const storage = new WatchedUploads()
let first: RunningServer
let second: RunningServer
let schema: string | undefined
/** Requests answered, as the request log has them: the signal that one is over. */
const answered: { path: string; status: number }[] = []
let onAnswer: (() => void) | null = null

beforeAll(async () => {
  const databaseUrl = process.env.DATABASE_URL
  schema = databaseUrl ? `t_${randomBytes(6).toString('hex')}` : undefined
  const options = {
    port: 0,
    dataDir: 'memory',
    uploads: storage,
    uploadMaxBytes: IMAGE_MAX,
    uploadQuotaBytes: QUOTA,
    uploadSweepEveryMs: 0,
    log: (entry: Record<string, unknown>) => {
      if (typeof entry.status === 'number' && typeof entry.path === 'string') {
        answered.push({ path: entry.path, status: entry.status })
        onAnswer?.()
      }
    },
  }
  first = await startServer({ ...options, databaseUrl, schema })
  // A second instance: its own pool on the same schema, or (PGlite, one process) the same database.
  second = await startServer(
    databaseUrl ? { ...options, databaseUrl, schema } : { ...options, db: first.ready.services.db },
  )
}, 60_000)
afterAll(async () => {
  await second?.close()
  await first?.close()
  if (process.env.DATABASE_URL && schema) {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await client.connect()
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    await client.end()
  }
})

async function register(): Promise<{ token: string; id: number }> {
  const res = await fetch(`${first.url}/api/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: 'Квота',
      email: `quota-${randomBytes(4).toString('hex')}@example.ru`,
      password: 'password123',
    }),
  })
  const body = (await res.json()) as { access_token: string; user: { id: number } }
  return { token: body.access_token, id: body.user.id }
}

/** A PNG of exactly `size` bytes. */
const image = (size: number) => {
  const png = pngImage(4, 4)
  return Buffer.concat([png, Buffer.alloc(size - png.length, 1)])
}

function form(file: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(
      '--b0undary\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n' +
        'Content-Type: image/png\r\n\r\n',
    ),
    file,
    Buffer.from('\r\n--b0undary--\r\n'),
  ])
}

type Reply = { status: number; body: string }

/** One upload on a connection of its own, in 64 KB pieces, with a Content-Length or chunked. */
function upload(
  server: RunningServer,
  token: string,
  file: Buffer,
  chunked = false,
): Promise<Reply> {
  const body = form(file)
  const url = new URL(server.url)
  const headers: Record<string, string> = {
    'Content-Type': 'multipart/form-data; boundary=b0undary',
    Authorization: `Bearer ${token}`,
  }
  if (!chunked) headers['Content-Length'] = String(body.byteLength)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        hostname: url.hostname,
        port: url.port,
        path: '/api/image/upload',
        method: 'POST',
        headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        )
      },
    )
    req.on('error', reject)
    for (let i = 0; i < body.byteLength; i += 64 * 1024) req.write(body.subarray(i, i + 64 * 1024))
    req.end()
  })
}

/** What the database counts as the user's: stored uploads, and room held by uploads arriving. */
async function counted(userId: number) {
  const { rows } = await first.ready.services.db.query<{ name: string; bytes: string | number }>(
    'SELECT name, bytes FROM uploads WHERE user_id = $1',
    [userId],
  )
  const held = rows.filter((row) => row.name.startsWith('.'))
  const kept = rows.filter((row) => !row.name.startsWith('.'))
  return {
    held: held.length,
    kept: kept.length,
    keptBytes: kept.reduce((sum, row) => sum + Number(row.bytes), 0),
  }
}

/** The stored files of the given upload URLs, with their sizes. */
async function storedBytes(replies: Reply[]): Promise<number[]> {
  const sizes: number[] = []
  for (const reply of replies) {
    const name = (JSON.parse(reply.body) as { url: string }).url.replace('/uploads/', '')
    sizes.push((await storage.size(name)) ?? -1)
  }
  return sizes
}

describe('the upload quota under parallel uploads', () => {
  it('40 parallel 0.5 MB uploads to two instances against a 3 MB quota store at most 6, never past it', async () => {
    const user = await register()
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        upload(i % 2 ? second : first, user.token, image(MB / 2), i % 4 >= 2),
      ),
    )
    const kept = replies.filter((reply) => reply.status === 200)
    const refused = replies.filter((reply) => reply.status !== 200)
    for (const reply of refused) {
      expect(reply.status, reply.body).toBe(413)
      expect(JSON.parse(reply.body)).toEqual({
        error: { code: 'too_large', message: QUOTA_MESSAGE },
      })
    }
    expect(kept.length).toBeGreaterThanOrEqual(1)
    expect(kept.length).toBeLessThanOrEqual(6)
    const sizes = await storedBytes(kept)
    expect(sizes.every((size) => size === MB / 2)).toBe(true)
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThanOrEqual(QUOTA)
    // Every upload has been answered: none holds room any longer; the kept ones count as files.
    expect(await counted(user.id)).toEqual({
      held: 0,
      kept: kept.length,
      keptBytes: kept.length * (MB / 2),
    })
  })

  it('an aborted and a refused upload give back the room they held: an upload that fits is kept afterwards', async () => {
    const user = await register()
    for (const server of [first, second]) {
      expect((await upload(server, user.token, image(MB))).status).toBe(200)
    }
    // 2 MB kept, 1 MB left. An upload of 1.4 MB holds that 1 MB as it arrives; then its client
    // goes away.
    const body = form(image(1400 * 1024))
    const over = new Promise<void>((resolve) => {
      onAnswer = () => {
        if (answered.at(-1)?.path === '/api/image/upload') resolve()
      }
    })
    const written = storage.bytesWritten(256 * 1024)
    const url = new URL(first.url)
    const req = httpRequest({
      hostname: url.hostname,
      port: url.port,
      path: '/api/image/upload',
      method: 'POST',
      agent: false,
      headers: {
        'Content-Type': 'multipart/form-data; boundary=b0undary',
        'Content-Length': String(body.byteLength),
        Authorization: `Bearer ${user.token}`,
      },
    })
    req.on('error', () => undefined)
    req.write(body.subarray(0, 512 * 1024))
    await written
    expect((await counted(user.id)).held).toBe(1)
    req.destroy()
    await over
    onAnswer = null
    expect(await counted(user.id)).toMatchObject({ held: 0, kept: 2 })

    // Refused as it passes what is left (chunked: its room grows in steps), and gives it back.
    const refused = await upload(second, user.token, image(1400 * 1024), true)
    expect(refused.status).toBe(413)
    expect(JSON.parse(refused.body)).toMatchObject({ error: { message: QUOTA_MESSAGE } })
    expect(await counted(user.id)).toMatchObject({ held: 0, kept: 2 })

    // Had either kept its room, this would not fit.
    const fits = await upload(first, user.token, image(MB))
    expect(fits.status, fits.body).toBe(200)
    expect(await counted(user.id)).toEqual({ held: 0, kept: 3, keptBytes: QUOTA })
  })

  it('room held by a process that died stops counting once it is not renewed, and the sweep deletes it', async () => {
    const user = await register()
    const db = first.ready.services.db
    const hold = (name: string, age: string) =>
      db.query(
        `INSERT INTO uploads (name, user_id, bytes, created_at)
         VALUES ($1, $2, $3, now() - $4::interval)`,
        [name, user.id, QUOTA, age],
      )
    // The whole quota held by an upload whose process died 6 minutes ago: it no longer counts.
    await hold('.reserved-dead', '6 minutes')
    expect((await upload(second, user.token, image(MB / 2))).status).toBe(200)
    // Held a minute ago by an upload still arriving elsewhere: it counts.
    await hold('.reserved-alive', '1 minute')
    const refused = await upload(first, user.token, image(MB / 2))
    expect(refused.status).toBe(413)
    await sweepUploads(db, storage)
    const { rows } = await db.query<{ name: string }>(
      "SELECT name FROM uploads WHERE user_id = $1 AND name LIKE '.%' ORDER BY name",
      [user.id],
    )
    expect(rows.map((row) => row.name)).toEqual(['.reserved-alive'])
  })
})
