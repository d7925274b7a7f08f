import * as v from 'valibot'
import { buttonDomain } from './blocks/button.ts'
import type { BlockDomain, BlockSchema, DefaultFields, RequestFields } from './blocks/fields.ts'
import { giftDomain } from './blocks/gift.ts'
import { imageDomain } from './blocks/image.ts'
import { priceDomain } from './blocks/price.ts'
import { subscribeDomain } from './blocks/subscribe.ts'
import { textDomain } from './blocks/text.ts'
import { videoDomain } from './blocks/video.ts'

/**
 * Blocks on a background (docs/API.md "Blocks", docs/editor.md "Geometry"): the registry of the
 * block types' domain modules (`domain/blocks/<type>.ts`: schema, defaults, endpoints), which the
 * page, the workers and the server share. Everything below derives from it (docs/editor.md
 * «Adding a block type»).
 */
function registry<M extends { [K in keyof M]: { type: K } }>(modules: M): M {
  return modules
}

/** Every block type, in the order the editor offers them. */
export const BLOCK_DOMAINS = registry({
  text: textDomain,
  button: buttonDomain,
  image: imageDomain,
  video: videoDomain,
  gift: giftDomain,
  price: priceDomain,
  subscribe: subscribeDomain,
})

type Domains = typeof BLOCK_DOMAINS
export type BlockType = keyof Domains & string
export const BLOCK_TYPES = Object.keys(BLOCK_DOMAINS) as readonly BlockType[]

export function domainOf<T extends BlockType>(type: T): BlockDomain<T, BlockSchema<T>> {
  return BLOCK_DOMAINS[type] as unknown as BlockDomain<T, BlockSchema<T>>
}

type SchemaOf<T extends BlockType> = Domains[T]['schema']
type Schemas = { [T in BlockType]: SchemaOf<T> }

export const BLOCK_SCHEMAS = Object.fromEntries(
  BLOCK_TYPES.map((type) => [type, BLOCK_DOMAINS[type].schema]),
) as Schemas

/** What a new block's fields are, but the geometry (`BlockDomain.defaults`). */
export const BLOCK_DEFAULTS = Object.fromEntries(
  BLOCK_TYPES.map((type) => [type, BLOCK_DOMAINS[type].defaults]),
) as { [T in BlockType]: DefaultFields<SchemaOf<T>> }

type TypesWith<E extends 'item' | 'widget'> = {
  [T in BlockType]: Domains[T]['endpoints'] extends E ? T : never
}[BlockType]
export type ItemBlockType = TypesWith<'item'>
export type WidgetBlockType = TypesWith<'widget'>

/** Blocks saved with `/api/{type}/add` (with id = update) and deleted with `project/delete_item`. */
export const ITEM_BLOCK_TYPES = BLOCK_TYPES.filter(
  (type) => BLOCK_DOMAINS[type].endpoints === 'item',
) as readonly ItemBlockType[]
/** Blocks saved with `/api/{type}/add` or `/update` and deleted with `/api/{type}/delete`. */
export const WIDGET_BLOCK_TYPES = BLOCK_TYPES.filter(
  (type) => BLOCK_DOMAINS[type].endpoints === 'widget',
) as readonly WidgetBlockType[]

export function isWidgetType(type: BlockType): type is WidgetBlockType {
  return BLOCK_DOMAINS[type].endpoints === 'widget'
}

/** Blocks a visitor sends a request from (docs/requests.md): the requests' kinds. */
export const REQUEST_BLOCK_TYPES = BLOCK_TYPES.filter(
  (type) => BLOCK_DOMAINS[type].request !== undefined,
)

/** Whether a visitor sends a request from blocks of this type. */
export function takesRequests(type: string): boolean {
  return (REQUEST_BLOCK_TYPES as readonly string[]).includes(type)
}

/**
 * What a request keeps of the block it was sent from (`BlockDomain.request`), from the block's
 * stored fields; null for a block that takes no requests.
 */
export function requestFieldsOf(block: {
  type: string
  [field: string]: unknown
}): RequestFields | null {
  if (!isBlockType(block.type)) return null
  return BLOCK_DOMAINS[block.type].request?.(block) ?? null
}

/** The ids a block's fields name of directory records of `kind` (`BlockDomain.references`). */
export function referencedIds(
  block: { type: string; [field: string]: unknown },
  kind: 'specialist',
): number[] {
  if (!isBlockType(block.type)) return []
  const references: Partial<Record<string, 'specialist'>> = domainOf(block.type).references ?? {}
  return Object.entries(references)
    .filter(([, of]) => of === kind)
    .map(([field]) => block[field])
    .filter((id): id is number => typeof id === 'number')
}

export function isBlockType(type: string): type is BlockType {
  return Object.hasOwn(BLOCK_DOMAINS, type)
}

export const Block = v.variant('type', Object.values(BLOCK_SCHEMAS) as Schemas[BlockType][])
export type Block = v.InferOutput<typeof Block>
export type BlockOf<T extends BlockType> = Extract<Block, { type: T }>
export type SavedBlock = Block & { id: number }

export const SavedBlockSchema = v.pipe(
  Block,
  v.check((b) => typeof b.id === 'number'),
)

export { Align, DEFAULT_FONT } from './blocks/fields.ts'
export { BUTTON_TYPES } from './blocks/button.ts'
export { TextBlock } from './blocks/text.ts'
export { ButtonBlock } from './blocks/button.ts'
export { ImageBlock } from './blocks/image.ts'
export { VideoBlock } from './blocks/video.ts'
export { GiftBlock } from './blocks/gift.ts'
export { PriceBlock } from './blocks/price.ts'
export { SubscribeBlock } from './blocks/subscribe.ts'
export type { BlockDomain, BlockSchema, DefaultFields, RequestFields } from './blocks/fields.ts'
