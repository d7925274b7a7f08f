import { randomBytes } from 'node:crypto'
import { ERROR_CODES } from '../../src/domain/api-error.ts'
import { sniffImage } from '../uploads/image.ts'
import type { UploadStorage } from '../uploads/storage.ts'
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
}

const tooLarge = () => new AppError(413, ERROR_CODES.tooLarge, 'upload_too_large')

/**
 * The largest side of an image the product keeps, in pixels. A header may claim anything (a PNG
 * of 4294967295 × 4294967295 in a few bytes); such a picture cannot be shown on a page.
 */
export const MAX_IMAGE_SIDE = 20_000

export class UploadService {
  constructor(
    private readonly storage: UploadStorage,
    private readonly limits: UploadLimits,
  ) {}

  /** Keeps an uploaded image under a random name; anything but JPEG/PNG/WebP/GIF is refused (415). */
  async storeImage(bytes: Uint8Array): Promise<StoredImage> {
    const info = sniffImage(bytes)
    if (!info) throw new AppError(415, ERROR_CODES.unsupportedMedia, 'unsupported_media')
    if (bytes.length > this.limits.imageMaxBytes) throw tooLarge()
    if ((info.width ?? 0) > MAX_IMAGE_SIDE || (info.height ?? 0) > MAX_IMAGE_SIDE)
      throw AppError.validation({ file: { code: 'image_side' } })
    const url = await this.keep(bytes, info.extension)
    return { url, width: info.width, height: info.height }
  }

  /**
   * `image/upload`: an image (within the image limit) or an MP4/WebM video (within the larger
   * video limit), recognised by its bytes; anything else is refused (415).
   */
  async storeMedia(bytes: Uint8Array): Promise<{ url: string }> {
    const image = sniffImage(bytes)
    if (image) return { url: (await this.storeImage(bytes)).url }
    const video = sniffVideo(bytes)
    if (!video) throw new AppError(415, ERROR_CODES.unsupportedMedia, 'unsupported_upload')
    if (bytes.length > this.limits.videoMaxBytes) throw tooLarge()
    return { url: await this.keep(bytes, video.extension) }
  }

  private async keep(bytes: Uint8Array, extension: string): Promise<string> {
    const name = `${randomBytes(16).toString('hex')}.${extension}`
    await this.storage.save(name, bytes)
    return `/uploads/${name}`
  }
}
