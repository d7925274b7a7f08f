import { msg } from '@lingui/core/macro'
import { subscribeDomain } from '../../../domain/blocks/subscribe.ts'
import { formatDayMonth } from '../../../domain/format.ts'
import {
  CARD_FONTS,
  CARD_HANDLES,
  cardPrimitives,
  CARD_RATIO,
  DEFAULT_CARD_WIDTH,
} from './shared.ts'
import type { BlockDefinition } from './types.ts'

/**
 * Subscribe: a blue card with the specialist («Специалист не выбран»), the date («Дата не выбрана»)
 * and the action («Записаться» by default).
 */
export const subscribeBlock: BlockDefinition<'subscribe'> = {
  type: 'subscribe',
  label: msg`Запись`,
  defaults: (base, bg, texts) => ({
    ...base,
    type: 'subscribe',
    ...subscribeDomain.defaults,
    width: bg.height > bg.width ? 80 : 30,
    action: texts.subscribeAction,
  }),
  storedHeight: false,
  handles: CARD_HANDLES,
  content: [
    { kind: 'text', field: 'date', label: msg`Дата`, input: 'date' },
    {
      kind: 'text',
      field: 'action',
      label: msg`Действие`,
      description: msg`Текст кнопки, например «Записаться»`,
    },
  ],
  style: [{ kind: 'number', field: 'width', label: msg`Ширина`, suffix: '%' }],
  fonts: () => CARD_FONTS,
  action: () => ({ element: 'button' }),
  appearance: (block, ctx) => {
    const w = (block.width ?? DEFAULT_CARD_WIDTH) * 2
    const texts = {
      title: ctx.specialistName(block.specialist_id) ?? ctx.labels.noSpecialist,
      sub: block.date
        ? formatDayMonth(block.date, { withYear: true }) || block.date
        : ctx.labels.noDate,
      button: block.action || ctx.labels.subscribe,
    }
    return { w, h: w * CARD_RATIO, primitives: cardPrimitives(w, '#1c7ed6', texts) }
  },
  requestForm: (block, { labels, specialist }) => ({
    title: specialist?.name ?? labels.noSpecialist,
    lines: [specialist?.position ?? '', formatDayMonth(block.date)].filter(Boolean),
    submit: block.action.trim() || labels.subscribe,
    comment: true,
  }),
}
