import { randomBytes } from 'node:crypto'
import { ERROR_CODES } from '../../src/domain/api-error.ts'
import type { Queryable } from '../db/database.ts'
import { insertUpload, usedBytes } from '../storage/uploads.ts'
import type { ReceivedUpload, UploadRules } from '../http/upload-body.ts'
import type { ImageInfo } from '../uploads/image.ts'
import { SWEEP_GRACE_MS } from '../uploads/sweep.ts'
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

export class UploadService {
  constructor(
    private readonly db: Queryable,
    private readonly limits: UploadLimits,
  ) {}

  /**
   * What an upload call takes (server/http/upload-body.ts): images, and on `image/upload` videos,
   * each within its limit, and no more than the user's quota leaves. A repeat of a request whose
   * Idempotency-Key is already known is not held to the quota: its answer is the stored one.
   */
  async rulesFor(
    userId: number,
    options: { video: boolean; repeat: boolean },
  ): Promise<UploadRules> {
    const quota = this.limits.userQuotaBytes
    const quotaLeft =
      quota > 0 && !options.repeat
        ? Math.max(0, quota - (await usedBytes(this.db, userId, SWEEP_GRACE_MS)))
        : Number.POSITIVE_INFINITY
    return {
      imageMaxBytes: this.limits.imageMaxBytes,
      videoMaxBytes: options.video ? this.limits.videoMaxBytes : undefined,
      quotaLeft,
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
   * quota is counted again here, as other uploads may have been kept while this one streamed) and
   * notes who sent it.
   */
  async keep(userId: number, upload: ReceivedUpload, extension: string): Promise<string> {
    const quota = this.limits.userQuotaBytes
    if (quota > 0 && (await usedBytes(this.db, userId, SWEEP_GRACE_MS)) + upload.size > quota) {
      throw new AppError(413, ERROR_CODES.tooLarge, 'upload_quota')
    }
    const name = `${randomBytes(16).toString('hex')}.${extension}`
    await upload.file.commit(name)
    await insertUpload(this.db, { name, userId, bytes: upload.size })
    return `/uploads/${name}`
  }
}
