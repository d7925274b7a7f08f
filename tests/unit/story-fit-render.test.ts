import { describe, expect, it, vi } from 'vitest'
import '../../src/app/i18n.ts'
import type { Size } from '../../src/domain/geometry.ts'
import { renderStorySlide, type Surface } from '../../src/features/editor/story-fit/render.ts'
import { MAX_UPLOAD_BYTES, UploadProblem } from '../../src/features/editor/upload.ts'

const MB = 1024 * 1024

/**
 * A stand-in for the browser's canvas: records what is drawn on each surface and answers an
 * encoded file whose size `encodedSize` decides (only its size and type matter to the limit).
 */
function fakeBrowser(picture: Size, encodedSize: (type: string, size: Size) => number) {
  const bitmap = { ...picture, close: vi.fn() } as unknown as ImageBitmap
  const surfaces: {
    size: Size
    fills: unknown[]
    draws: number[][]
    encoded: { type: string; bytes: number }[]
  }[] = []
  const deps = {
    decode: vi.fn(async () => bitmap),
    surface(size: Size): Surface {
      const record = {
        size,
        fills: [] as unknown[],
        draws: [] as number[][],
        encoded: [] as { type: string; bytes: number }[],
      }
      surfaces.push(record)
      const ctx = {
        fillStyle: '' as unknown,
        fillRect() {
          record.fills.push(ctx.fillStyle)
        },
        drawImage(_image: unknown, ...args: number[]) {
          record.draws.push(args)
        },
        getImageData: () => {
          throw new Error('not used')
        },
      }
      return {
        ctx: ctx as unknown as Surface['ctx'],
        toBlob: async (type) => {
          const bytes = encodedSize(type, size)
          record.encoded.push({ type, bytes })
          return { size: bytes, type } as Blob
        },
      }
    },
  }
  return { deps, surfaces, bitmap }
}

const file = (type: string) => ({ type, size: 3 * MB }) as Blob

describe('drawing the chosen slide', () => {
  it('crops at the picture’s own pixels, keeps its type, and lets the picture go', async () => {
    const { deps, surfaces, bitmap } = fakeBrowser({ width: 4000, height: 2250 }, () => 2 * MB)
    const result = await renderStorySlide(file('image/jpeg'), { mode: 'crop', offset: 0 }, deps)
    expect(result.size).toEqual({ width: 1266, height: 2250 })
    expect(surfaces[0]!.draws).toEqual([[0, 0, 1266, 2250, 0, 0, 1266, 2250]])
    expect(surfaces[0]!.encoded).toEqual([{ type: 'image/jpeg', bytes: 2 * MB }])
    expect(bitmap.close).toHaveBeenCalledOnce()
  })

  it('fits on the margin colour with the picture centred, PNG for a GIF', async () => {
    const { deps, surfaces } = fakeBrowser({ width: 320, height: 180 }, () => MB)
    const result = await renderStorySlide(
      file('image/gif'),
      { mode: 'fit', colour: '#123456' },
      deps,
    )
    expect(result.size).toEqual({ width: 320, height: 569 })
    expect(surfaces[0]!.fills).toEqual(['#123456'])
    expect(surfaces[0]!.draws).toEqual([[0, 0, 320, 180, 0, 195, 320, 180]])
    expect(surfaces[0]!.encoded[0]!.type).toBe('image/png')
  })

  it('past 10 MB encodes again as JPEG, then smaller, until it fits', async () => {
    // A PNG fit of a large photo: about 1.2 bytes a pixel as PNG, 0.5 as JPEG.
    const { deps, surfaces } = fakeBrowser({ width: 4000, height: 2250 }, (type, size) =>
      Math.round(size.width * size.height * (type === 'image/png' ? 1.2 : 0.5)),
    )
    const result = await renderStorySlide(file('image/png'), { mode: 'fit', colour: '#fff' }, deps)
    expect(surfaces.map((s) => s.encoded[0]!.type)).toEqual([
      'image/png',
      'image/jpeg',
      'image/jpeg',
    ])
    expect(surfaces.map((s) => s.size)).toEqual([
      { width: 4000, height: 7111 },
      { width: 4000, height: 7111 },
      { width: 3000, height: 5333 },
    ])
    expect(result.size).toEqual({ width: 3000, height: 5333 })
    expect(result.blob.size).toBeLessThanOrEqual(MAX_UPLOAD_BYTES)
  })

  it('tells the person in Russian when nothing fits, and when the picture does not decode', async () => {
    const { deps } = fakeBrowser({ width: 4000, height: 2250 }, () => 11 * MB)
    const tooLarge = renderStorySlide(file('image/png'), { mode: 'crop', offset: 0.5 }, deps)
    await expect(tooLarge).rejects.toBeInstanceOf(UploadProblem)
    await expect(tooLarge).rejects.toThrow(
      'Не удалось уложить слайд в 10 МБ. Выберите файл поменьше.',
    )
    deps.decode.mockRejectedValueOnce(new UploadProblem('Не удалось прочитать изображение.'))
    await expect(
      renderStorySlide(file('image/png'), { mode: 'crop', offset: 0.5 }, deps),
    ).rejects.toBeInstanceOf(UploadProblem)
  })
})
