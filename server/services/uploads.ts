import { randomBytes } from 'node:crypto'
import { ERROR_CODES } from '../../src/domain/api-error.ts'
import type { Queryable } from '../db/database.ts'
import { insertUpload, usedBytes } from '../storage/uploads.ts'
import { sniffImage, type ImageInfo } from '../uploads/image.ts'
import type { UploadStorage } from '../uploads/storage.ts'
import { SWEEP_GRACE_MS } from '../uploads/sweep.ts'
import { sniffVideo } from '../uploads/video.ts'
import { AppError } from './errors.ts'

export interface StoredImage {
  url: string
  width: number | null
  height: number | null
}

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
    private readonly storage: UploadStorage,
    private readonly limits: UploadLimits,
  ) {}

  /** What an image is, or why it is refused: anything but JPEG/PNG/WebP/GIF (415), too large. */
  checkImage(bytes: Uint8Array): ImageInfo {
    const info = sniffImage(bytes)
    if (!info) throw new AppError(415, ERROR_CODES.unsupportedMedia, 'unsupported_media')
    if (bytes.length > this.limits.imageMaxBytes) throw tooLarge()
    if ((info.width ?? 0) > MAX_IMAGE_SIDE || (info.height ?? 0) > MAX_IMAGE_SIDE)
      throw AppError.validation({ file: { code: 'image_side' } })
    return info
  }

  /** Keeps an uploaded image under a random name, once it has passed checkImage. */
  async storeImage(userId: number, bytes: Uint8Array): Promise<StoredImage> {
    const info = this.checkImage(bytes)
    const url = await this.keep(userId, bytes, info.extension)
    return { url, width: info.width, height: info.height }
  }

  /**
   * `image/upload`: an image (within the image limit) or an MP4/WebM video (within the larger
   * video limit), recognised by its bytes; anything else is refused (415).
   */
  async storeMedia(userId: number, bytes: Uint8Array): Promise<{ url: string }> {
    const image = sniffImage(bytes)
    if (image) return { url: (await this.storeImage(userId, bytes)).url }
    const video = sniffVideo(bytes)
    if (!video) throw new AppError(415, ERROR_CODES.unsupportedMedia, 'unsupported_upload')
    if (bytes.length > this.limits.videoMaxBytes) throw tooLarge()
    return { url: await this.keep(userId, bytes, video.extension) }
  }

  /** Stores checked bytes within the user's quota (413 «…» beyond it) and notes who sent them. */
  async keep(userId: number, bytes: Uint8Array, extension: string): Promise<string> {
    const quota = this.limits.userQuotaBytes
    if (quota > 0 && (await usedBytes(this.db, userId, SWEEP_GRACE_MS)) + bytes.length > quota) {
      throw new AppError(413, ERROR_CODES.tooLarge, 'upload_quota')
    }
    const name = `${randomBytes(16).toString('hex')}.${extension}`
    await this.storage.save(name, bytes)
    await insertUpload(this.db, { name, userId, bytes: bytes.length })
    return `/uploads/${name}`
  }
}
