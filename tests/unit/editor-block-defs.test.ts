import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { BLOCK_SCHEMAS, BLOCK_TYPES } from '../../src/domain/block.ts'
import { appearanceOf, BLOCK_DEFINITIONS } from '../../src/features/editor/blocks/index.ts'
import type { BlockLabels } from '../../src/features/editor/blocks/types.ts'
import { halfHeightUnits } from '../../src/domain/geometry.ts'
import {
  defaultBlock,
  heightUnits,
  widthUnits,
} from '../../src/features/editor/model/block-shape.ts'

const texts = {
  text: 'Текст',
  button: 'Кнопка',
  gift: 'Подарок',
  priceButton: 'Купить',
  subscribeAction: 'Записаться',
}
const WIDE = { width: 1600, height: 900 }
const ctx = {
  bgHeight: 112.5,
  labels: { image: 'Изображение', video: 'Видео' } as BlockLabels,
  specialistName: () => null,
}

describe('block type definitions (docs/editor.md «Block types: one module each»)', () => {
  it.each(BLOCK_TYPES)(
    '%s: its new block passes the schema and its inspector edits its own fields',
    (type) => {
      const def = BLOCK_DEFINITIONS[type]
      expect(def.type).toBe(type)
      const block = defaultBlock(type, 1, WIDE, 0, texts)
      expect(v.safeParse(BLOCK_SCHEMAS[type], block).success).toBe(true)
      for (const field of def.style) if ('field' in field) expect(block).toHaveProperty(field.field)
      // Eight handles exactly where the height is stored.
      expect(def.handles.sides === 'both').toBe(def.storedHeight)
      expect(def.handles.heightFollows === 'stored').toBe(def.storedHeight)
    },
  )

  // A story slide (9:16) and a landing section: a new block lands whole inside either.
  it.each(
    BLOCK_TYPES.flatMap((type) => [
      [type, 'slide', { width: 1080, height: 1920 }] as const,
      [type, 'section', WIDE] as const,
    ]),
  )('%s: a new block lands inside a %s', (type, _kind, bg) => {
    const block = defaultBlock(type, 1, bg, 0, texts)
    const halfWidth = widthUnits(block) / 2
    const halfHeight = heightUnits(block, bg) / 2
    expect(Math.abs(block.x) + halfWidth).toBeLessThanOrEqual(100)
    expect(Math.abs(block.y) + halfHeight).toBeLessThanOrEqual(halfHeightUnits(bg))
  })

  it('draws a button without a colour as transparent, with its label on the face a visitor presses', () => {
    const button = { ...defaultBlock('button', 1, WIDE, 0, texts), background: 'transparent' }
    const [face] = appearanceOf(button, ctx).primitives
    expect(face).toMatchObject({ kind: 'rect', fill: null, action: true })
    expect(face!.kind === 'rect' && face!.label?.text).toBe('Кнопка')
  })

  it('leaves an empty picture’s stand-in to the editor', () => {
    const image = defaultBlock('image', 1, WIDE, 0, texts)
    const look = appearanceOf(image, ctx)
    expect(look.primitives.length).toBeGreaterThan(0)
    expect(look.primitives.every((p) => 'editorOnly' in p && p.editorOnly)).toBe(true)
  })
})
