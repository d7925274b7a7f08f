import { halfHeightUnits, normalizeRotation, type Size } from '../../../domain/geometry.ts'
import type { LocalBlock } from '../editor-data.ts'
import { BLOCK_DEFINITIONS } from '../blocks/index.ts'
import { CARD_RATIO, widthUnits } from './block-shape.ts'

export { backgroundAnchor, buttonHref, buttonLink, safeHref } from './links.ts'

/**
 * Where a block sits in the visitor's view, in percentages of its background, so the page scales
 * with whatever width the background is drawn at (docs/editor.md "Geometry"). `left`/`top` are
 * the block's centre (the box is drawn translated by -50% and turned about that centre).
 */
export interface PreviewBox {
  /** Centre, percent of the background's width from its left edge. */
  left: number
  /** Centre, percent of the background's height from its top edge. */
  top: number
  /** Percent of the background's width. */
  width: number
  /** Percent of the background's height; null: as high as the content (text). */
  height: number | null
  /** Degrees clockwise about the centre. */
  rotation: number
  zIndex: number
  /** Font size in percent of the background's width (CSS `cqw`); null for types without one. */
  fontSize: number | null
}

/** A block's box in percentages of its background. */
export function previewBox(block: LocalBlock, bg: Size): PreviewBox {
  const half = halfHeightUnits(bg)
  const width = widthUnits(block) / 2
  let height: number | null = null
  const follows = BLOCK_DEFINITIONS[block.type].handles.heightFollows
  if (follows === 'stored' && 'height' in block) height = block.height
  else if (follows === 'ratio') height = ((widthUnits(block) * CARD_RATIO) / (2 * half)) * 100
  return {
    left: ((block.x + 100) / 200) * 100,
    top: ((block.y + half) / (2 * half)) * 100,
    width,
    height,
    rotation: normalizeRotation(block.rotation),
    zIndex: block.zindex,
    fontSize: 'fontSize' in block ? block.fontSize / 2 : null,
  }
}

/** Blocks of one background in drawing order (lower zindex first; ties keep their order). */
export function blocksInOrder(blocks: readonly LocalBlock[], bgId: number): LocalBlock[] {
  return blocks
    .map((block, index) => ({ block, index }))
    .filter(({ block }) => block.bg_id === bgId)
    .sort((a, b) => a.block.zindex - b.block.zindex || a.index - b.index)
    .map(({ block }) => block)
}
