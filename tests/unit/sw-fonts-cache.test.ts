// @vitest-environment jsdom
import { describe, expect, it } from 'vitest'
import { isFontRequest } from '../../workers/sw/fonts-cache.ts'

const ORIGIN = 'https://promo.example'

function info(path: string, init: { destination?: string; method?: string; origin?: string } = {}) {
  const url = new URL(path, init.origin ?? ORIGIN)
  return {
    url,
    request: {
      method: init.method ?? 'GET',
      destination: (init.destination ?? '') as RequestDestination,
    },
    sameOrigin: url.origin === ORIGIN,
  }
}

describe('service worker font route', () => {
  it('takes the app’s font files, fetched as fonts or named like one', () => {
    expect(
      isFontRequest(
        info('/assets/roboto-cyrillic-400-normal-AbC123.woff2', { destination: 'font' }),
      ),
    ).toBe(true)
    expect(isFontRequest(info('/assets/lora-latin-700-normal-x.woff2'))).toBe(true)
    expect(isFontRequest(info('/node_modules/.vite/x.woff', { destination: 'font' }))).toBe(true)
    expect(isFontRequest(info('/assets/whatever', { destination: 'font' }))).toBe(true)
  })

  it('never touches the API, even a path that looks like a font', () => {
    expect(isFontRequest(info('/api/files/a.woff2', { destination: 'font' }))).toBe(false)
    expect(isFontRequest(info('/api', { destination: 'font' }))).toBe(false)
  })

  it('leaves other files, other methods and other origins alone', () => {
    expect(isFontRequest(info('/assets/index-abc.js', { destination: 'script' }))).toBe(false)
    expect(isFontRequest(info('/uploads/photo.png', { destination: 'image' }))).toBe(false)
    expect(isFontRequest(info('/assets/a.woff2', { method: 'POST' }))).toBe(false)
    expect(
      isFontRequest(
        info('/s/roboto.woff2', { destination: 'font', origin: 'https://fonts.example' }),
      ),
    ).toBe(false)
  })
})
