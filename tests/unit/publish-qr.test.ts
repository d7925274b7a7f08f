import { describe, expect, it } from 'vitest'
import {
  pngScale,
  qrCode,
  qrPath,
  qrSide,
  qrSvg,
  QUIET_ZONE,
} from '../../src/features/publishing/dialog/qr.ts'
import { pageProgress, pageState } from '../../src/features/publishing/page-state.ts'
import '../../src/app/i18n.ts'
import { checkSlug } from '../../src/features/publishing/dialog/check-slug.ts'

const URL_ = 'https://promo.example.ru/p/letnyaya-aktsiya'

/** The modules the path paints, read back from its `M x y h w v1 h-w z` runs. */
function painted(path: string): Set<string> {
  const out = new Set<string>()
  for (const [, x, y, w] of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g))
    for (let i = 0; i < Number(w); i += 1) out.add(`${Number(y)},${Number(x) + i}`)
  return out
}

describe('the QR code of a page address', () => {
  const code = qrCode(URL_)

  it('is the smallest version that holds the address at level M, with its finder patterns', () => {
    // 43 bytes at level M need version 4: 33 modules a side.
    expect(code.size).toBe(33)
    for (const [r, c] of [
      [0, 0],
      [0, code.size - 1],
      [code.size - 1, 0],
    ] as const) {
      const dr = r === 0 ? 1 : -1
      const dc = c === 0 ? 1 : -1
      // The outer ring is dark, the ring inside it light, the 3×3 centre dark.
      expect(code.dark(r, c)).toBe(true)
      expect(code.dark(r + dr, c + dc)).toBe(false)
      expect(code.dark(r + 3 * dr, c + 3 * dc)).toBe(true)
      expect(code.dark(r + 7 * dr, c + 7 * dc)).toBe(false)
    }
  })

  it('the path paints exactly the dark modules, inside the quiet zone', () => {
    const cells = painted(qrPath(code))
    let dark = 0
    for (let r = 0; r < code.size; r += 1)
      for (let c = 0; c < code.size; c += 1) {
        if (code.dark(r, c)) dark += 1
        expect(cells.has(`${r + QUIET_ZONE},${c + QUIET_ZONE}`)).toBe(code.dark(r, c))
      }
    expect(cells.size).toBe(dark)
  })

  it('the SVG file is black on white at any size, named by its address', () => {
    const svg = qrSvg(code, URL_)
    const side = qrSide(code)
    expect(side).toBe(41)
    expect(svg).toContain(`viewBox="0 0 ${side} ${side}"`)
    expect(svg).toContain('<rect width="41" height="41" fill="#fff"/>')
    expect(svg).toContain(`<title>${URL_}</title>`)
    expect(svg).toContain('shape-rendering="crispEdges"')
    expect(qrSvg(code, 'a<b&c')).toContain('<title>a&lt;b&amp;c</title>')
    // The PNG is at least 1,000 px a side.
    expect(pngScale(code) * side).toBeGreaterThanOrEqual(1000)
  })
})

describe('the page state and the address field', () => {
  it('reads the state from the row', () => {
    expect(pageState({ published: null })).toBe('draft')
    expect(pageState({})).toBe('draft')
    const published = { slug: 'a', url: 'u', published_at: 't', changed_since: false }
    expect(pageState({ published })).toBe('published')
    expect(pageState({ published: { ...published, changed_since: true } })).toBe('changed')
    expect(pageProgress('publish', false)).toBe('publish-offline')
    expect(pageProgress('publish', true)).toBe('publishing')
    expect(pageProgress('unpublish', false)).toBe('unpublish-offline')
    expect(pageProgress(undefined, false)).toBeNull()
  })

  it('checks an address with the shared Slug schema before anything is queued', () => {
    expect(checkSlug('  Leto-2026 ')).toEqual({ slug: 'leto-2026' })
    expect(checkSlug('ab')).toEqual({
      error: 'От 3 до 60 символов: латинские буквы, цифры и дефис между ними',
    })
    expect(checkSlug('лето')).toHaveProperty('error')
    expect(checkSlug('a--b')).toHaveProperty('error')
    expect(checkSlug('admin')).toEqual({ error: 'Этот адрес занят системой, выберите другой' })
  })
})
