import './editor-messages.ts'
import { t } from '@lingui/core/macro'
import type { Size } from '../../domain/geometry.ts'
import { errorMessage } from '../../ui/field-error.ts'

/**
 * What the API takes (docs/API.md "Conventions"): images up to 10 MB; on `image/upload` also MP4 or
 * WebM videos up to 100 MB (the reference server's defaults). The server checks the bytes again.
 */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const
export const VIDEO_TYPES = ['video/mp4', 'video/webm'] as const
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024
export const MAX_VIDEO_UPLOAD_BYTES = 100 * 1024 * 1024

/** A file the editor cannot use, with the Russian sentence to show the person. */
export class UploadProblem extends Error {}

/** What to tell the person when adding a file failed: the problem itself, or the usual words. */
export function uploadErrorText(error: unknown): string {
  return error instanceof UploadProblem ? error.message : errorMessage(error)
}

/** A Russian sentence when the file cannot be sent, or null. */
export function checkUpload(
  file: Blob,
  accept: readonly string[],
  kind: 'image' | 'video',
): string | null {
  if (!accept.includes(file.type)) {
    return kind === 'image'
      ? t`Выберите изображение в формате JPEG, PNG, WebP или GIF.`
      : t`Выберите видео в формате MP4 или WebM.`
  }
  if (kind === 'image' && file.size > MAX_UPLOAD_BYTES)
    return t`Файл больше 10 МБ. Выберите файл поменьше.`
  if (kind === 'video' && file.size > MAX_VIDEO_UPLOAD_BYTES)
    return t`Видео больше 100 МБ. Выберите файл поменьше.`
  if (file.size === 0) return t`Файл пустой.`
  return null
}

/** The natural size of an image file (rejects with a Russian message when it is not one). */
export async function readImageSize(file: Blob): Promise<Size> {
  if (typeof createImageBitmap === 'function') {
    try {
      const bitmap = await createImageBitmap(file)
      const size = { width: bitmap.width, height: bitmap.height }
      bitmap.close()
      return size
    } catch {
      // Fall through to an <img>, which knows a few more formats in some browsers.
    }
  }
  const url = URL.createObjectURL(file)
  try {
    return await new Promise<Size>((resolve, reject) => {
      const img = new Image()
      img.onload = () => resolve({ width: img.naturalWidth, height: img.naturalHeight })
      img.onerror = () =>
        reject(new UploadProblem(t`Не удалось прочитать изображение. Файл повреждён?`))
      img.src = url
    })
  } finally {
    URL.revokeObjectURL(url)
  }
}
