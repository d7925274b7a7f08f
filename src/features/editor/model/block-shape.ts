import type { BlockOf, BlockType } from '../../../domain/block.ts'
import { halfHeightUnits, type Box, type Size } from '../../../domain/geometry.ts'
import { BLOCK_DEFINITIONS } from '../blocks/index.ts'
import { CARD_RATIO, DEFAULT_CARD_WIDTH, LINE_HEIGHT } from '../blocks/shared.ts'
import type { BlockDefinition, DefaultTexts } from '../blocks/types.ts'
import type { LocalBlock } from '../editor-data.ts'

/**
 * Block shapes on the 200-unit basis: the default block of each type and the box a block takes
 * (centre, size, rotation) in stored units, where the background is 200 wide and centred on 0.
 */

export { CARD_RATIO, DEFAULT_CARD_WIDTH, LINE_HEIGHT } from '../blocks/shared.ts'
export { buttonRadiusUnits } from '../blocks/button.ts'
export type { DefaultTexts } from '../blocks/types.ts'

/** A new block of `type`, centred on the background (each type's defaults: `blocks/<type>.ts`). */
export function defaultBlock(
  type: BlockType,
  bgId: number,
  bg: Size,
  zindex: number,
  texts: DefaultTexts,
): LocalBlock {
  const base = { bg_id: bgId, x: 0, y: 0, zindex, rotation: 0 }
  return (BLOCK_DEFINITIONS[type] as BlockDefinition<BlockType>).defaults(base, bg, texts)
}

/** Width in stored units (percent of the background's width × 2). */
export function widthUnits(block: LocalBlock): number {
  return (block.width ?? DEFAULT_CARD_WIDTH) * 2
}

/**
 * An estimate of a text's height in stored units: lines × font size × line height, where a line
 * holds about width / (0.55 × font size) characters. The canvas measures the real height and passes
 * it in where it has it.
 */
export function estimateTextHeight(text: string, fontSize: number, width: number): number {
  const perLine = Math.max(1, Math.floor(width / (0.55 * fontSize)))
  const lines = text
    .split('\n')
    .reduce((sum, line) => sum + Math.max(1, Math.ceil(Array.from(line).length / perLine)), 0)
  return lines * fontSize * LINE_HEIGHT
}

/** Height in stored units; `measured` (units) wins for text blocks. */
export function heightUnits(block: LocalBlock, bg: Size, measured?: number): number {
  // What the height follows is the type's (`blocks/<type>.ts` `handles.heightFollows`).
  switch (BLOCK_DEFINITIONS[block.type].handles.heightFollows) {
    case 'content':
      return (
        measured ??
        ('text' in block && 'fontSize' in block
          ? estimateTextHeight(block.text, block.fontSize, widthUnits(block))
          : 0)
      )
    case 'stored':
      return 'height' in block ? (block.height / 100) * 2 * halfHeightUnits(bg) : 0
    case 'ratio':
      return widthUnits(block) * CARD_RATIO
  }
}

/** The block's box in stored units (the background is 200 wide, centred on 0). */
export function blockBox(block: LocalBlock, bg: Size, measured?: number): Box {
  return {
    cx: block.x,
    cy: block.y,
    width: widthUnits(block),
    height: heightUnits(block, bg, measured),
    rotation: block.rotation,
  }
}

/** The types whose blocks store a `height` (button, image, video). */
export type StoredHeightType = {
  [T in BlockType]: BlockOf<T> extends { height: number } ? T : never
}[BlockType]

/** Whether a type's height is stored (button, image, video) or follows from its content. */
export function hasStoredHeight(type: BlockType): type is StoredHeightType {
  return BLOCK_DEFINITIONS[type].storedHeight
}

export type WithHeight = BlockOf<StoredHeightType>
