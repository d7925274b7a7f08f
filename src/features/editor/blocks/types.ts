import type { MessageDescriptor } from '@lingui/core'
import type { Align, BlockOf, BlockType } from '../../../domain/block.ts'
import type { FontWeight } from '../model/fonts.ts'

/**
 * What a block type is, in one place (docs/editor.md «Block types: one module each»): its defaults,
 * its box and handles, what it looks like and the inspector fields it has. The canvas (Pixi) and
 * the preview (DOM) both draw a block from its appearance, a short list of primitives, so neither
 * keeps colours, texts or contrast rules of its own.
 *
 * Pure: no React, no Pixi, no DOM.
 */

/**
 * Lengths are in stored units: the background is 200 wide (docs/editor.md «Layers»). Coordinates run
 * from the block's top left corner (its box before rotation).
 */
export type Units = number

/** A colour the primitives understand: `#rgb`, `#rrggbb` or `#rrggbbaa`. */
export type Colour = string

/** A rectangle: a card, a button's face, a placeholder; optionally rounded and with an inner border. */
export interface RectPrimitive {
  kind: 'rect'
  x: Units
  y: Units
  w: Units
  /** null: down to the block's bottom (a text block is as high as its text). */
  h: Units | null
  /** null: no fill (the canvas still hit-tests the box). */
  fill: Colour | null
  radius: Units
  /** Drawn inside the rectangle's edge, as CSS `box-sizing: border-box` does. */
  border?: { width: Units; color: Colour; alpha: number }
  /**
   * What a visitor can press (a button block, a card's button): the preview makes it a link or a
   * button, the canvas draws it like any rectangle.
   */
  action?: boolean
  /** Words drawn on it (in the block's coordinates, like every primitive). */
  label?: TextPrimitive
  /** Only the editor draws it (a placeholder of an empty picture); a visitor sees nothing. */
  editorOnly?: boolean
}

/**
 * A paragraph: wrapped at `width`, each line aligned within [x, x + width], lines `lineHeight` ×
 * `size` apart with the glyphs placed in each line as CSS places them (half the leading above).
 */
export interface TextPrimitive {
  kind: 'text'
  x: Units
  /** Where the paragraph's top, middle or bottom is (`anchor`). */
  y: Units
  anchor: 'top' | 'middle' | 'bottom'
  width: Units
  text: string
  /** A stored font name (`model/fonts.ts`): a web font or an old system font. */
  font: string
  weight: FontWeight
  size: Units
  /** A multiple of `size`. */
  lineHeight: number
  color: Colour
  align: Align
  /** Words longer than a line break anywhere (otherwise they overflow). */
  breakWords: boolean
  /** The paragraph's height is the block's (a text block): the canvas reports it measured. */
  sizesBlock?: boolean
  editorOnly?: boolean
}

/** A picture or a video's still, stretched over its frame (the box × the block's scale). */
export interface MediaPrimitive {
  kind: 'media'
  media: 'image' | 'video'
  /** The frame's centre; it is `w × h`, stretched by the block's scale about that centre. */
  cx: Units
  cy: Units
  w: Units
  h: Units
  /** The stored URL (`local-file:` ones are resolved by the renderer). */
  src: string
  alt: string
  /** Drawn instead while the file loads or when it fails (editor only). */
  placeholder: { label: string; failedLabel: string; dark: boolean }
}

/** A video's play sign: a disc with a triangle pointing right. */
export interface PlayPrimitive {
  kind: 'play'
  cx: Units
  cy: Units
  r: Units
  disc: { color: Colour; alpha: number }
  sign: Colour
  editorOnly?: boolean
}

export type Primitive = RectPrimitive | TextPrimitive | MediaPrimitive | PlayPrimitive

/** A block's look: its box (stored units; `h` null when its text decides) and what is drawn in it. */
export interface Appearance {
  w: Units
  h: Units | null
  primitives: Primitive[]
}

/** Translated words the blocks draw («Специалист не выбран», «Записаться», …). */
export interface BlockLabels {
  image: string
  imageFailed: string
  video: string
  giftButton: string
  noSpecialist: string
  noDate: string
  buy: string
  subscribe: string
  /** The play sign's name for assistive technology. */
  watchVideo: string
}

/** What an appearance may depend on besides the block. */
export interface AppearanceContext {
  /** The background's height in stored units (its width is 200). */
  bgHeight: Units
  labels: BlockLabels
  specialistName: (id: number | null) => string | null
}

/** What a request form may depend on besides the block (docs/requests.md). */
export interface RequestFormContext {
  labels: BlockLabels
  /** The specialist the block names, as the page carries them; null: none or unknown. */
  specialist: { name: string; position: string } | null
}

/** A request form's words on the published page (`published/forms.tsx`). */
export interface RequestFormLook {
  /** The form's heading, and the lines under it. */
  title: string
  lines: string[]
  /** The submit button's words. */
  submit: string
  /** The optional comment field (a visit to arrange). */
  comment: boolean
  /** What the thanks shows: the gift and, where it has one, its link. */
  gift?: { text: string; url: string }
}

