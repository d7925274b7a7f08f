import type { BlockOf, BlockType } from '../../../domain/block.ts'
import { formatPrice } from '../../../domain/format.ts'
import { halfHeightUnits, roundStored, type Box, type Size } from '../../../domain/geometry.ts'
import { parsePrice } from '../../../domain/price.ts'
import type { LocalBlock } from '../editor-data.ts'
import { DEFAULT_FONT } from './fonts.ts'

/**
 * Block shapes on the 200-unit basis: the default block of each type and the box a block takes
 * (centre, size, rotation) in stored units, where the background is 200 wide and centred on 0.
 */

/** Gift, price and subscribe cards are drawn this many times as high as wide. */
export const CARD_RATIO = 0.6
/** Cards without a stored width take this percentage of the background's width. */
export const DEFAULT_CARD_WIDTH = 40
/** Line height of text blocks, relative to the font size. */
export const LINE_HEIGHT = 1.25

/** Words the new blocks start with (translated by the caller). */
export interface DefaultTexts {
  text: string
  button: string
  gift: string
  priceButton: string
  subscribeAction: string
}

/** Height (percent of the background's height) that gives `ratio` = height/width for a box `width`% wide. */
function heightPercent(widthPercent: number, ratio: number, bg: Size): number {
  const widthUnits = widthPercent * 2
  return roundStored(((widthUnits * ratio) / (2 * halfHeightUnits(bg))) * 100)
}

/** A new block of `type`, centred on the background. */
export function defaultBlock(
  type: BlockType,
  bgId: number,
  bg: Size,
  zindex: number,
  texts: DefaultTexts,
): LocalBlock {
  const base = { bg_id: bgId, x: 0, y: 0, zindex, rotation: 0 }
  // Sizes are relative to the background's width, so a phone-shaped slide needs larger ones.
  const portrait = bg.height > bg.width
  const cardWidth = portrait ? 80 : 30
  switch (type) {
    case 'text':
      return {
        ...base,
        type,
        width: portrait ? 80 : 50,
        fontSize: portrait ? 10 : 4,
        font: DEFAULT_FONT,
        align: 'center',
        color: '#212529',
        text: texts.text,
        background: 'transparent',
        name: '',
      }
    case 'button':
      return {
        ...base,
        type,
        width: portrait ? 60 : 20,
        height: heightPercent(portrait ? 60 : 20, portrait ? 0.22 : 0.25, bg),
        btn_type: 'link',
        btn_type_value: '',
        name: '',
        border_width: 0,
        border_color: '#1c7ed6',
        fontSize: portrait ? 8 : 3,
        font: DEFAULT_FONT,
        align: 'center',
        color: '#ffffff',
        background: '#228be6',
        text: texts.button,
      }
    case 'image':
      return {
        ...base,
        type,
        width: portrait ? 80 : 40,
        height: heightPercent(portrait ? 80 : 40, 0.75, bg),
        scaleX: 1,
        scaleY: 1,
        name: '',
        image_url: '',
      }
    case 'video':
      return {
        ...base,
        type,
        width: portrait ? 90 : 60,
        height: heightPercent(portrait ? 90 : 60, 9 / 16, bg),
        scaleX: 1,
        scaleY: 1,
        video_url: '',
        video_src: '',
        name: '',
      }
    case 'gift':
      return {
        ...base,
        type,
        width: cardWidth,
        color: '#e64980',
        text: texts.gift,
        name: '',
        button_url: '',
        button_hook_url: '',
      }
    case 'price': {
      const text = formatPrice(1000)
      return {
        ...base,
        type,
        width: cardWidth,
        color: '#2b8a3e',
        text,
        text_price: parsePrice(text),
        button_text: texts.priceButton,
      }
    }
    case 'subscribe':
      return {
        ...base,
        type,
        width: cardWidth,
        specialist_id: null,
        date: '',
        action: texts.subscribeAction,
      }
  }
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
  switch (block.type) {
    case 'text':
      return measured ?? estimateTextHeight(block.text, block.fontSize, widthUnits(block))
    case 'button':
    case 'image':
    case 'video':
      return (block.height / 100) * 2 * halfHeightUnits(bg)
    default:
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

/** Whether a type's height is stored (button, image, video) or follows from its content. */
export function hasStoredHeight(type: BlockType): type is 'button' | 'image' | 'video' {
  return type === 'button' || type === 'image' || type === 'video'
}

export type WithHeight = BlockOf<'button'> | BlockOf<'image'> | BlockOf<'video'>

/**
 * The corner radius of a button, in stored units, drawn the same by the canvas and the preview: half
 * its height (a pill) up to 8 units.
 */
export function buttonRadiusUnits(heightUnits: number): number {
  return Math.max(0, Math.min(heightUnits / 2, 8))
}
