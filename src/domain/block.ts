import * as v from 'valibot'
import {
  color,
  FieldCode,
  finiteNumber,
  Id,
  LIMITS,
  optionalText,
  optionalWebUrl,
  RowVersion,
  storableString,
} from './validation.ts'

/**
 * Blocks on a background (spec §3, DESIGN §3). Geometry: `x`, `y` are the offset of the block's
 * centre from the background's centre in units where the background's width is 200; `width` is a
 * percentage of the background's width, `height` a percentage of its height; `rotation` is degrees
 * clockwise about the centre; `fontSize` is in the 200-unit basis.
 */
export const BLOCK_TYPES = [
  'text',
  'button',
  'image',
  'video',
  'gift',
  'price',
  'subscribe',
] as const
export type BlockType = (typeof BLOCK_TYPES)[number]

/** Blocks saved with `/api/{type}/add` (with id = update) and deleted with `project/delete_item`. */
export const ITEM_BLOCK_TYPES = ['text', 'button', 'image', 'video'] as const
/** Blocks saved with `/api/{type}/add` or `/update` and deleted with `/api/{type}/delete`. */
export const WIDGET_BLOCK_TYPES = ['gift', 'price', 'subscribe'] as const

export function isWidgetType(type: BlockType): type is (typeof WIDGET_BLOCK_TYPES)[number] {
  return (WIDGET_BLOCK_TYPES as readonly string[]).includes(type)
}

const percent = finiteNumber(0, 1000)
const scale = finiteNumber(0.01, 100)
const fontSize = finiteNumber(0.1, 200)
const ALIGNS = ['left', 'center', 'right'] as const
export const Align = v.picklist(ALIGNS, FieldCode.invalidChoice)
export type Align = v.InferOutput<typeof Align>
export const BUTTON_TYPES = ['link', 'target'] as const
const font = v.pipe(storableString(FieldCode.invalidValue), v.maxLength(100, FieldCode.tooLong))
const name = optionalText(LIMITS.name)

const base = {
  id: v.optional(Id),
  bg_id: Id,
  version: RowVersion,
  x: finiteNumber(),
  y: finiteNumber(),
  zindex: v.pipe(
    v.number(FieldCode.notNumber),
    v.integer(FieldCode.notInteger),
    v.minValue(-1_000_000),
    v.maxValue(1_000_000),
  ),
  rotation: finiteNumber(-360_000, 360_000),
}

export const TextBlock = v.object({
  ...base,
  type: v.literal('text'),
  width: percent,
  fontSize,
  font,
  align: Align,
  color,
  text: optionalText(LIMITS.longText),
  background: color,
  name,
})

export const ButtonBlock = v.object({
  ...base,
  type: v.literal('button'),
  width: percent,
  height: percent,
  btn_type: v.picklist(BUTTON_TYPES, FieldCode.invalidChoice),
  btn_type_value: optionalText(LIMITS.url),
  name,
  border_width: finiteNumber(0, 100),
  border_color: color,
  fontSize,
  font,
  align: Align,
  color,
  background: color,
  text: optionalText(LIMITS.shortText),
})

export const ImageBlock = v.object({
  ...base,
  type: v.literal('image'),
  width: percent,
  height: percent,
  scaleX: scale,
  scaleY: scale,
  name,
  image_url: optionalText(LIMITS.url),
})

export const VideoBlock = v.object({
  ...base,
  type: v.literal('video'),
  width: percent,
  height: percent,
  scaleX: scale,
  scaleY: scale,
  video_url: optionalWebUrl,
  video_src: optionalText(LIMITS.url),
  name,
})

export const GiftBlock = v.object({
  ...base,
  type: v.literal('gift'),
  width: v.optional(percent),
  color,
  text: optionalText(LIMITS.shortText),
  name,
  button_url: optionalWebUrl,
  button_hook_url: optionalWebUrl,
})

export const PriceBlock = v.object({
  ...base,
  type: v.literal('price'),
  width: v.optional(percent),
  color,
  text: optionalText(LIMITS.name),
  text_price: v.nullable(finiteNumber(0, 1e12)),
  button_text: optionalText(LIMITS.name),
})

export const SubscribeBlock = v.object({
  ...base,
  type: v.literal('subscribe'),
  width: v.optional(percent),
  specialist_id: v.nullable(Id),
  /** ISO date (YYYY-MM-DD) or empty. */
  date: v.pipe(
    storableString(FieldCode.invalidDate),
    v.check((s) => s === '' || /^\d{4}-\d{2}-\d{2}/.test(s), FieldCode.invalidDate),
  ),
  action: optionalText(LIMITS.name),
})

export const Block = v.variant('type', [
  TextBlock,
  ButtonBlock,
  ImageBlock,
  VideoBlock,
  GiftBlock,
  PriceBlock,
  SubscribeBlock,
])
export type Block = v.InferOutput<typeof Block>
export type BlockOf<T extends BlockType> = Extract<Block, { type: T }>
export type SavedBlock = Block & { id: number }

export const BLOCK_SCHEMAS = {
  text: TextBlock,
  button: ButtonBlock,
  image: ImageBlock,
  video: VideoBlock,
  gift: GiftBlock,
  price: PriceBlock,
  subscribe: SubscribeBlock,
} as const

export const SavedBlockSchema = v.pipe(
  Block,
  v.check((b) => typeof b.id === 'number'),
)
