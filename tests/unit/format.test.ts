import { describe, expect, it } from 'vitest'
import { imageKindOf } from '../../src/domain/image-kind.ts'
import { nestQuotes } from '../../src/domain/quotes.ts'
import { pngImage } from '../support/png.ts'
import {
  formatDayMonth,
  formatK,
  formatPrice,
  formatTime12,
  parsePriceText,
  truncate,
} from '../../src/domain/format.ts'

const NBSP = '\u00a0'

describe('formatPrice', () => {
  it('groups thousands the Russian way and appends the rouble sign', () => {
    expect(formatPrice(1500)).toBe(`1${NBSP}500${NBSP}₽`)
    expect(formatPrice(1234567)).toBe(`1${NBSP}234${NBSP}567${NBSP}₽`)
    expect(formatPrice(0)).toBe(`0${NBSP}₽`)
  })
  it('shows kopecks only when present, always as two digits', () => {
    expect(formatPrice(99.5)).toBe(`99,50${NBSP}₽`)
    expect(formatPrice(1200.5)).toBe(`1${NBSP}200,50${NBSP}₽`)
    expect(formatPrice(1200.004)).toBe(`1${NBSP}200${NBSP}₽`)
    expect(formatPrice(1500.25)).toBe(`1${NBSP}500,25${NBSP}₽`)
  })
  it('returns an empty string for non-numbers', () => {
    expect(formatPrice(Number.NaN)).toBe('')
    expect(formatPrice(Number.POSITIVE_INFINITY)).toBe('')
  })
  it('round-trips through the price parser', () => {
    for (const amount of [0, 7, 1500, 1234567, 99.5]) {
      expect(parsePriceText(formatPrice(amount))).toBe(amount)
    }
  })
})

describe('truncate', () => {
  it('keeps short text as it is', () => {
    expect(truncate('Привет', 6)).toBe('Привет')
    expect(truncate('', 3)).toBe('')
  })
  it('cuts long text and adds an ellipsis', () => {
    expect(truncate('Промо-страница', 5)).toBe('Промо…')
    expect(truncate('Весенняя акция', 9)).toBe('Весенняя…')
  })
  it('never splits an emoji', () => {
    expect(truncate('😀😀😀', 2)).toBe('😀😀…')
  })
  it('treats a negative length as zero', () => {
    expect(truncate('abc', -1)).toBe('…')
  })
})

describe('formatK', () => {
  it('keeps values up to 999 as they are', () => {
    expect(formatK(999)).toBe('999')
    expect(formatK(0)).toBe('0')
    expect(formatK(12.5, 'en')).toBe('12.5')
  })
  it('shows thousands with one decimal and k, localised', () => {
    expect(formatK(1500, 'en')).toBe('1.5k')
    expect(formatK(1500, 'ru')).toBe('1,5k')
    expect(formatK(1000, 'en')).toBe('1.0k')
    expect(formatK(25_340, 'en')).toBe('25.3k')
    expect(formatK(1_250_000, 'en')).toBe('1250.0k')
    expect(formatK(-2500, 'en')).toBe('-2.5k')
  })
  it('defaults to Russian', () => {
    expect(formatK(1500)).toBe('1,5k')
  })
})

describe('formatTime12', () => {
  it('formats hours on a 12-hour clock with AM/PM', () => {
    expect(formatTime12(new Date(2026, 2, 5, 0, 5))).toBe('12:05 AM')
    expect(formatTime12(new Date(2026, 2, 5, 9, 7))).toBe('09:07 AM')
    expect(formatTime12(new Date(2026, 2, 5, 12, 0))).toBe('12:00 PM')
    expect(formatTime12(new Date(2026, 2, 5, 21, 30))).toBe('09:30 PM')
  })
  it('returns an empty string for invalid input', () => {
    expect(formatTime12('not a date')).toBe('')
  })
})

describe('formatDayMonth', () => {
  const date = new Date(2026, 2, 5, 12, 0)
  it('shows day and month in Russian', () => {
    expect(formatDayMonth(date)).toBe('5 марта')
  })
  it('adds the year without the trailing "г."', () => {
    expect(formatDayMonth(date, { withYear: true })).toBe('5 марта 2026')
  })
  it('follows the locale', () => {
    expect(formatDayMonth(date, { locale: 'en' })).toBe('March 5')
    expect(formatDayMonth(date, { locale: 'en', withYear: true })).toBe('March 5, 2026')
  })
  it('accepts timestamps and ISO strings, and rejects garbage', () => {
    expect(formatDayMonth(date.getTime())).toBe('5 марта')
    expect(formatDayMonth('2026-12-31T12:00:00')).toBe('31 декабря')
    expect(formatDayMonth('garbage')).toBe('')
  })
})

describe('nestQuotes', () => {
  it('turns a name’s own quotes into „…“ for use inside «…»', () => {
    expect(nestQuotes('Клиника «Здоровье»')).toBe('Клиника „Здоровье“')
    expect(nestQuotes('Салон "Лотос" и "Роза"')).toBe('Салон „Лотос“ и „Роза“')
    expect(nestQuotes('Рост 5" дюймов')).toBe('Рост 5" дюймов')
    expect(nestQuotes('Без кавычек')).toBe('Без кавычек')
  })
})

describe('imageKindOf', () => {
  it('tells a picture by its first bytes, not its name', () => {
    expect(imageKindOf(new Uint8Array(pngImage(2, 2)))).toBe('png')
    expect(imageKindOf(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg')
    expect(imageKindOf(new TextEncoder().encode('GIF89a……'))).toBe('gif')
    expect(imageKindOf(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '))).toBe('webp')
    expect(imageKindOf(new TextEncoder().encode('%PDF-1.7'))).toBeNull()
    expect(imageKindOf(new Uint8Array([0x89, 0x50]))).toBeNull()
    expect(imageKindOf(new Uint8Array())).toBeNull()
  })
})
