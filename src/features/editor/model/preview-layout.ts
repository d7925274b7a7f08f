import { halfHeightUnits, normalizeRotation, type Size } from '../../../domain/geometry.ts'
import type { LocalBlock } from '../editor-data.ts'
import { CARD_RATIO, hasStoredHeight, widthUnits } from './block-shape.ts'

/**
 * Where a block sits in the visitor's view, in percentages of its background, so the page scales
 * with whatever width the background is drawn at (DESIGN §3). `left`/`top` are the block's centre
 * (the box is drawn translated by -50% and turned about that centre).
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
  if (hasStoredHeight(block.type) && 'height' in block) height = block.height
  else if (block.type !== 'text') height = ((widthUnits(block) * CARD_RATIO) / (2 * half)) * 100
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

/** A link a visitor may follow: http(s) only; anything else (javascript:, typos) → null. */
export function safeHref(value: string): string | null {
  const trimmed = value.trim()
  if (!trimmed) return null
  try {
    const url = new URL(trimmed)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null
  } catch {
    return null
  }
}

/**
 * A button's link a visitor may follow: http(s), a phone (`tel:`) or an e-mail address
 * (`mailto:`); anything else (`javascript:`, typos) → null.
 */
export function buttonLink(value: string): string | null {
  const trimmed = value.trim()
  const tel = /^tel:\s*(\+?[\d\s().-]{3,30})$/i.exec(trimmed)
  if (tel) return `tel:${tel[1]!.replace(/[^\d+]/g, '')}`
  const mail = /^mailto:([^\s@<>"'?#]+@[^\s@<>"'?#]+\.[^\s@<>"'?#]+)$/i.exec(trimmed)
  if (mail) return `mailto:${mail[1]}`
  return safeHref(trimmed)
}

/** The page anchor of a background (a section of a landing, a slide of stories). */
export function backgroundAnchor(bgId: number | string): string {
  return `bg-${bgId}`
}

/**
 * A button's destination: a checked link, or for a target (its value is a background's id,
 * docs/editor.md) the anchor of that background.
 */
export function buttonHref(btnType: 'link' | 'target', value: string): string | null {
  if (btnType === 'link') return buttonLink(value)
  const id = value.trim().replace(/^#/, '')
  return id ? `#${backgroundAnchor(encodeURIComponent(id))}` : null
}
