import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { stamp, stampedPage } from '../../server/published/stamped-page.ts'

const decode = { br: brotliDecompressSync, gzip: gunzipSync } as const

describe('stamped page', () => {
  it('decodes to the page with each answer’s own values, in gzip and in brotli', async () => {
    const html = `<p>${'привет '.repeat(500)}</p><input value="__T__"><i>__S__-1</i><b>__S__-2</b>end`
    const page = stampedPage(html, /__T__|__S__/)
    expect(page.slots).toEqual(['__T__', '__S__', '__S__'])
    const values: Record<string, string> = { __T__: '1700000000.abc', __S__: 'f00d' }
    const value = (slot: string) => values[slot]!
    const expected = html.replaceAll('__T__', values.__T__!).replaceAll('__S__', values.__S__!)
    expect((await stamp(page, value, null)).toString()).toBe(expected)
    for (const encoding of ['gzip', 'br'] as const) {
      const bytes = await stamp(page, value, encoding)
      expect(decode[encoding](bytes).toString(), encoding).toBe(expected)
      // Compressed once: far smaller than the page.
      expect(bytes.length, encoding).toBeLessThan(Buffer.byteLength(expected) / 5)
    }
  })

  it('compresses everything before the first slot as one stream', async () => {
    // A page whose fixed text repeats across where its slots stood before: brotli finds it all.
    const section = `<section>${'акция '.repeat(40)}</section>`
    const html = `${section}<form>${section}</form>${section}<input value="@@">`
    const page = stampedPage(html, /@@/)
    const one = await stamp(page, () => 'x'.repeat(40), 'br')
    expect(one.length).toBeLessThan(250)
  })

  it('holds for any page and any values (empty runs and values, long tails included)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ maxLength: 300, unit: 'grapheme' }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.string({ maxLength: 40 }), { minLength: 6, maxLength: 6 }),
        fc.nat({ max: 70_000 }),
        async (runs, values, padding) => {
          // Some tails longer than one stored block holds.
          const html = runs.join('@@') + (padding > 60_000 ? 'я'.repeat(padding) : '')
          const page = stampedPage(html, /@@/, { brotliQuality: 1 })
          for (const encoding of ['gzip', 'br'] as const) {
            let i = 0
            const next = () => values[i++ % values.length]!
            const raw = await stamp(page, next, null)
            i = 0
            const bytes = await stamp(page, next, encoding)
            expect(decode[encoding](bytes).equals(raw), encoding).toBe(true)
          }
        },
      ),
      { numRuns: 150 },
    )
  })
})
