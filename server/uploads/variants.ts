import sharp from 'sharp'
import { VARIANT_WIDTHS } from '../../src/domain/publish.ts'
import type { UploadStorage } from './storage.ts'

/**
 * Resized copies of uploaded images for published pages (docs/publishing.md,
 * "Rendering on the server"): each width the page's `srcset` offers, as WebP and in the image's own
 * format, made once — in the background after a publish, or on the first request of one not made
 * yet — and kept beside the upload as `<stem>--w<width>.<ext>`. sharp (libvips) does the work: a
 * well-kept library with prebuilt binaries, far faster and smaller in memory than decoding in
 * JavaScript.
 */
export { VARIANT_WIDTHS }

/** The formats a variant is made in: WebP for every browser of today, the original beside it. */
export type VariantFormat = 'webp' | 'jpg' | 'png'

const VARIANT = /^((?:seed-)?[a-z0-9]+(?:-[a-z0-9]+)*)--w(\d{3,4})\.(webp|jpg|png)$/
const SOURCE = /^((?:seed-)?[a-z0-9]+(?:-[a-z0-9]+)*)\.(jpg|png|webp)$/

/** What a variant's name says: its source's stem, width and format. */
export function parseVariant(
  name: string,
): { stem: string; width: number; format: VariantFormat } | null {
  const match = VARIANT.exec(name)
  if (!match) return null
  const width = Number(match[2])
  if (!(VARIANT_WIDTHS as readonly number[]).includes(width)) return null
  return { stem: match[1]!, width, format: match[3] as VariantFormat }
}

/** An uploaded raster image a page may offer variants of (not GIF: it may move). */
export function variantSource(name: string): { stem: string; format: VariantFormat } | null {
  const match = SOURCE.exec(name)
  if (!match) return null
  return { stem: match[1]!, format: match[2] === 'webp' ? 'webp' : (match[2] as VariantFormat) }
}

export const variantName = (stem: string, width: number, format: VariantFormat) =>
  `${stem}--w${width}.${format}`

/** The widths offered for an image of this width: those smaller than it (its own goes last). */
export const widthsFor = (width: number) => VARIANT_WIDTHS.filter((w) => w < width)

async function encode(
  source: Uint8Array,
  width: number,
  format: VariantFormat,
  sourceFormat: VariantFormat,
) {
  const image = sharp(source, { limitInputPixels: 20_000 * 20_000 })
    .rotate()
    .resize({
      width,
      withoutEnlargement: true,
    })
  // A PNG is a drawing more often than a photo (a logo, a price list, text): its edges are kept
  // exactly, as the editor showed them; lossless WebP is still smaller than the PNG.
  if (format === 'webp' && sourceFormat === 'png') {
    return image.webp({ lossless: true, effort: 4 }).toBuffer()
  }
  if (format === 'webp') return image.webp({ quality: 78, effort: 4 }).toBuffer()
  if (format === 'jpg') return image.jpeg({ quality: 80, mozjpeg: true }).toBuffer()
  return image.png({ compressionLevel: 9, palette: true, quality: 90 }).toBuffer()
}

/** Makes each variant at most once per process at a time; a kept one is never made again. */
export class ImageVariants {
  private readonly making = new Map<string, Promise<boolean>>()

  constructor(private readonly storage: UploadStorage) {}

  /** Whether the variant exists (made now when its source does). */
  ensure(name: string): Promise<boolean> {
    const variant = parseVariant(name)
    if (!variant) return Promise.resolve(false)
    let pending = this.making.get(name)
    if (!pending) {
      pending = this.make(name, variant).finally(() => this.making.delete(name))
      this.making.set(name, pending)
    }
    return pending
  }

  private async make(
    name: string,
    variant: { stem: string; width: number; format: VariantFormat },
  ): Promise<boolean> {
    if ((await this.storage.size(name)) !== null) return true
    for (const extension of ['jpg', 'png', 'webp'] as const) {
      const sourceName = `${variant.stem}.${extension}`
      const source = await this.storage.read(sourceName)
      if (!source) continue
      // Only the image's own format or WebP.
      if (variant.format !== 'webp' && variant.format !== extension) return false
      await this.storage.save(name, await encode(source, variant.width, variant.format, extension))
      return true
    }
    return false
  }

  /** Every variant a page offers of these images, made one after another. */
  async warm(images: readonly { name: string; width: number }[]): Promise<void> {
    for (const { name, width } of images) {
      const source = variantSource(name)
      if (!source) continue
      // The first screens' sizes first: a phone's, then wider ones (domain/publish.ts, imageSrcsets).
      for (const w of widthsFor(width)) {
        await this.ensure(variantName(source.stem, w, 'webp'))
        if (source.format !== 'webp') await this.ensure(variantName(source.stem, w, source.format))
      }
      if (width <= VARIANT_WIDTHS.at(-1)!) {
        await this.ensure(variantName(source.stem, VARIANT_WIDTHS.at(-1)!, 'webp'))
      }
    }
  }

  /** The size of a stored image, read from its header. */
  async measure(name: string): Promise<{ width: number; height: number } | null> {
    if (!variantSource(name)) return null
    const bytes = await this.storage.read(name)
    if (!bytes) return null
    try {
      const meta = await sharp(bytes).metadata()
      if (!meta.width || !meta.height) return null
      const turned = (meta.orientation ?? 1) >= 5
      return turned
        ? { width: meta.height, height: meta.width }
        : { width: meta.width, height: meta.height }
    } catch {
      return null
    }
  }
}
