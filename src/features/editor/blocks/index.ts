import type { BlockOf, BlockType } from '../../../domain/block.ts'
import type { LocalBlock } from '../editor-data.ts'
import { buttonBlock } from './button.ts'
import { giftBlock } from './gift.ts'
import { imageBlock } from './image.ts'
import { priceBlock } from './price.ts'
import { subscribeBlock } from './subscribe.ts'
import { textBlock } from './text.ts'
import type { Appearance, AppearanceContext, BlockDefinition } from './types.ts'
import { videoBlock } from './video.ts'

/**
 * Every block type's definition (docs/editor.md «Block types»). A new type is one more module
 * beside these and one more line here (and its fields in `domain/block.ts`).
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

export function definitionOf<T extends BlockType>(type: T): BlockDefinition<T> {
  return BLOCK_DEFINITIONS[type]
}

/** What a block looks like, the same for the canvas and the preview. */
export function appearanceOf(block: LocalBlock, ctx: AppearanceContext): Appearance {
  const def = BLOCK_DEFINITIONS[block.type] as BlockDefinition<BlockType>
  return def.appearance(block as BlockOf<BlockType>, ctx)
}

export type * from './types.ts'
