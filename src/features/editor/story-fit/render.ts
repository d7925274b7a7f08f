import '../editor-messages.ts'
import { t } from '@lingui/core/macro'
import type { Size } from '../../../domain/geometry.ts'
import { MAX_UPLOAD_BYTES, UploadProblem } from '../upload.ts'
import {
  cropAxis,
  cropWindow,
  edgeColour,
  fitPlacement,
  outputScale,
  scaled,
  type Rect,
} from './geometry.ts'

/** What the person chose for a picture that is not 9:16 (docs/editor.md). */
export type StoryFitChoice = { mode: 'crop'; offset: number } | { mode: 'fit'; colour: string }

type Canvas2D = OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D

export interface Surface {
  ctx: Pick<Canvas2D, 'drawImage' | 'fillRect' | 'getImageData'> & { fillStyle: unknown }
  toBlob(type: string, quality?: number): Promise<Blob | null>
}

/** What drawing needs from the browser; tests pass their own. */
export interface RenderDeps {
  decode(file: Blob): Promise<ImageBitmap>
  surface(size: Size): Surface
}

function surface(size: Size): Surface {
  if (typeof OffscreenCanvas === 'function') {
    const canvas = new OffscreenCanvas(size.width, size.height)
    const ctx = canvas.getContext('2d')
    if (ctx)
      return {
        ctx,
        toBlob: (type, quality) => canvas.convertToBlob({ type, quality }).catch(() => null),
      }
  }
  const canvas = document.createElement('canvas')
  canvas.width = size.width
  canvas.height = size.height
  const ctx = canvas.getContext('2d')
  if (!ctx)
    throw new UploadProblem(t`Браузер не смог подготовить изображение. Попробуйте другой файл.`)
  return {
    ctx,
    toBlob: (type, quality) => new Promise((resolve) => canvas.toBlob(resolve, type, quality)),
  }
}

/** Decodes an image file (a Russian message when it is not one or is damaged). */
export async function decodeImage(file: Blob): Promise<ImageBitmap> {
  try {
    return await createImageBitmap(file)
  } catch {
    throw new UploadProblem(t`Не удалось прочитать изображение. Файл повреждён?`)
  }
}

/** The margin colour a fit starts with: the picture's edge where the margins go, or white. */
export function sampleEdgeColour(bitmap: ImageBitmap): string {
  const size = { width: bitmap.width, height: bitmap.height }
  try {
    // A small copy is enough for a mean and cheap for a large photo.
    const small = scaled(size, Math.min(1, 64 / Math.max(size.width, size.height)))
    const { ctx } = surface(small)
    ctx.drawImage(bitmap, 0, 0, small.width, small.height)
    const pixels = ctx.getImageData(0, 0, small.width, small.height).data
    return edgeColour(pixels, small, cropAxis(size))
  } catch {
    return '#ffffff'
  }
}

/** The type the result keeps: the picture's own, PNG for a GIF (one frame of it). */
function outputType(type: string): string {
  return type === 'image/jpeg' || type === 'image/webp' ? type : 'image/png'
}

/**
 * Draws the chosen 9:16 picture at the picture's resolution (never enlarged) and encodes it,
 * within the upload limit: a result past it is encoded again as JPEG, then made smaller.
 */
export async function renderStorySlide(
  file: Blob,
  choice: StoryFitChoice,
  deps: RenderDeps = { decode: decodeImage, surface },
): Promise<{ blob: Blob; size: Size }> {
  const bitmap = await deps.decode(file)
  try {
    const source = { width: bitmap.width, height: bitmap.height }
    let full: Size
    let from: Rect
    let to: Rect
    if (choice.mode === 'crop') {
      from = cropWindow(source, choice.offset)
      full = { width: from.width, height: from.height }
      to = { x: 0, y: 0, ...full }
    } else {
      const placement = fitPlacement(source)
      full = placement.canvas
      from = { x: 0, y: 0, ...source }
      to = placement.picture
    }
    const attempts: { scale: number; type: string; quality?: number }[] = [
      { scale: 1, type: outputType(file.type), quality: 0.92 },
      { scale: 1, type: 'image/jpeg', quality: 0.85 },
      { scale: 0.75, type: 'image/jpeg', quality: 0.85 },
      { scale: 0.5, type: 'image/jpeg', quality: 0.8 },
      { scale: 0.35, type: 'image/jpeg', quality: 0.75 },
    ]
    const cap = outputScale(full)
    for (const attempt of attempts) {
      const scale = cap * attempt.scale
      const size = scaled(full, scale)
      const { ctx, toBlob } = deps.surface(size)
      if (choice.mode === 'fit') {
        ctx.fillStyle = choice.colour
        ctx.fillRect(0, 0, size.width, size.height)
      }
      ctx.drawImage(
        bitmap,
        from.x,
        from.y,
        from.width,
        from.height,
        to.x * scale,
        to.y * scale,
        to.width * scale,
        to.height * scale,
      )
      const blob = await toBlob(attempt.type, attempt.quality)
      if (!blob) break
      if (blob.size <= MAX_UPLOAD_BYTES) return { blob, size }
    }
    throw new UploadProblem(t`Не удалось уложить слайд в 10 МБ. Выберите файл поменьше.`)
  } finally {
    bitmap.close()
  }
}
