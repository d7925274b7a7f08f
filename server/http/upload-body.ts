import { createHash, type Hash } from 'node:crypto'
import { once } from 'node:events'
import { Busboy } from '@fastify/busboy'
import type { MiddlewareHandler } from 'hono'
import { ERROR_CODES } from '../../src/domain/api-error.ts'
import { AppError } from '../services/errors.ts'
import { jpegSizeOf, sniffImage, type ImageInfo } from '../uploads/image.ts'
import type { UploadStorage } from '../uploads/storage.ts'
import type { ReceivedUpload, UploadRules } from '../uploads/received.ts'
import { sniffVideo, type VideoInfo } from '../uploads/video.ts'
import { DRAIN_MAX_BYTES, drain } from './body-limit.ts'
import type { AppEnv } from './env.ts'
import { errorResponse, tooLarge } from './errors.ts'

/** Bytes of the file itself that tell an image from a video. */
const FILE_HEAD_BYTES = 4096
/** Room for the multipart framing and the other fields around the file. */
export const FRAMING_BYTES = 64 * 1024
/** Bytes of a stored upload read at once when its fingerprint is computed again. */
const READ_BACK_BYTES = 1024 * 1024

/** Bytes a reservation grows by at least, when the body's length is not known beforehand. */
export const QUOTA_STEP_BYTES = 1024 * 1024

/** A refused upload: its answer, and whether the rest of the body was read (docs/API.md, "Errors"). */
export class UploadRefused extends Error {
  constructor(
    readonly error: AppError,
    readonly drained: boolean,
  ) {
    super(error.messageKey)
  }
}

/** No `file` part in the form. */
const required = () => AppError.validation({ file: { code: 'required' } })
/** A body that is no multipart form (or breaks off). */
const malformed = () =>
  new AppError(400, ERROR_CODES.validation, 'validation', { file: { code: 'required' } })

const byName = (a: [string, string], b: [string, string]) =>
  a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0

function hashFields(hash: Hash, fields: [string, string][]) {
  for (const [name, value] of fields) hash.update(`${name}=`).update(value).update('\n')
}

/**
 * Receives a multipart upload as it arrives (docs/API.md, "Projects, backgrounds, uploads"): the
 * `file` part goes to a new file of the storage chunk by chunk, never whole into memory. Its kind
 * is judged from its first bytes, and the limit of that kind and the user's quota are enforced
 * while it streams (the quota by a hold in the database that grows as bytes arrive, QuotaHold);
 * the request's fingerprint is hashed from the same bytes. A refused or broken
 * upload leaves no file: UploadRefused says whether the rest of the body was read (up to
 * DRAIN_MAX_BYTES), and when it was not the answer closes the connection.
 */
