import { randomBytes } from 'node:crypto'
import { ERROR_CODES } from '../../src/domain/api-error.ts'
import { sniffImage } from '../uploads/image.ts'
import type { UploadStorage } from '../uploads/storage.ts'
import { AppError } from './errors.ts'

export interface StoredImage {
  url: string
  width: number | null
  height: number | null
}

export class UploadService {
  constructor(private readonly storage: UploadStorage) {}

  /** Keeps an uploaded image under a random name; anything but JPEG/PNG/WebP/GIF is refused (415). */
  async storeImage(bytes: Uint8Array): Promise<StoredImage> {
    const info = sniffImage(bytes)
    if (!info) throw new AppError(415, ERROR_CODES.unsupportedMedia, 'unsupported_media')
    const name = `${randomBytes(16).toString('hex')}.${info.extension}`
    await this.storage.save(name, bytes)
    return { url: `/uploads/${name}`, width: info.width, height: info.height }
  }
}
