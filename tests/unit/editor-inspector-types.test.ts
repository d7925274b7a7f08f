import { describe, expect, expectTypeOf, it } from 'vitest'
import type {
  AnyBlockPatch,
  ContentField,
  BlockPatch,
  FieldOf,
  StyleField,
} from '../../src/features/editor/blocks/types.ts'
import type { FieldContext } from '../../src/features/editor/inspector/fields.tsx'

/**
 * The inspector's commits are typed per block type (docs/editor.md «The editor core»): these
 * checks run in the type-check (`npx tsc -b`); an `@ts-expect-error` that stops erring fails it.
 */
describe('typed inspector fields', () => {
  it('offers each type its own fields, of the right kind', () => {
    expectTypeOf<'text' | 'fontSize'>().toExtend<FieldOf<'text', unknown>>()
    expectTypeOf<'button_url'>().toExtend<FieldOf<'gift', string>>()
    expectTypeOf<'specialist_id'>().toExtend<FieldOf<'subscribe', number | null>>()
    // @ts-expect-error a text has no link of its own
    expectTypeOf<'button_url'>().toExtend<FieldOf<'text', string>>()
    // @ts-expect-error a text's words are not a number
    expectTypeOf<'text'>().toExtend<FieldOf<'text', number | undefined>>()
    // @ts-expect-error nothing edits a block's background or id
    expectTypeOf<'bg_id' | 'id'>().toExtend<FieldOf<'text', unknown>>()
    // @ts-expect-error an «Оформление» field the type does not have
    const field: StyleField<'image'> = { kind: 'color', field: 'color', label: { id: 'x' } }
    expect(field).toBeTruthy()
    const link: ContentField<'gift'> = { kind: 'text', field: 'button_url', label: { id: 'x' } }
    // @ts-expect-error a content field the type does not have
    const other: ContentField<'text'> = { kind: 'text', field: 'button_url', label: { id: 'x' } }
    // @ts-expect-error a price's amount is not a text field
    const amount: ContentField<'price'> = { kind: 'text', field: 'text_price', label: { id: 'x' } }
    expect([link, other, amount]).toHaveLength(3)
  })

  it('commits only patches of the block’s own type', () => {
    const commits: AnyBlockPatch[] = []
    const ctx: FieldContext<'price'> = {
      block: undefined as never,
      commit: (patch) => commits.push(patch),
    }
    ctx.commit({ text: '1 500 ₽', text_price: 1500 }, 'text')
    // @ts-expect-error a price has no image
    ctx.commit({ image_url: 'x' }, 'image_url')
    // @ts-expect-error a price's amount is a number
    const wrong: BlockPatch<'price'> = { text_price: '1500' }
    expect(wrong).toBeTruthy()
    expect(commits[0]).toEqual({ text: '1 500 ₽', text_price: 1500 })
  })
})