export async function receiveUpload(
  request: Request,
  storage: UploadStorage,
  rules: UploadRules,
  requestLine: string,
): Promise<ReceivedUpload> {
  const contentType = request.headers.get('content-type') ?? ''
  if (!request.body || !/^multipart\/form-data/i.test(contentType)) throw required()
  const length = request.headers.get('content-length')
  const declared =
    length !== null && !request.headers.has('transfer-encoding')
      ? Number.parseInt(length, 10)
      : null

  let failure: Error | null = null
  let signalFailure = () => {}
  const failed = new Promise<void>((resolve) => (signalFailure = resolve))
  const fail = (error: Error) => {
    if (failure) return
    failure = error
    signalFailure()
  }

  let parser: ReturnType<typeof Busboy>
  try {
    parser = Busboy({
      headers: { 'content-type': contentType },
      limits: { fieldSize: FRAMING_BYTES, fields: 50, parts: 100, headerPairs: 20 },
      // As a browser's form data has it: a part with a file name is a file.
      isPartAFile: (_name, _type, filename) => filename !== undefined,
    })
  } catch {
    throw malformed()
  }

  const file = await storage.begin()
  const fields: [string, string][] = []
  const maxLimit = Math.max(rules.imageMaxBytes, rules.videoMaxBytes ?? 0)
  let limit: number | null = null
  let total = 0
  let size = 0
  let head: Buffer[] = []
  let headSize = 0
  let image: ImageInfo | null = null
  let video: VideoInfo | null = null
  let hash: Hash | null = null
  /** False when a field that sorts before `file` came after it: the hash is computed again. */
  let hashInOrder = true
  let writing: Promise<void> = Promise.resolve()
  let fileEnded: Promise<void> | null = null

  const judge = () => {
    const bytes = Buffer.concat(head, headSize)
    head = []
    image = sniffImage(bytes)
    video = !image && rules.videoMaxBytes !== undefined ? sniffVideo(bytes) : null
    if (!image && !video) {
      return fail(new AppError(415, ERROR_CODES.unsupportedMedia, rules.unsupported))
    }
    limit = image ? rules.imageMaxBytes : rules.videoMaxBytes!
    // The length it declared is already too much for what it turned out to be.
    if (declared !== null && declared > limit + FRAMING_BYTES) fail(tooLarge('upload_too_large'))
  }
  const checkSize = () => {
    if (limit !== null && size > limit) fail(tooLarge('upload_too_large'))
  }
  const quota = rules.quota
  /**
   * Grows the room held in the quota to cover `needed` bytes: to the declared length at once when
   * there is one, else in doubling steps of at least QUOTA_STEP_BYTES (a database round trip per
   * step, never per chunk), never past the limit of the file's kind.
   */
  const hold = async (needed: number) => {
    if (!quota || failure) return
    const ahead =
      declared !== null
        ? Math.max(needed, declared)
        : Math.max(needed + QUOTA_STEP_BYTES, 2 * needed)
    const wanted = Math.min(ahead, Math.max(needed, limit ?? maxLimit))
    if (!(await quota.reserve(needed, wanted))) {
      fail(new AppError(413, ERROR_CODES.tooLarge, 'upload_quota'))
    }
  }

  parser.on('field', (name, value, nameTruncated, valueTruncated) => {
    if (nameTruncated || valueTruncated) return fail(tooLarge('upload_too_large'))
    if (name === 'file') return fail(required())
    fields.push([name, value])
    if (hash && name < 'file') hashInOrder = false
  })
  parser.on('file', (name, stream) => {
    // Only the first `file` part is kept; any other file is read past.
    if (name !== 'file' || hash) {
      stream.on('error', () => fail(malformed()))
      stream.resume()
      return
    }
    hash = createHash('sha256').update(requestLine)
    hashFields(hash, fields.filter(([field]) => field < 'file').sort(byName))
    hash.update('file=')
    const fileHash = hash
    // A body that ends inside the file part: the part's stream errs (an 'error' left unheard
    // would end the process); the request is malformed and the partial file is discarded.
    stream.on('error', () => fail(malformed()))
    fileEnded = new Promise<void>((resolve) => {
      stream.on('end', () => {
        void writing.then(() => {
          if (!image && !video && !failure) judge()
          resolve()
        })
      })
    })
    stream.on('data', (chunk: Buffer) => {
      if (failure) return
      size += chunk.byteLength
      fileHash.update(chunk)
      if (limit === null) {
        head.push(chunk)
        headSize += chunk.byteLength
        if (headSize >= FILE_HEAD_BYTES) judge()
      }
      checkSize()
      if (failure) return
      // The parser waits while the chunk is written (and the quota's hold grown, when it must
      // be): at most a few chunks are held per upload.
      stream.pause()
      const needed = size
      writing = writing
        .then(() => (quota && !quota.covers(needed) ? hold(needed) : undefined))
        .then(() => (failure ? undefined : file.write(chunk)))
        .then(
          () => void stream.resume(),
          (error: unknown) => fail(error instanceof Error ? error : new Error(String(error))),
        )
    })
  })
  parser.on('partsLimit', () => fail(tooLarge('upload_too_large')))
  parser.on('fieldsLimit', () => fail(tooLarge('upload_too_large')))
  parser.on('error', () => fail(malformed()))
  const finished = once(parser, 'finish').catch(() => undefined)

  const reader = request.body.getReader()
  let ended = false
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) {
        ended = true
        parser.end()
        break
      }
      total += value.byteLength
      if (total > (limit ?? maxLimit) + FRAMING_BYTES) fail(tooLarge('upload_too_large'))
      if (failure) break
      if (!parser.write(Buffer.from(value.buffer, value.byteOffset, value.byteLength))) {
        await Promise.race([once(parser, 'drain').catch(() => undefined), failed])
      }
      if (failure) break
    }
    if (!failure) await Promise.race([finished, failed])
    if (!failure && fileEnded) await Promise.race([fileEnded, failed])
    if (!failure && !hash) fail(required())
  } catch {
    // The client went away mid-upload: nothing is kept, and nobody reads the answer.
    fail(malformed())
    ended = true
  }

  if (failure) {
    const error: Error = failure
    let drained = ended
    if (!drained) {
      const left = declared === null ? DRAIN_MAX_BYTES : declared - total
      drained = left <= DRAIN_MAX_BYTES && (await drain(reader, left).catch(() => false))
    }
    await writing.catch(() => undefined)
    await file.discard()
    if (error instanceof AppError) throw new UploadRefused(error, drained)
    throw error
  }

  try {
    const kept = image as ImageInfo | null
    if (kept?.format === 'jpeg' && kept.width === null && size > FILE_HEAD_BYTES) {
      image = { ...kept, ...(await jpegSizeOf((start, n) => file.read(start, n), size)) }
    }
    const sorted = [...fields].sort(byName)
    let fingerprint: Hash = hash!
    if (!hashInOrder) {
      fingerprint = createHash('sha256').update(requestLine)
      hashFields(
        fingerprint,
        sorted.filter(([name]) => name < 'file'),
      )
      fingerprint.update('file=')
      for (let start = 0; start < size; start += READ_BACK_BYTES) {
        fingerprint.update(await file.read(start, READ_BACK_BYTES))
      }
    }
    fingerprint.update('\n')
    hashFields(
      fingerprint,
      sorted.filter(([name]) => name > 'file'),
    )
    return {
      file,
      size,
      image,
      video,
      fields: Object.fromEntries(fields),
      quota,
      fingerprint: fingerprint.digest('hex'),
    }
  } catch (error) {
    await file.discard()
    throw error
  }
}

/**
 * Receives a route's upload before its handler (and before the Idempotency-Key middleware, which
 * compares the fingerprint), and discards the file unless the handler kept it. The room it held
 * in the quota is given back before the answer goes out, whatever the answer: a refused, aborted
 * or discarded upload holds nothing afterwards, and a kept one counts as its stored file.
 */
export function uploadBody(
  rulesFor: (c: Parameters<MiddlewareHandler<AppEnv>>[0]) => Promise<UploadRules>,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const rules = await rulesFor(c)
    const url = new URL(c.req.url)
    const requestLine = `${c.req.method} ${c.req.path}?${url.search}\n`
    try {
      let upload: ReceivedUpload
      try {
        upload = await receiveUpload(c.req.raw, c.get('services').uploadStorage, rules, requestLine)
      } catch (error) {
        if (!(error instanceof UploadRefused)) throw error
        const response = errorResponse(error.error)
        if (!error.drained) response.headers.set('Connection', 'close')
        return response
      }
      c.set('upload', upload)
      try {
        await next()
      } finally {
        await upload.file.discard()
      }
    } finally {
      // A hold that cannot be given back now lapses by itself (server/services/uploads.ts).
      await rules.quota?.release().catch(() => undefined)
    }
  }
}
