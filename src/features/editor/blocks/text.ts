import { msg } from '@lingui/core/macro'
import { textDomain } from '../../../domain/blocks/text.ts'
import { LINE_HEIGHT, paint } from './shared.ts'
import type { BlockDefinition } from './types.ts'

/** Text: a wrapped paragraph as high as its lines, on an optional background colour. */
export const textBlock: BlockDefinition<'text'> = {
  type: 'text',
  label: msg`Текст`,
  defaults: (base, bg, texts) => {
    const portrait = bg.height > bg.width
    return {
      ...base,
      type: 'text',
      ...textDomain.defaults,
      width: portrait ? 80 : 50,
      fontSize: portrait ? 10 : 4,
      text: texts.text,
    }
  },
  storedHeight: false,
  handles: {
    sides: 'width',
    heightFollows: 'content',
    cornerAspect: 'always',
    scalesFont: true,
    minScreenPx: 8,
  },
  content: [
    { kind: 'text', field: 'text', label: msg`Текст`, multiline: true },
    {
      kind: 'text',
      field: 'name',
      label: msg`Название`,
      description: msg`Видно только в редакторе`,
    },
  ],
  style: [
    { kind: 'number', field: 'width', label: msg`Ширина`, suffix: '%' },
    { kind: 'number', field: 'fontSize', label: msg`Размер шрифта` },
    { kind: 'font', field: 'font', label: msg`Шрифт` },
    { kind: 'align', field: 'align' },
    { kind: 'color', field: 'color', label: msg`Цвет текста` },
    { kind: 'color', field: 'background', label: msg`Фон`, allowTransparent: true },
  ],
  fonts: (block) => [{ font: block.font, weight: 400 }],
  appearance: (block) => {
    const w = block.width * 2
    return {
      w,
      h: null,
      primitives: [
        { kind: 'rect', x: 0, y: 0, w, h: null, fill: paint(block.background, null), radius: 0 },
        {
          kind: 'text',
          x: 0,
          y: 0,
          anchor: 'top',
          width: w,
          text: block.text,
          font: block.font,
          weight: 400,
          size: block.fontSize,
          lineHeight: LINE_HEIGHT,
          color: paint(block.color, '#000000'),
          align: block.align,
          breakWords: true,
          sizesBlock: true,
        },
      ],
    }
  },
}
