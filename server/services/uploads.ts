import { randomBytes } from 'node:crypto'
import { ERROR_CODES } from '../../src/domain/api-error.ts'
import type { Database } from '../db/database.ts'
import {
  deleteUpload,
  insertUpload,
  lockUser,
  RESERVATION_PREFIX,
  renewReservation,
  reserveBytes,
  usedBytes,
  type QuotaWindow,
} from '../storage/uploads.ts'
import type { QuotaHold, ReceivedUpload, UploadRules } from '../uploads/received.ts'
import type { ImageInfo } from '../uploads/image.ts'
import { RESERVATION_TTL_MS, SWEEP_GRACE_MS } from '../uploads/sweep.ts'
import { AppError } from './errors.ts'

export interface UploadLimits {
  /** Largest image (backgrounds, image blocks, photos). */
  imageMaxBytes: number
  /** Largest video (video blocks). */
  videoMaxBytes: number
  /** What one user's files may take in all (0: no limit). */
  userQuotaBytes: number
}

const tooLarge = () => new AppError(413, ERROR_CODES.tooLarge, 'upload_too_large')

/**
 * The largest side of an image the product keeps, in pixels. A header may claim anything (a PNG
 * of 4294967295 × 4294967295 in a few bytes); such a picture cannot be shown on a page.
 */
export const MAX_IMAGE_SIDE = 20_000

/** How often an upload still arriving renews its reservation (it lapses at RESERVATION_TTL_MS). */
const RESERVATION_RENEW_MS = 60_000

/** How long the bytes of uploads count (docs/API.md, "Projects, backgrounds, uploads"). */
export const QUOTA_WINDOW: QuotaWindow = {
  graceMs: SWEEP_GRACE_MS,
  reservationTtlMs: RESERVATION_TTL_MS,
}

const quotaError = () => new AppError(413, ERROR_CODES.tooLarge, 'upload_quota')

/**
 * The room one upload holds in its user's quota while it arrives: a row of `uploads` named
 * RESERVATION_PREFIX…, counted with the user's files (server/storage/uploads.ts). It is set in a
 * transaction that holds the user's row, so that of parallel uploads — on any instance over the
 * database — no two take the same room: the files kept and the rooms held never add up past the
 * quota. It grows in steps as bytes arrive (server/http/upload-body.ts) and is renewed while they
 * do; it is given back when the upload is refused, aborted or discarded, and gives way to the
 * upload's own row when the upload is kept.
 */
export class QuotaReservation implements QuotaHold {
  readonly name = `${RESERVATION_PREFIX}${randomBytes(12).toString('hex')}`
  private held = 0
  private renewedAt = 0
  /** A row may have been written (even by a transaction whose answer was lost). */
  private written = false
  private settled = false

  constructor(
    private readonly db: Database,
    private readonly userId: number,
    private readonly quota: number,
    private readonly now: () => number = Date.now,
  ) {}

  covers(bytes: number): boolean {
    return bytes <= this.held && this.now() - this.renewedAt < RESERVATION_RENEW_MS
  }

  async reserve(needed: number, wanted: number): Promise<boolean> {
    if (this.settled) return true
    if (needed <= this.held) {
      await renewReservation(this.db, this.name)
      this.renewedAt = this.now()
      return true
    }
    this.written = true
    const held = await this.db.transaction(async (tx) => {
      await lockUser(tx, this.userId)
      return reserveBytes(tx, {
        name: this.name,
        userId: this.userId,
        needed,
        wanted,
        quota: this.quota,
        window: QUOTA_WINDOW,
      })
    })
    if (held === null) return false
    this.held = held
    this.renewedAt = this.now()
    return true
  }

  async release(): Promise<void> {
    if (this.settled) return
    this.settled = true
    if (this.written) await deleteUpload(this.db, this.name)
  }

  /**
   * Keeps an upload of `size` bytes as `name` in its place, within the quota: checked again with
   * the user's row held, as the reservation may have lapsed meanwhile (a stalled upload), when
   * others may have taken the room. 413 otherwise.
   */
  async settle(name: string, size: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await lockUser(tx, this.userId)
      if ((await usedBytes(tx, this.userId, QUOTA_WINDOW, this.name)) + size > this.quota) {
        throw quotaError()
      }
      await insertUpload(tx, { name, userId: this.userId, bytes: size })
      await deleteUpload(tx, this.name)
    })
    this.settled = true
  }
}

export class UploadService {
  constructor(
    private readonly db: Database,
    private readonly limits: UploadLimits,
  ) {}

  /**
   * What an upload call takes (server/http/upload-body.ts): images, and on `image/upload` videos,
   * each within its limit, and no more than the user's quota leaves, held as the upload arrives
   * (QuotaReservation). A repeat of a request whose Idempotency-Key is already known is not held
   * to the quota: its answer is the stored one.
   */
  rulesFor(userId: number, options: { video: boolean; repeat: boolean }): UploadRules {
    const quota = this.limits.userQuotaBytes
    return {
      imageMaxBytes: this.limits.imageMaxBytes,
      videoMaxBytes: options.video ? this.limits.videoMaxBytes : undefined,
      quota: quota > 0 && !options.repeat ? new QuotaReservation(this.db, userId, quota) : null,
      unsupported: options.video ? 'unsupported_upload' : 'unsupported_media',
    }
  }

  /** The image an upload is, or why it is refused: not an image (415), too large, too wide. */
  checkImage(upload: ReceivedUpload): ImageInfo {
    const info = upload.image
    if (!info) throw new AppError(415, ERROR_CODES.unsupportedMedia, 'unsupported_media')
    if (upload.size > this.limits.imageMaxBytes) throw tooLarge()
    if ((info.width ?? 0) > MAX_IMAGE_SIDE || (info.height ?? 0) > MAX_IMAGE_SIDE)
      throw AppError.validation({ file: { code: 'image_side' } })
    return info
  }

  /**
   * `image/upload`: an image (within the image limit) or an MP4/WebM video (within the larger
   * video limit), recognised by its bytes; anything else is refused (415).
   */
  async storeMedia(userId: number, upload: ReceivedUpload): Promise<{ url: string }> {
    if (upload.image) {
      const info = this.checkImage(upload)
      return { url: await this.keep(userId, upload, info.extension) }
    }
    const video = upload.video
    if (!video) throw new AppError(415, ERROR_CODES.unsupportedMedia, 'unsupported_upload')
    if (upload.size > this.limits.videoMaxBytes) throw tooLarge()
    return { url: await this.keep(userId, upload, video.extension) }
  }

  /**
   * Keeps a checked upload under a random name within the user's quota (413 «…» beyond it: the
   * quota is counted again here with the user's row held, QuotaReservation.settle) and notes who
   * sent it. Its row is written first: a file whose rename fails takes its row away again.
   */
  async keep(userId: number, upload: ReceivedUpload, extension: string): Promise<string> {
    const quota = this.limits.userQuotaBytes
    const name = `${randomBytes(16).toString('hex')}.${extension}`
    const reservation =
      upload.quota instanceof QuotaReservation
        ? upload.quota
        : new QuotaReservation(this.db, userId, quota)
    if (quota > 0) await reservation.settle(name, upload.size)
    else await insertUpload(this.db, { name, userId, bytes: upload.size })
    try {
      await upload.file.commit(name)
    } catch (error) {
      await deleteUpload(this.db, name).catch(() => undefined)
      throw error
    }
    return `/uploads/${name}`
  }
}
