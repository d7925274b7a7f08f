import { msg } from '@lingui/core/macro'
import { buttonDomain } from '../../../domain/blocks/button.ts'
import { buttonHref } from '../model/links.ts'
import { boxUnits, heightPercent, LINE_HEIGHT, paint } from './shared.ts'
import type { BlockDefinition, Units } from './types.ts'

/**
 * The corner radius of a button, in stored units: half its height (a pill) up to 8 units.
 */
export function buttonRadiusUnits(heightUnits: Units): Units {
  return Math.max(0, Math.min(heightUnits / 2, 8))
}

/**
 * Button: a rounded face in its colour with an inner border, its label wrapped inside a padding of
 * the border's width but at least 4 units. The face is what a visitor presses.
 */
export const buttonBlock: BlockDefinition<'button'> = {
  type: 'button',
  label: msg`Кнопка`,
  defaults: (base, bg, texts) => {
    const portrait = bg.height > bg.width
    const width = portrait ? 60 : 20
    return {
      ...base,
      type: 'button',
      ...buttonDomain.defaults,
      width,
      height: heightPercent(width, portrait ? 0.22 : 0.25, bg),
      fontSize: portrait ? 8 : 3,
      text: texts.button,
    }
  },
  storedHeight: true,
  handles: {
    sides: 'both',
    heightFollows: 'stored',
    cornerAspect: 'never',
    scalesFont: false,
    minScreenPx: 8,
  },
  content: [
    { kind: 'text', field: 'text', label: msg`Текст кнопки` },
    {
      kind: 'text',
      field: 'name',
      label: msg`Название`,
      description: msg`Видно только в редакторе`,
    },
  ],
  style: [
    { kind: 'number', field: 'width', label: msg`Ширина`, suffix: '%' },
    { kind: 'number', field: 'height', label: msg`Высота`, suffix: '%' },
    { kind: 'number', field: 'fontSize', label: msg`Размер шрифта` },
    { kind: 'number', field: 'border_width', label: msg`Толщина рамки` },
    { kind: 'font', field: 'font', label: msg`Шрифт` },
    { kind: 'align', field: 'align' },
    { kind: 'color', field: 'color', label: msg`Цвет текста` },
    { kind: 'color', field: 'background', label: msg`Цвет кнопки`, allowTransparent: true },
    { kind: 'color', field: 'border_color', label: msg`Цвет рамки` },
  ],
  fonts: (block) => [{ font: block.font, weight: 400 }],
  // A link (a phone or an e-mail address opens in place), or a jump to a background.
  action: (block) => {
    const href = buttonHref(block.btn_type, block.btn_type_value) ?? undefined
    if (block.btn_type === 'target') {
      const id = Number(block.btn_type_value.trim())
      return { element: 'link', href, goTo: Number.isInteger(id) ? id : null }
    }
    return { element: 'link', href, newTab: href !== undefined && /^https?:/.test(href) }
  },
  appearance: (block, ctx) => {
    const { w, h } = boxUnits(block.width, block.height, ctx.bgHeight)
    const border = block.border_width
    const pad = Math.max(border, 4)
    return {
      w,
      h,
      primitives: [
        {
          kind: 'rect',
          x: 0,
          y: 0,
          w,
          h,
          fill: paint(block.background, null),
          radius: buttonRadiusUnits(h),
          border:
            border > 0
              ? { width: border, color: paint(block.border_color, '#000000'), alpha: 1 }
              : undefined,
          action: true,
          label: {
            kind: 'text',
            x: pad,
            y: h / 2,
            anchor: 'middle',
            width: Math.max(0, w - 2 * pad),
            text: block.text,
            font: block.font,
            weight: 400,
            size: block.fontSize,
            lineHeight: LINE_HEIGHT,
            color: paint(block.color, '#ffffff'),
            align: block.align,
            breakWords: false,
          },
        },
      ],
    }
  },
}
