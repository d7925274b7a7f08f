import { msg } from '@lingui/core/macro'
import { priceDomain } from '../../../domain/blocks/price.ts'
import { formatPrice } from '../../../domain/format.ts'
import { parsePrice } from '../../../domain/price.ts'
import {
  CARD_FONTS,
  CARD_HANDLES,
  cardPrimitives,
  CARD_RATIO,
  DEFAULT_CARD_WIDTH,
  paint,
} from './shared.ts'
import type { BlockDefinition } from './types.ts'

/** Price: a green card with the price («1 500 ₽») and its button («Купить» by default). */
export const priceBlock: BlockDefinition<'price'> = {
  type: 'price',
  label: msg`Цена`,
  defaults: (base, bg, texts) => {
    const text = formatPrice(1000)
    return {
      ...base,
      type: 'price',
      ...priceDomain.defaults,
      width: bg.height > bg.width ? 80 : 30,
      text,
      text_price: parsePrice(text),
      button_text: texts.priceButton,
    }
  },
  storedHeight: false,
  handles: CARD_HANDLES,
  content: [{ kind: 'text', field: 'button_text', label: msg`Текст кнопки` }],
  style: [
    { kind: 'number', field: 'width', label: msg`Ширина`, suffix: '%' },
    { kind: 'color', field: 'color', label: msg`Цвет` },
  ],
  fonts: () => CARD_FONTS,
  action: () => ({ element: 'button' }),
  appearance: (block, ctx) => {
    const w = (block.width ?? DEFAULT_CARD_WIDTH) * 2
    const texts = {
      title: block.text_price !== null ? formatPrice(block.text_price) : block.text,
      sub: '',
      button: block.button_text || ctx.labels.buy,
    }
    return {
      w,
      h: w * CARD_RATIO,
      primitives: cardPrimitives(w, paint(block.color, priceDomain.defaults.color), texts),
    }
  },
  requestForm: (block, { labels }) => {
    const price = block.text_price !== null ? formatPrice(block.text_price) : ''
    return {
      title: block.text || price,
      lines: price && block.text ? [price] : [],
      submit: block.button_text.trim() || labels.buy,
      comment: false,
    }
  },
}
