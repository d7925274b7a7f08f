import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * Where uploaded files live. Local disk by default; several instances need a shared directory
 * (or another implementation of this interface, such as object storage).
 */
export interface UploadStorage {
  save(name: string, bytes: Uint8Array): Promise<void>
  read(name: string): Promise<Uint8Array | null>
}

/** Names the server generates: random hex, an optional `seed-` prefix, one known extension. */
export const UPLOAD_NAME = /^(seed-)?[a-z0-9-]{8,80}\.(png|jpg|gif|webp|svg)$/

export class DiskUploadStorage implements UploadStorage {
  constructor(private readonly dir: string) {}

  async save(name: string, bytes: Uint8Array): Promise<void> {
    await mkdir(this.dir, { recursive: true })
    const partial = join(this.dir, `.${name}.${process.pid}.tmp`)
    await writeFile(partial, bytes)
    await rename(partial, join(this.dir, name))
  }

  async read(name: string): Promise<Uint8Array | null> {
    if (!UPLOAD_NAME.test(name)) return null
    try {
      return await readFile(join(this.dir, name))
    } catch {
      return null
    }
  }
}

export class MemoryUploadStorage implements UploadStorage {
  private readonly files = new Map<string, Uint8Array>()

  async save(name: string, bytes: Uint8Array): Promise<void> {
    this.files.set(name, bytes)
  }

  async read(name: string): Promise<Uint8Array | null> {
    return this.files.get(name) ?? null
  }
}
