import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
// @ts-expect-error -- subset-font ships no types; its one function is typed below (its README).
import subsetFontUntyped from 'subset-font'

export const subsetFont = subsetFontUntyped as (
  font: Uint8Array,
  text: string,
  /** `noHinting`: without the TrueType hinting programs (fpgm, prep, cvt and each glyph's). */
  options: { targetFormat: 'woff2'; noHinting?: boolean },
) => Promise<Buffer>

const require = createRequire(import.meta.url)

/** A published page's own font file: an @fontsource file and the characters to keep of it. */
export interface FontCut {
  /** `roboto/files/roboto-cyrillic-400-normal.woff2` (a file of an @fontsource package). */
  source: string
  text: string
}

const SOURCE = /^[a-z-]+\/files\/[a-z-]+-(cyrillic|latin)-(400|700)-normal\.woff2$/

/**
 * The web fonts of a published page cut down to the characters it shows (docs/publishing.md,
 * "Rendering on the server"): a face's Cyrillic file of 8–30 KB becomes 3–6 KB, which is what a
 * phone on a slow link waits for before the text takes its font. subset-font (HarfBuzz's hb-subset
 * in WebAssembly) does the cutting; each cut is made once per instance and kept while its page is.
 * The cuts leave out the TrueType hinting programs, as web font services serve every system but
 * Windows: phones' rasterizers do not run them, and they were about 40% of each cut's bytes.
 */
export class PageFonts {
  private readonly cuts = new Map<string, Promise<Buffer>>()

  cut({ source, text }: FontCut): Promise<Buffer> {
    if (!SOURCE.test(source)) return Promise.reject(new Error(`not a font of ours: ${source}`))
    const key = `${source}\n${text}`
    let kept = this.cuts.get(key)
    if (!kept) {
      kept = (async () => {
        const bytes = await readFile(require.resolve(`@fontsource/${source}`))
        return subsetFont(bytes, text, { targetFormat: 'woff2', noHinting: true })
      })()
      this.cuts.set(key, kept)
      kept.catch(() => this.cuts.delete(key))
      // The most recent cuts: a page's are asked for together, right after its HTML.
      if (this.cuts.size > 2_000) this.cuts.delete(this.cuts.keys().next().value!)
    }
    return kept
  }
}
