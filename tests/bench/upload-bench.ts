import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { pathToFileURL } from 'node:url'
import { isSmoke, type BenchOptions } from './smoke.ts'

/**
 * What parallel large uploads cost the reference server in memory (docs/API.md, "Projects,
 * backgrounds, uploads"): the server runs in a process of its own (tests/bench/upload-server.ts)
 * with its uploads on disk; four 95 MB uploads of junk (chunked, without a Content-Length, so the
 * server cannot refuse them from their length), then four 95 MB MP4 videos (with one), are sent
 * to image/upload at once, each in 64 KB writes. The figure is the growth of
 * the server's peak resident memory (VmHWM in /proc, Linux) over its resident memory after a
 * warm-up upload: an upload held in memory grows it by several times the file's size, a streamed
 * one by a few MB.
 *
 * `BENCH_SMOKE=1` (or `{ smoke: true }`): uploads of 12 MB instead of 95 (seconds).
 *
 *   npx tsx tests/bench/upload-bench.ts
 */

const MB = 1024 * 1024
const PARALLEL = 4
const MP4 = readFileSync(new URL('../fixtures/clip.mp4', import.meta.url))

/** `VmRSS` or `VmHWM` of a process, in MB. */
function memoryOf(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`)
  return Number(match[1]) / 1024
}

/** One multipart body around `file`, sent as a whole buffer shared by the parallel requests. */
function multipart(file: Buffer): { body: Buffer; type: string } {
  const boundary = 'benchboundary'
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  )
  return {
    body: Buffer.concat([head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  }
}

/** An MP4 of `size` bytes: the fixture's boxes, then a `free` box filling the rest. */
function mp4OfSize(size: number): Buffer {
  const free = Buffer.alloc(size - MP4.length, 7)
  free.writeUInt32BE(free.length, 0)
  free.write('free', 4, 'ascii')
  return Buffer.concat([MP4, free])
}

/** Sends one upload; resolves with its status (0 when the server closed before answering). */
function upload(
  url: URL,
  token: string,
  form: { body: Buffer; type: string },
  chunked = false,
): Promise<number> {
  return new Promise((resolve) => {
    let answered = 0
    const req = http.request(
      {
        hostname: url.hostname,
        port: url.port,
        path: '/api/image/upload',
        method: 'POST',
        agent: false,
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': form.type,
          ...(chunked ? {} : { 'Content-Length': String(form.body.byteLength) }),
        },
      },
      (res) => {
        answered = res.statusCode ?? 0
        res.resume()
        res.on('end', () => resolve(answered))
      },
    )
    // A refused upload is answered before it is all sent, and its socket closed.
    req.on('error', () => resolve(answered))
    let offset = 0
    const step = 64 * 1024
    const pump = () => {
      while (offset < form.body.byteLength && !answered && !req.destroyed) {
        const chunk = form.body.subarray(offset, offset + step)
        offset += chunk.byteLength
        if (!req.write(chunk)) {
          req.once('drain', pump)
          return
        }
      }
      if (offset >= form.body.byteLength) req.end()
    }
    pump()
  })
}

export async function runUploadBench(
  options: BenchOptions & { print?: boolean } = {},
): Promise<Record<string, number>> {
  const uploadBytes = (isSmoke(options) ? 12 : 95) * MB
  const dir = await mkdtemp(join(tmpdir(), 'promo-upload-bench-'))
  const script = new URL('./upload-server.ts', import.meta.url).pathname
  const child = spawn(process.execPath, ['--import', 'tsx', script, dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  try {
    const line = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout })
      lines.once('line', resolve)
      child.once('exit', (code) => reject(new Error(`upload server exited (${code})`)))
    })
    const url = new URL((JSON.parse(line) as { url: string }).url)
    const register = await fetch(new URL('/api/register', url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Bench', email: 'bench@example.ru', password: 'password123' }),
    })
    const { access_token: token } = (await register.json()) as { access_token: string }
    const pid = child.pid!

    // Warm-up: one small video through the whole path, then the resident memory to grow from.
    const warm = await upload(url, token, multipart(mp4OfSize(MB)))
    if (warm !== 200) throw new Error(`warm-up upload answered ${warm}`)
    const baseline = memoryOf(pid, 'VmRSS')

    const junk = multipart(Buffer.alloc(uploadBytes, 0x41))
    const junkStatuses = await Promise.all(
      Array.from({ length: PARALLEL }, () => upload(url, token, junk, true)),
    )
    const afterJunk = memoryOf(pid, 'VmHWM') - baseline

    const video = multipart(mp4OfSize(uploadBytes))
    const started = performance.now()
    const videoStatuses = await Promise.all(
      Array.from({ length: PARALLEL }, () => upload(url, token, video)),
    )
    const seconds = (performance.now() - started) / 1000
    const afterVideo = memoryOf(pid, 'VmHWM') - baseline
    const stored = (await readdir(dir)).filter((name) => name.endsWith('.mp4')).length
    // The junk is refused and every video stored, or the figures measure something else.
    if (junkStatuses.includes(200) || videoStatuses.some((status) => status !== 200))
      throw new Error(
        `junk answered ${junkStatuses.join(', ')}; videos ${videoStatuses.join(', ')}`,
      )
    if (stored - 1 !== PARALLEL) throw new Error(`${stored - 1} of ${PARALLEL} videos stored`)

    const figures = {
      upload_rss_growth_mb_4x95mb: Math.round(Math.max(afterJunk, afterVideo) * 10) / 10,
      upload_rss_growth_mb_4x95mb_junk: Math.round(afterJunk * 10) / 10,
      upload_rss_growth_mb_4x95mb_video: Math.round(afterVideo * 10) / 10,
      upload_mb_per_s_4x95mb_video: Math.round(((PARALLEL * uploadBytes) / MB / seconds) * 10) / 10,
    }
    if (options.print ?? true) {
      console.log(
        `baseline RSS ${baseline.toFixed(1)} MB; junk answered ${junkStatuses.join(', ')}; ` +
          `videos answered ${videoStatuses.join(', ')}, ${stored - 1} of ${PARALLEL} stored`,
      )
      for (const [key, value] of Object.entries(figures)) console.log(`${key}: ${value}`)
    }
    return figures
  } finally {
    child.kill()
    await rm(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runUploadBench().catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
}
