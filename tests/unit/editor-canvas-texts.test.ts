// @vitest-environment jsdom
import { describe, expect, it } from 'vitest'
import type { BlockOf } from '../../src/domain/block.ts'
import { cardTexts, type BlockViewProps } from '../../src/features/editor/canvas/block-view.tsx'
import { defaultBlock } from '../../src/features/editor/model/block-shape.ts'

const texts = {
  text: 'Т',
  button: 'Кнопка',
  gift: 'Подарок',
  priceButton: 'Купить',
  subscribeAction: 'Записаться',
}
const BG = { width: 1600, height: 900 }

describe('what the canvas writes on a card', () => {
  it('says the default action of a subscribe card with none, as the preview does', () => {
    const card = {
      ...defaultBlock('subscribe', 1, BG, 0, texts),
      action: '',
    } as BlockOf<'subscribe'>
    const props = {
      labels: { subscribe: 'Записаться', noSpecialist: 'Специалист не выбран', noDate: '—' },
      specialistName: () => null,
    } as unknown as BlockViewProps
    expect(cardTexts(card, props).button).toBe('Записаться')
    expect(cardTexts({ ...card, action: 'Хочу' }, props).button).toBe('Хочу')
  })
})
