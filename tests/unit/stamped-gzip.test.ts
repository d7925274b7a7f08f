import { gunzipSync } from 'node:zlib'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { stamp, stampedPage } from '../../server/published/stamped-gzip.ts'

describe('stamped gzip', () => {
  it('decodes to the page with each answer’s own values', () => {
    const html = `<p>${'привет '.repeat(500)}</p><input value="__T__"><i>__S__-1</i><b>__S__-2</b>end`
    const page = stampedPage(html, /__T__|__S__/)
    expect(page.slots).toEqual(['__T__', '__S__', '__S__'])
    const values: Record<string, string> = { __T__: '1700000000.abc', __S__: 'f00d' }
    const { raw, gzip } = stamp(page, (slot) => values[slot]!)
    const expected = html.replaceAll('__T__', values.__T__!).replaceAll('__S__', values.__S__!)
    expect(raw.toString()).toBe(expected)
    expect(gunzipSync(gzip).toString()).toBe(expected)
    // Compressed once: far smaller than the page.
    expect(gzip.length).toBeLessThan(raw.length / 5)
  })

  it('holds for any page and any values (empty runs and values included)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 300, unit: 'grapheme' }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.string({ maxLength: 40 }), { minLength: 6, maxLength: 6 }),
        (runs, values) => {
          const html = runs.join('@@')
          const page = stampedPage(html, /@@/)
          let i = 0
          const { raw, gzip } = stamp(page, () => values[i++ % values.length]!)
          expect(gunzipSync(gzip).equals(raw)).toBe(true)
        },
      ),
      { numRuns: 200 },
    )
  })
})
