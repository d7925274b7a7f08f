import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { RESERVED_SLUGS, Slug, SLUG_MAX, slugFromName } from '../../src/domain/publish.ts'

describe('slugFromName', () => {
  it('transliterates Russian names readably', () => {
    expect(slugFromName('Акция на чистку зубов')).toBe('akciya-na-chistku-zubov')
    expect(slugFromName('Щедрый ёжик: «Подарок» №1!')).toBe('shchedryy-ezhik-podarok-1')
    expect(slugFromName('  Spring SALE 2026 ')).toBe('spring-sale-2026')
  })

  it('always makes a valid slug, leaving room for a suffix', () => {
    for (const name of ['', '!!!', 'я', 'api', 'Ъ', 'a'.repeat(300), 'слово '.repeat(40)]) {
      const slug = slugFromName(name)
      expect(v.safeParse(Slug, slug).success, `${name} → ${slug}`).toBe(true)
      expect(slug.length).toBeLessThanOrEqual(SLUG_MAX - 5)
      expect(v.safeParse(Slug, `${slug}-x7k2`).success).toBe(true)
    }
  })
})

describe('Slug', () => {
  it('takes 3–60 of a-z, 0-9 and single inner hyphens, lower-casing what it is given', () => {
    expect(v.parse(Slug, ' Moya-Stranica ')).toBe('moya-stranica')
    for (const bad of ['ab', '-ab', 'ab-', 'a--b', 'a_b', 'страница', 'a'.repeat(61)]) {
      expect(v.safeParse(Slug, bad).success, bad).toBe(false)
    }
  })

  it('refuses reserved words', () => {
    for (const word of RESERVED_SLUGS) {
      if (word.length < 3) continue
      const result = v.safeParse(Slug, word)
      expect(result.success).toBe(false)
      expect(result.issues?.[0]?.message).toBe('reserved_slug')
    }
  })
})
