import { halfHeightUnits, roundStored, type Size } from '../../../domain/geometry.ts'
import { DEFAULT_FONT } from '../../../domain/block.ts'
import type {
  BlockHandles,
  Colour,
  FontUse,
  Primitive,
  RectPrimitive,
  TextPrimitive,
  Units,
} from './types.ts'

/**
 * Rules several block types share: colours, contrast, the placeholder, the cards' layout. Both
 * renderers get them only through the primitives (docs/editor.md «Block types: one module each»).
 */

/** Line height of text blocks, button labels and card texts, relative to the font size. */
export const LINE_HEIGHT = 1.25
/** Gift, price and subscribe cards are drawn this many times as high as wide. */
export const CARD_RATIO = 0.6
/** Cards without a stored width take this percentage of the background's width. */
export const DEFAULT_CARD_WIDTH = 40

const HEX = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/

/** A stored colour as drawn: its hex value, or `fallback` for `transparent` and anything else. */
export function paint<F extends Colour | null>(value: string, fallback: F): Colour | F {
  return HEX.test(value.trim()) ? value.trim() : fallback
}

/** Dark ink on light colours, white on dark ones (relative luminance of the colour's RGB). */
export function contrastText(hex: Colour): Colour {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})/i.exec(hex)
  if (!m) return '#212529'
  const h = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(h.slice(i, i + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45 ? '#212529' : '#ffffff'
}

/** Height (percent of the background's height) that gives `ratio` = height/width for a box `width`% wide. */
export function heightPercent(widthPercent: number, ratio: number, bg: Size): number {
  return roundStored(((widthPercent * 2 * ratio) / (2 * halfHeightUnits(bg))) * 100)
}

/** A box `widthPercent` wide and `heightPercent` high, in stored units. */
export function boxUnits(
  widthPercent: number,
  heightPercentOfBg: number,
  bgHeight: Units,
): { w: Units; h: Units } {
  return { w: widthPercent * 2, h: (heightPercentOfBg / 100) * bgHeight }
}

/**
 * A picture's or a video's stand-in in the editor: a grey (or dark) box, a thin outline and a label.
 */
export function placeholder(w: Units, h: Units, label: string, dark: boolean): Primitive[] {
  const size = Math.min(h / 6, 6)
  return [
    {
      kind: 'rect',
      x: 0,
      y: 0,
      w,
      h,
      fill: dark ? '#343a40' : '#e9ecef',
      radius: 0,
      border: { width: Math.min(0.5, w / 4, h / 4), color: '#adb5bd', alpha: 1 },
      editorOnly: true,
    },
    {
      kind: 'text',
      x: w * 0.05,
      y: dark ? h * 0.72 : h / 2,
      anchor: 'middle',
      width: w * 0.9,
      text: label,
      font: DEFAULT_FONT,
      weight: 400,
      size,
      lineHeight: LINE_HEIGHT,
      color: dark ? '#f1f3f5' : '#495057',
      align: 'center',
      breakWords: true,
      editorOnly: true,
    },
  ]
}

/** Cards draw their words in the default font: regular, and bold for the title and the button. */
export const CARD_FONTS: readonly FontUse[] = [
  { font: DEFAULT_FONT, weight: 400 },
  { font: DEFAULT_FONT, weight: 700 },
]

/** Cards: width only on the sides, the height is 0.6 × the width. */
export const CARD_HANDLES: BlockHandles = {
  sides: 'width',
  heightFollows: 'ratio',
  cornerAspect: 'always',
  scalesFont: false,
  minScreenPx: 8,
}

/** Pictures and videos: eight handles, corners keep the proportions while the person keeps them. */
export const MEDIA_HANDLES: BlockHandles = {
  sides: 'both',
  heightFollows: 'stored',
  cornerAspect: 'switchable',
  scalesFont: false,
  minScreenPx: 8,
}

/**
 * Gift, price and subscribe cards: a rounded card in the block's colour with a thin dark outline, a
 * bold title (and a second line under it), and a pill-shaped button at the bottom in the contrasting
 * ink, its label in the card's colour. Everything scales with the card's width.
 */
export function cardPrimitives(
  w: Units,
  fill: Colour,
  texts: { title: string; sub: string; button: string },
): Primitive[] {
  const h = w * CARD_RATIO
  const ink = contrastText(fill)
  const pad = w * 0.06
  const buttonH = h * 0.26
  const inner = w - 2 * pad
  const bodyTop = pad
  const bodyBottom = h - pad - buttonH
  const mid = (bodyTop + bodyBottom) / 2
  const text = (t: Omit<TextPrimitive, 'kind' | 'x' | 'width' | 'font' | 'align' | 'lineHeight'>) =>
    ({
      kind: 'text',
      x: pad,
      width: inner,
      font: DEFAULT_FONT,
      align: 'center',
      lineHeight: LINE_HEIGHT,
      ...t,
    }) satisfies TextPrimitive
  const card: RectPrimitive = {
    kind: 'rect',
    x: 0,
    y: 0,
    w,
    h,
    fill,
    radius: w * 0.04,
    border: { width: w * 0.006, color: '#000000', alpha: 0.15 },
  }
  const button: RectPrimitive = {
    kind: 'rect',
    x: pad,
    y: h - pad - buttonH,
    w: inner,
    h: buttonH,
    fill: ink,
    radius: buttonH / 2,
    action: true,
    label: text({
      y: h - pad - buttonH / 2,
      anchor: 'middle',
      text: texts.button,
      weight: 700,
      size: w * 0.06,
      color: fill,
      breakWords: false,
    }),
  }
  return [
    card,
    text({
      y: texts.sub ? mid + h * 0.02 : mid,
      anchor: texts.sub ? 'bottom' : 'middle',
      text: texts.title,
      weight: 700,
      size: w * (texts.sub ? 0.07 : 0.085),
      color: ink,
      breakWords: true,
    }),
    ...(texts.sub
      ? [
          text({
            y: mid + h * 0.06,
            anchor: 'top',
            text: texts.sub,
            weight: 400,
            size: w * 0.055,
            color: ink,
            breakWords: true,
          }),
        ]
      : []),
    button,
  ]
}

/** The play sign's triangle, in radii of its disc from the disc's centre. */
export const PLAY_SIGN: readonly (readonly [number, number])[] = [
  [-0.35, -0.5],
  [0.55, 0],
  [-0.35, 0.5],
]

/**
 * The moment of a video its still shows, on the canvas and in the preview: half a second in, or
 * halfway through a shorter clip (its first frame is often black).
 */
export function stillTime(durationS: number): number {
  return Math.min(0.5, (durationS || 1) / 2)
}
