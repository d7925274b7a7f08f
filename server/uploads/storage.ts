import { randomBytes } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable } from 'node:stream'

/**
 * Where uploaded files live. Local disk by default; several instances need a shared directory
 * (or another implementation of this interface, such as object storage).
 */
export interface UploadStorage {
  save(name: string, bytes: Uint8Array): Promise<void>
  /**
   * A new file to receive an upload into as it arrives (docs/API.md, "Projects, backgrounds,
   * uploads"): it is kept under a name only once it is complete and accepted, and a refused or
   * aborted upload is discarded, leaving nothing behind.
   */
  begin(): Promise<PartialUpload>
  read(name: string): Promise<Uint8Array | null>
  /** Size in bytes of a stored file, or null when there is none by that name. */
  size(name: string): Promise<number | null>
  /**
   * Bytes `start` to `end` (exclusive) of a stored file, streamed: a video is served in ranges
   * and never read whole into memory for one of them.
   */
  stream(name: string, start: number, end: number): ReadableStream<Uint8Array>
  /** Every stored upload with the time it was written (ms since the epoch). */
  list(): Promise<{ name: string; writtenAt: number }[]>
  /** Deletes a stored upload; nothing when there is none. */
  remove(name: string): Promise<void>
  /**
   * Deletes the partial uploads last written before `before` (ms since the epoch): what a process
   * killed mid-upload left behind. An upload still arriving is written to all the time.
   */
  removePartials?(before: number): Promise<number>
}

/** An upload being received: bytes appended in order, then kept under a name or discarded. */
export interface PartialUpload {
  /** Appends bytes; resolves once they are written (the caller waits before sending more). */
  write(chunk: Uint8Array): Promise<void>
  /** Up to `length` bytes from `start` of what has been written (fewer at the end). */
  read(start: number, length: number): Promise<Uint8Array>
  /** Keeps what was written under `name` (a name the server generated). */
  commit(name: string): Promise<void>
  /** Removes what was written; nothing after a commit or a discard. */
  discard(): Promise<void>
}

/** Names the server generates: random hex, an optional `seed-` prefix, one known extension. */
export const UPLOAD_NAME = /^(seed-)?[a-z0-9-]{8,80}\.(png|jpg|gif|webp|svg|mp4|webm)$/

/** Temporary files of uploads being received (`begin`) or saved (`save`). */
const PARTIAL_NAME = /^\..+\.\d+\.tmp$/

/** Content types the /uploads route serves, by the extension the server itself gave the file. */
export const UPLOAD_CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  mp4: 'video/mp4',
  webm: 'video/webm',
}

export class DiskUploadStorage implements UploadStorage {
  constructor(private readonly dir: string) {}

  async save(name: string, bytes: Uint8Array): Promise<void> {
    await mkdir(this.dir, { recursive: true })
    const partial = join(this.dir, `.${name}.${process.pid}.tmp`)
    await writeFile(partial, bytes)
    await rename(partial, join(this.dir, name))
  }

  /**
   * A temporary file in the upload directory, renamed into place on commit: a reader never sees
   * half a file, and the rename stays on one file system.
   */
  async begin(): Promise<PartialUpload> {
    await mkdir(this.dir, { recursive: true })
    const path = join(this.dir, `.upload-${randomBytes(8).toString('hex')}.${process.pid}.tmp`)
    const handle = await open(path, 'wx+')
    let isOpen = true
    let settled = false
    const close = async () => {
      if (!isOpen) return
      isOpen = false
      await handle.close()
    }
    return {
      write: async (chunk) => {
        let offset = 0
        while (offset < chunk.byteLength) {
          const { bytesWritten } = await handle.write(chunk, offset, chunk.byteLength - offset)
          offset += bytesWritten
        }
      },
      read: async (start, length) => {
        const buffer = Buffer.alloc(length)
        const { bytesRead } = await handle.read(buffer, 0, length, start)
        return buffer.subarray(0, bytesRead)
      },
      commit: async (name) => {
        if (!UPLOAD_NAME.test(name)) throw new Error(`not an upload name: ${name}`)
        await close()
        await rename(path, join(this.dir, name))
        settled = true
      },
      discard: async () => {
        if (settled) return
        settled = true
        await close().catch(() => undefined)
        await rm(path, { force: true })
      },
    }
  }

