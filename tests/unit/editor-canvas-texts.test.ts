// @vitest-environment jsdom
import { describe, expect, it } from 'vitest'
import type { BlockOf } from '../../src/domain/block.ts'
import { appearanceOf } from '../../src/features/editor/blocks/index.ts'
import type { BlockLabels, Primitive } from '../../src/features/editor/blocks/types.ts'
import { defaultBlock } from '../../src/features/editor/model/block-shape.ts'

const texts = {
  text: 'Т',
  button: 'Кнопка',
  gift: 'Подарок',
  priceButton: 'Купить',
  subscribeAction: 'Записаться',
}
const BG = { width: 1600, height: 900 }
const labels = {
  subscribe: 'Записаться',
  noSpecialist: 'Специалист не выбран',
  watchVideo: 'Смотреть видео',
  noDate: '—',
} as BlockLabels

/** The words of a block's appearance, its buttons' labels included, in drawing order. */
function words(primitives: Primitive[]): string[] {
  return primitives.flatMap((p) =>
    p.kind === 'text' ? [p.text] : p.kind === 'rect' && p.label ? [p.label.text] : [],
  )
}

describe('what a card says, on the canvas and in the preview alike', () => {
  it('says the default action of a subscribe card with none', () => {
    const card = {
      ...defaultBlock('subscribe', 1, BG, 0, texts),
      action: '',
    } as BlockOf<'subscribe'>
    const ctx = { bgHeight: 112.5, labels, specialistName: () => null }
    expect(words(appearanceOf(card, ctx).primitives)).toEqual([
      'Специалист не выбран',
      '—',
      'Записаться',
    ])
    expect(words(appearanceOf({ ...card, action: 'Хочу' }, ctx).primitives)).toContain('Хочу')
  })
})