/** Which handles a block has on the canvas and how it resizes. */
export interface BlockHandles {
  /**
   * `both`: eight handles, the side ones change the width or the height. `width`: no top and bottom
   * handles, the side ones change the width and the height follows: the content's (`content`) or
   * the box's proportions (`ratio`).
   */
  sides: 'both' | 'width'
  heightFollows: 'stored' | 'content' | 'ratio'
  /**
   * Corners keep the proportions always, never, or while «Сохранять пропорции» is on; Shift turns
   * either way around.
   */
  cornerAspect: 'always' | 'never' | 'switchable'
  /** A corner drag also scales the font size (text). */
  scalesFont: boolean
  /** The smallest side a resize leaves, in screen px whatever the zoom. */
  minScreenPx: number
}

/** Words new blocks start with (translated by the caller). */
export interface DefaultTexts {
  text: string
  button: string
  gift: string
  priceButton: string
  subscribeAction: string
}

/** The fields of `B` whose values are of type `V`. */
export type KeysOf<B, V> = { [K in keyof B]-?: B[K] extends V ? K : never }[keyof B] & string

/**
 * What an edit of a block of type `T` may change: its own fields, never its type, id or
 * background. The inspector commits only such patches (`inspector/fields.tsx`).
 */
export type BlockPatch<T extends BlockType> = Partial<EditableFields<T>>

type EditableFields<T extends BlockType> = Omit<BlockOf<T>, 'type' | 'id' | 'bg_id'>

/** The fields of a block of type `T` an edit may change whose values are of type `V`. */
export type FieldOf<T extends BlockType, V> = KeysOf<EditableFields<T>, V>

/** A patch of a block of some type (what the inspector hands the store). */
export type AnyBlockPatch = { [T in BlockType]: BlockPatch<T> }[BlockType]

/**
 * A field of the inspector's «Оформление» section, typed against the block's own fields (a field
 * the type does not have does not compile). Limits are the domain schema's (`domain/block.ts`),
 * which every field checks before it commits (docs/editor.md «Decisions»).
 */
export type StyleField<T extends BlockType> =
  | {
      kind: 'number'
      field: FieldOf<T, number | undefined>
      label: MessageDescriptor
      /** The unit shown after the number («%»); none: the stored 200-unit basis. */
      suffix?: string
    }
  | {
      kind: 'color'
      field: FieldOf<T, string>
      label: MessageDescriptor
      /** «Прозрачный» is a choice (a background, a button's face). */
      allowTransparent?: boolean
    }
  | { kind: 'font'; field: FieldOf<T, string>; label: MessageDescriptor }
  | { kind: 'align'; field: FieldOf<T, Align> }

/**
 * A plain field of the inspector's content section, typed like `StyleField`: a text, a link
 * (`url`: the https:// hint) or a date. The section's own widgets (an upload, the button's
 * action, the price, the specialist) come first, drawn by the inspector.
 */
export interface ContentField<T extends BlockType> {
  kind: 'text'
  field: FieldOf<T, string>
  label: MessageDescriptor
  description?: MessageDescriptor
  multiline?: boolean
  input?: 'url' | 'date'
}

/** A face a block draws with: a stored font name (`model/fonts.ts`) at a weight. */
export interface FontUse {
  font: string
  weight: FontWeight
}

/**
 * What pressing a block's action (its `action` rectangle) does in the preview and on the
 * published page: a `button` that does nothing there, or a link (`href`; none: nowhere to go yet),
 * opened in a new tab (`newTab`) or, for `goTo`, followed by showing that background (scrolling to
 * a section or changing the slide; null: not a background's id).
 */
export type BlockAction =
  { element: 'button' } | { element: 'link'; href?: string; newTab?: boolean; goTo?: number | null }

/**
 * One definition per block type (`blocks/<type>.ts`, listed in `blocks/index.ts`): the editor's and
 * the preview's part of the type; its schema and stored defaults are `domain/blocks/<type>.ts`, its
 * inspector panel and icon `blocks/<type>-panel.tsx` (docs/editor.md «Adding a block type»).
 */
export interface BlockDefinition<T extends BlockType> {
  type: T
  /** The type's name: the inspector's title, the «Добавить» menu, the layers list. */
  label: MessageDescriptor
  /** A new block, centred on a background of that size (portrait: a story slide). */
  defaults(
    base: { bg_id: number; x: number; y: number; zindex: number; rotation: number },
    bg: { width: number; height: number },
    texts: DefaultTexts,
  ): BlockOf<T>
  /** Whether `height` is stored (button, image, video) or follows from the content. */
  storedHeight: boolean
  handles: BlockHandles
  appearance(block: BlockOf<T>, ctx: AppearanceContext): Appearance
  /** The inspector's plain content fields, in order, after the type's own widgets. */
  content: readonly ContentField<T>[]
  /** The inspector's «Оформление» fields, in order (two numbers in a row share a line). */
  style: readonly StyleField<T>[]
  /** The web font faces it draws with, loaded before it is drawn (system fonts are skipped). */
  fonts(block: BlockOf<T>): readonly FontUse[]
  /** What its `action` rectangle does for a visitor; none: it has nothing to press. */
  action?(block: BlockOf<T>): BlockAction
  /**
   * A block a visitor sends a request from (its domain's `request`): what its form says on the
   * published page. Exactly the types that take requests have one (`tests/unit/block-registry.test.ts`).
   */
  requestForm?(block: BlockOf<T>, ctx: RequestFormContext): RequestFormLook
}