  async read(name: string): Promise<Uint8Array | null> {
    if (!UPLOAD_NAME.test(name)) return null
    try {
      return await readFile(join(this.dir, name))
    } catch {
      return null
    }
  }

  async size(name: string): Promise<number | null> {
    if (!UPLOAD_NAME.test(name)) return null
    try {
      const info = await stat(join(this.dir, name))
      return info.isFile() ? info.size : null
    } catch {
      return null
    }
  }

  stream(name: string, start: number, end: number): ReadableStream<Uint8Array> {
    if (!UPLOAD_NAME.test(name)) throw new Error(`not an upload name: ${name}`)
    if (end <= start) return emptyStream()
    const file = createReadStream(join(this.dir, name), { start, end: end - 1 })
    return Readable.toWeb(file) as unknown as ReadableStream<Uint8Array>
  }

  async list(): Promise<{ name: string; writtenAt: number }[]> {
    let names: string[]
    try {
      names = await readdir(this.dir)
    } catch {
      return []
    }
    const out: { name: string; writtenAt: number }[] = []
    for (const name of names) {
      if (!UPLOAD_NAME.test(name)) continue
      const info = await stat(join(this.dir, name)).catch(() => null)
      if (info?.isFile()) out.push({ name, writtenAt: info.mtimeMs })
    }
    return out
  }

  async remove(name: string): Promise<void> {
    if (!UPLOAD_NAME.test(name)) return
    await rm(join(this.dir, name), { force: true })
  }

  async removePartials(before: number): Promise<number> {
    let names: string[]
    try {
      names = await readdir(this.dir)
    } catch {
      return 0
    }
    let removed = 0
    for (const name of names) {
      if (!PARTIAL_NAME.test(name)) continue
      const info = await stat(join(this.dir, name)).catch(() => null)
      if (!info?.isFile() || info.mtimeMs >= before) continue
      await rm(join(this.dir, name), { force: true })
      removed += 1
    }
    return removed
  }
}

export class MemoryUploadStorage implements UploadStorage {
  private readonly files = new Map<string, Uint8Array>()
  private readonly written = new Map<string, number>()

  /** `now` stamps each file as it is written (tests move it by hand). */
  constructor(private readonly now: () => number = Date.now) {}

  async save(name: string, bytes: Uint8Array): Promise<void> {
    this.files.set(name, bytes)
    this.written.set(name, this.now())
  }

  /** Collects the bytes in memory: this storage is for tests and throwaway servers. */
  async begin(): Promise<PartialUpload> {
    const chunks: Uint8Array[] = []
    let size = 0
    const whole = () => Buffer.concat(chunks, size)
    return {
      write: async (chunk) => {
        chunks.push(new Uint8Array(chunk))
        size += chunk.byteLength
      },
      read: async (start, length) => whole().subarray(start, start + length),
      commit: async (name) => {
        await this.save(name, new Uint8Array(whole()))
      },
      discard: async () => {
        chunks.length = 0
        size = 0
      },
    }
  }

  async list(): Promise<{ name: string; writtenAt: number }[]> {
    return [...this.files.keys()].map((name) => ({ name, writtenAt: this.written.get(name)! }))
  }

  async remove(name: string): Promise<void> {
    this.files.delete(name)
    this.written.delete(name)
  }

  async read(name: string): Promise<Uint8Array | null> {
    return this.files.get(name) ?? null
  }

  async size(name: string): Promise<number | null> {
    return this.files.get(name)?.length ?? null
  }

  stream(name: string, start: number, end: number): ReadableStream<Uint8Array> {
    const bytes = this.files.get(name)?.slice(start, end) ?? new Uint8Array()
    return new ReadableStream({
      start(controller) {
        if (bytes.length > 0) controller.enqueue(bytes)
        controller.close()
      },
    })
  }
}

function emptyStream(): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.close() })
}
