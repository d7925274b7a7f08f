import { describe, expect, it } from 'vitest'
import { defaultBlock } from '../../src/features/editor/model/block-shape.ts'
import type { LocalBlock } from '../../src/features/editor/editor-data.ts'
import {
  blocksInOrder,
  buttonHref,
  previewBox,
  safeHref,
} from '../../src/features/editor/model/preview-layout.ts'

const texts = {
  text: 'Текст',
  button: 'Кнопка',
  gift: 'Подарок',
  priceButton: 'Купить',
  subscribeAction: 'Записаться',
}
const WIDE = { width: 1600, height: 900 } // half height: 56.25 units
const TALL = { width: 900, height: 1600 } // half height: 177.78 units

describe('previewBox', () => {
  it('puts a centred block in the middle of the background', () => {
    const block = defaultBlock('button', 1, WIDE, 0, texts)
    const box = previewBox(block, WIDE)
    expect(box.left).toBeCloseTo(50)
    expect(box.top).toBeCloseTo(50)
    expect(box.width).toBe(block.width)
    expect(box.height).toBe((block as { height: number }).height)
  })

  it('turns the 200-unit centre offset into percentages of width and height', () => {
    const block = { ...defaultBlock('image', 1, WIDE, 0, texts), x: -50, y: 28.125 }
    const box = previewBox(block, WIDE)
    // x: -50 of ±100 → a quarter across; y: 28.125 of ±56.25 → three quarters down.
    expect(box.left).toBeCloseTo(25)
    expect(box.top).toBeCloseTo(75)
  })

  it('measures y against the height of a portrait background', () => {
    const block = { ...defaultBlock('image', 1, TALL, 0, texts), y: -((100 * 1600) / 900) }
    expect(previewBox(block, TALL).top).toBeCloseTo(0)
  })

  it('keeps the rotation about the centre, normalised, and the zindex', () => {
    const block = { ...defaultBlock('text', 1, WIDE, 7, texts), x: 10, rotation: 270 }
    const box = previewBox(block, WIDE)
    expect(box.rotation).toBe(-90)
    expect(box.zIndex).toBe(7)
    // The centre does not move with the rotation.
    expect(box.left).toBeCloseTo(55)
    expect(box.height).toBeNull()
  })

  it('gives the font size in percent of the background width (200 basis)', () => {
    const block = { ...defaultBlock('text', 1, WIDE, 0, texts), fontSize: 8 }
    expect(previewBox(block, WIDE).fontSize).toBe(4)
    expect(previewBox(defaultBlock('image', 1, WIDE, 0, texts), WIDE).fontSize).toBeNull()
  })

  it('derives a card height from its width like the canvas (0.6 of the width)', () => {
    const card = { ...defaultBlock('gift', 1, WIDE, 0, texts), width: 30 }
    const box = previewBox(card, WIDE)
    // 60 units wide → 36 units high, of 112.5 units → 32%.
    expect(box.width).toBe(30)
    expect(box.height).toBeCloseTo(32)
  })
})

describe('blocksInOrder', () => {
  it('keeps one background and sorts by zindex, ties in their order', () => {
    const make = (bg: number, z: number, text: string): LocalBlock =>
      ({ ...defaultBlock('text', bg, WIDE, z, texts), text }) as LocalBlock
    const order = blocksInOrder(
      [make(1, 2, 'c'), make(2, 0, 'other'), make(1, 0, 'a'), make(1, 0, 'b')],
      1,
    ).map((b) => (b.type === 'text' ? b.text : ''))
    expect(order).toEqual(['a', 'b', 'c'])
  })
})

describe('links', () => {
  it('follows http and https only', () => {
    expect(safeHref('https://example.ru/a')).toBe('https://example.ru/a')
    expect(safeHref(' http://example.ru ')).toBe('http://example.ru/')
    expect(safeHref('javascript:alert(1)')).toBeNull()
    expect(safeHref('example.ru')).toBeNull()
    expect(safeHref('')).toBeNull()
  })

  it('turns a target (a background id) into the anchor of that background', () => {
    expect(buttonHref('target', '12')).toBe('#bg-12')
    expect(buttonHref('target', ' #-3 ')).toBe('#bg--3')
    expect(buttonHref('target', 'ф')).toBe(`#bg-${encodeURIComponent('ф')}`)
    expect(buttonHref('target', '  ')).toBeNull()
    expect(buttonHref('link', 'ftp://x')).toBeNull()
  })

  it('a button may also call or write: tel: and mailto:, nothing else', () => {
    expect(buttonHref('link', 'tel:+7 (912) 345-67-89')).toBe('tel:+79123456789')
    expect(buttonHref('link', 'mailto:clinic@example.ru')).toBe('mailto:clinic@example.ru')
    expect(buttonHref('link', 'https://example.ru')).toBe('https://example.ru/')
    for (const bad of [
      'javascript:alert(1)',
      'tel:abc',
      'mailto:nobody',
      'data:text/html,x',
      'TEL:1',
    ]) {
      expect(buttonHref('link', bad), bad).toBeNull()
    }
  })
})
