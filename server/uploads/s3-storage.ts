import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3'
import { createReadStream } from 'node:fs'
import { rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import {
  DiskUploadStorage,
  UPLOAD_NAME,
  type PartialUpload,
  type UploadStorage,
} from './storage.ts'

/**
 * Where uploads go when they live in S3-compatible object storage (server/README.md,
 * "Several instances behind a load balancer").
 */
export interface S3Settings {
  endpoint: string
  bucket: string
  accessKeyId: string
  secretAccessKey: string
  region: string
}

/**
 * Uploads in an S3-compatible bucket (server/README.md,
 * "Several instances behind a load balancer"), so every instance serves every upload. An upload
 * arriving is written to a temporary file on this machine (its bytes are read back to check what it
 * is) and streamed into the bucket once accepted: never held whole in memory. A video is served in
 * ranges, each a ranged read of the object.
 */
export class S3UploadStorage implements UploadStorage {
  private readonly client: S3Client
  private readonly bucket: string
  /** Partial uploads: a disk storage in a folder of this machine's own. */
  private readonly partials: DiskUploadStorage

  constructor(
    settings: S3Settings,
    private readonly tempDir: string,
  ) {
    this.bucket = settings.bucket
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      credentials: {
        accessKeyId: settings.accessKeyId,
        secretAccessKey: settings.secretAccessKey,
      },
      // Addresses of the form endpoint/bucket/key work with every S3-compatible server.
      forcePathStyle: true,
      // Checksums only where S3 requires them: a streamed body is then sent as it is, not in
      // aws-chunked framing with a trailing checksum, which S3-compatible servers may not know
      // (and store as part of the object).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    })
    this.partials = new DiskUploadStorage(tempDir)
  }

  async save(name: string, bytes: Uint8Array): Promise<void> {
    if (!UPLOAD_NAME.test(name)) throw new Error(`not an upload name: ${name}`)
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: name,
        Body: bytes,
        ContentLength: bytes.byteLength,
      }),
    )
  }

  async begin(): Promise<PartialUpload> {
    const partial = await this.partials.begin()
    return {
      write: (chunk) => partial.write(chunk),
      read: (start, length) => partial.read(start, length),
      commit: async (name) => {
        if (!UPLOAD_NAME.test(name)) throw new Error(`not an upload name: ${name}`)
        // Kept on this machine under its name for as long as it takes to stream it up.
        await partial.commit(name)
        const path = join(this.tempDir, name)
        try {
          const { size } = await stat(path)
          await this.client.send(
            new PutObjectCommand({
              Bucket: this.bucket,
              Key: name,
              Body: createReadStream(path),
              ContentLength: size,
            }),
          )
        } finally {
          await rm(path, { force: true })
        }
      },
      discard: () => partial.discard(),
    }
  }

  async read(name: string): Promise<Uint8Array | null> {
    if (!UPLOAD_NAME.test(name)) return null
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: name }),
      )
      return answer.Body ? await answer.Body.transformToByteArray() : null
    } catch (error) {
      if (isMissing(error)) return null
      throw error
    }
  }

  async size(name: string): Promise<number | null> {
    if (!UPLOAD_NAME.test(name)) return null
    try {
      const answer = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: name }),
      )
      return answer.ContentLength ?? null
    } catch (error) {
      if (isMissing(error)) return null
      throw error
    }
  }

  stream(name: string, start: number, end: number): ReadableStream<Uint8Array> {
    if (!UPLOAD_NAME.test(name)) throw new Error(`not an upload name: ${name}`)
    const client = this.client
    const bucket = this.bucket
    let reader: ReadableStreamDefaultReader<Uint8Array> | null = null
    return new ReadableStream<Uint8Array>({
      async start(controller) {
        if (end <= start) return controller.close()
        const answer = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: name, Range: `bytes=${start}-${end - 1}` }),
        )
        if (!answer.Body) return controller.close()
        reader = (answer.Body.transformToWebStream() as ReadableStream<Uint8Array>).getReader()
      },
      async pull(controller) {
        if (!reader) return
        const { done, value } = await reader.read()
        if (done) controller.close()
        else controller.enqueue(value)
      },
      async cancel(reason) {
        await reader?.cancel(reason)
      },
    })
  }

  async list(): Promise<{ name: string; writtenAt: number }[]> {
    const out: { name: string; writtenAt: number }[] = []
    let token: string | undefined
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, ContinuationToken: token }),
      )
      for (const item of page.Contents ?? []) {
        if (item.Key && UPLOAD_NAME.test(item.Key))
          out.push({ name: item.Key, writtenAt: item.LastModified?.getTime() ?? 0 })
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined
    } while (token)
    return out
  }

  async remove(name: string): Promise<void> {
    if (!UPLOAD_NAME.test(name)) return
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: name }))
  }

  /** What a process killed mid-upload left on this machine: its partial files, and any file it was streaming up. */
  async removePartials(before: number): Promise<number> {
    let removed = await this.partials.removePartials(before)
    for (const file of await this.partials.list()) {
      if (file.writtenAt >= before) continue
      await this.partials.remove(file.name)
      removed += 1
    }
    return removed
  }
}

function isMissing(error: unknown): boolean {
  if (error instanceof NoSuchKey || error instanceof NotFound) return true
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode
  return status === 404
}
