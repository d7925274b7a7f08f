import { msg } from '@lingui/core/macro'
import { giftDomain } from '../../../domain/blocks/gift.ts'
import { safeHref } from '../model/links.ts'
import {
  CARD_FONTS,
  CARD_HANDLES,
  cardPrimitives,
  CARD_RATIO,
  DEFAULT_CARD_WIDTH,
  paint,
} from './shared.ts'
import type { BlockDefinition } from './types.ts'

/** Gift: a pink card with its text and «Получить подарок». */
export const giftBlock: BlockDefinition<'gift'> = {
  type: 'gift',
  label: msg`Подарок`,
  defaults: (base, bg, texts) => ({
    ...base,
    type: 'gift',
    ...giftDomain.defaults,
    width: bg.height > bg.width ? 80 : 30,
    text: texts.gift,
  }),
  storedHeight: false,
  handles: CARD_HANDLES,
  content: [
    { kind: 'text', field: 'text', label: msg`Текст`, multiline: true },
    {
      kind: 'text',
      field: 'name',
      label: msg`Название`,
      description: msg`Видно только в редакторе`,
    },
    { kind: 'text', field: 'button_url', label: msg`Ссылка кнопки`, input: 'url' },
    {
      kind: 'text',
      field: 'button_hook_url',
      label: msg`Адрес вебхука кнопки`,
      description: msg`Сюда придёт заявка, когда посетитель нажмёт кнопку`,
      input: 'url',
    },
  ],
  style: [
    { kind: 'number', field: 'width', label: msg`Ширина`, suffix: '%' },
    { kind: 'color', field: 'color', label: msg`Цвет` },
  ],
  fonts: () => CARD_FONTS,
  // Its link when it has one, else a button (on the published page: its request form).
  action: (block) => {
    const href = safeHref(block.button_url)
    return href ? { element: 'link', href, newTab: true } : { element: 'button' }
  },
  appearance: (block, ctx) => {
    const w = (block.width ?? DEFAULT_CARD_WIDTH) * 2
    const texts = { title: block.text, sub: '', button: ctx.labels.giftButton }
    return {
      w,
      h: w * CARD_RATIO,
      primitives: cardPrimitives(w, paint(block.color, giftDomain.defaults.color), texts),
    }
  },
  requestForm: (block, { labels }) => ({
    title: block.text || labels.giftButton,
    lines: [],
    submit: labels.giftButton,
    comment: false,
    gift: { text: block.text, url: block.button_url },
  }),
}
