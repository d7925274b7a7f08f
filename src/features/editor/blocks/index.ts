import type { MessageDescriptor } from '@lingui/core'
import * as v from 'valibot'
import { BLOCK_SCHEMAS, isBlockType, type BlockOf, type BlockType } from '../../../domain/block.ts'
import type { LocalBlock } from '../editor-data.ts'
import { buttonBlock } from './button.ts'
import { giftBlock } from './gift.ts'
import { imageBlock } from './image.ts'
import { priceBlock } from './price.ts'
import { subscribeBlock } from './subscribe.ts'
import { textBlock } from './text.ts'
import type {
  Appearance,
  AppearanceContext,
  BlockAction,
  BlockDefinition,
  FontUse,
  RequestFormContext,
  RequestFormLook,
} from './types.ts'
import { videoBlock } from './video.ts'

/**
 * Every block type's definition (docs/editor.md «Block types: one module each»). A new type is one
 * more module beside these and one more line here (and its fields in `domain/block.ts`).
 */
export const BLOCK_DEFINITIONS: { [T in BlockType]: BlockDefinition<T> } = {
  text: textBlock,
  button: buttonBlock,
  image: imageBlock,
  video: videoBlock,
  gift: giftBlock,
  price: priceBlock,
  subscribe: subscribeBlock,
}

/**
 * How the inspector shows a field of a block type (its content and style fields), if one of them
 * is that field: its name, and whether it is a colour. A conflict shows a block's fields so.
 */
export function blockFieldOf(
  type: string,
  field: string,
): { label: MessageDescriptor | undefined; colour: boolean } | undefined {
  if (!isBlockType(type)) return undefined
  const def = BLOCK_DEFINITIONS[type] as BlockDefinition<BlockType>
  const fields: readonly { kind: string; field: string; label?: MessageDescriptor }[] = [
    ...def.content,
    ...def.style,
  ]
  const found = fields.find((f) => f.field === field)
  return found && { label: found.label, colour: found.kind === 'color' }
}

export function definitionOf<T extends BlockType>(type: T): BlockDefinition<T> {
  return BLOCK_DEFINITIONS[type]
}

/** What a block looks like, the same for the canvas and the preview. */
export function appearanceOf(block: LocalBlock, ctx: AppearanceContext): Appearance {
  const def = BLOCK_DEFINITIONS[block.type] as BlockDefinition<BlockType>
  return def.appearance(block as BlockOf<BlockType>, ctx)
}

/** The web font faces a block draws with (`model/fonts.ts` loads them). */
export function fontsOf(block: LocalBlock): readonly FontUse[] {
  const def = BLOCK_DEFINITIONS[block.type] as BlockDefinition<BlockType>
  return def.fonts(block as BlockOf<BlockType>)
}

/** What pressing the block does for a visitor; null: nothing to press. */
export function actionOf(block: LocalBlock): BlockAction | null {
  const def = BLOCK_DEFINITIONS[block.type] as BlockDefinition<BlockType>
  return def.action?.(block as BlockOf<BlockType>) ?? null
}

/**
 * What a request form says for a published page's block, from its stored fields (checked against
 * its type's schema); null: the block takes no requests, or its fields are not its type's.
 */
export function requestFormOf(
  block: { type: string } & Record<string, unknown>,
  ctx: RequestFormContext,
): RequestFormLook | null {
  if (!isBlockType(block.type)) return null
  const def = BLOCK_DEFINITIONS[block.type] as BlockDefinition<BlockType>
  if (!def.requestForm) return null
  const parsed = v.safeParse(BLOCK_SCHEMAS[block.type], block)
  return parsed.success ? def.requestForm(parsed.output as BlockOf<BlockType>, ctx) : null
}

export type * from './types.ts'
