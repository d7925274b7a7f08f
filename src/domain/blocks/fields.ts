import * as v from 'valibot'
import {
  FieldCode,
  finiteNumber,
  Id,
  LIMITS,
  optionalText,
  RowVersion,
  storableString,
} from '../validation.ts'

/**
 * What every block type's domain module (`domain/blocks/<type>.ts`) is made of: the fields all
 * blocks share, the field kinds several types use, and the shape of a module. Pure: the page, the
 * workers and the server import it.
 *
 * Geometry (docs/editor.md "Geometry"): `x`, `y` are the offset of the block's centre from the
 * background's centre in units where the background's width is 200; `width` is a percentage of the
 * background's width, `height` a percentage of its height; `rotation` is degrees clockwise about the
 * centre; `fontSize` is in the 200-unit basis.
 */

export const percent = finiteNumber(0, 1000)
export const scale = finiteNumber(0.01, 100)
export const fontSize = finiteNumber(0.1, 200)
const ALIGNS = ['left', 'center', 'right'] as const
export const Align = v.picklist(ALIGNS, FieldCode.invalidChoice)
export type Align = v.InferOutput<typeof Align>
export const font = v.pipe(
  storableString(FieldCode.invalidValue),
  v.maxLength(100, FieldCode.tooLong),
)
export const name = optionalText(LIMITS.name)

/** The font of new text and button blocks, and of the cards' words. */
export const DEFAULT_FONT = 'Roboto'

/** The fields every block has. */
export const blockBase = {
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

/** A block type's schema: the shared fields, its `type` literal and its own fields. */
export type BlockSchema<T extends string = string> = v.ObjectSchema<
  typeof blockBase & { type: v.LiteralSchema<T, undefined> } & v.ObjectEntries,
  undefined
>

/**
 * The fields a block cannot do without and that no default stands for: its place, its size and
 * its font size (the editor computes them for the background, a client of the API sends them).
 */
export type GeometryField =
  keyof typeof blockBase | 'type' | 'width' | 'height' | 'scaleX' | 'scaleY' | 'fontSize'

/** The fields of a block of schema `S` that have a default. */
export type DefaultFields<S extends BlockSchema> = Omit<v.InferOutput<S>, GeometryField>

/** What a visitor's request keeps of the block it was sent from. */
export interface RequestFields {
  /** The specialist booked (a subscribe block's), or null. */
  specialist_id: number | null
  /** The date booked (ISO, a subscribe block's), or ''. */
  date: string
  /** The price asked (a price block's number), or null. */
  price: number | null
  /** Where the request is also posted (a gift's button web hook), or ''. */
  hook_url: string
}

/** No fields kept: what a type's `request` starts from. */
export const NO_REQUEST_FIELDS: RequestFields = {
  specialist_id: null,
  date: '',
  price: null,
  hook_url: '',
}

/** A stored string field of a block read loosely: '' when it is not a string. */
export const storedString = (block: Readonly<Record<string, unknown>>, key: string): string =>
  typeof block[key] === 'string' ? block[key] : ''

/**
 * One block type, as the page, the workers and the server know it (docs/editor.md «Adding a block
 * type»). The editor's part of the type (its look, its handles, its inspector panel) lives in
 * `features/editor/blocks/`.
 */
export interface BlockDomain<T extends string, S extends BlockSchema<T>> {
  type: T
  schema: S
  /**
   * The API's endpoints for it: `item` blocks are saved with `/api/{type}/add` (an id updates)
   * and deleted with `project/delete_item`; `widget` blocks are saved with `/api/{type}/add` or
   * `/update` and deleted with `/api/{type}/delete`.
   */
  endpoints: 'item' | 'widget'
  /**
   * For a type a visitor sends requests from (its button opens a form on the published page; the
   * request's `kind` is the block's type, docs/requests.md): what a request keeps of the block,
   * read from its stored fields as the page's snapshot holds them. None: it takes no requests.
   */
  request?: (block: Readonly<Record<string, unknown>>) => RequestFields
  /**
   * Every field but the geometry, as a new block has it: what the server stores for a field an
   * `add` leaves out (docs/API.md, "Blocks"), and what the editor starts a new block with (its
   * texts translated). Colours are the app's own; texts are empty.
   */
  defaults: DefaultFields<S>
  /**
   * Fields the server derives from the others when a save leaves them out (`body`: the fields
   * sent; `merged`: the block they make, changed in place), before the block is checked.
   */
  derive?: (merged: Record<string, unknown>, body: object) => void
  /** Fields holding the id of a directory record, which must be of the block's workspace. */
  references?: Partial<Record<keyof v.InferOutput<S> & string, 'specialist'>>
}

/** Checks a module's parts against each other (its defaults against its schema's fields). */
export function defineBlockDomain<
  const T extends string,
  S extends BlockSchema<T>,
  const E extends 'item' | 'widget',
>(domain: BlockDomain<T, S> & { endpoints: E }): BlockDomain<T, S> & { endpoints: E } {
  return domain
}
