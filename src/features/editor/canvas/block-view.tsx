import { CanvasTextMetrics, Container, Graphics, TextStyle } from 'pixi.js'
import { memo, useCallback, useLayoutEffect, useMemo } from 'react'
import { halfHeightUnits } from '../../../domain/geometry.ts'
import { appearanceOf } from '../blocks/index.ts'
import { placeholder, PLAY_SIGN } from '../blocks/shared.ts'
import type {
  BlockLabels,
  MediaPrimitive,
  PlayPrimitive,
  Primitive,
  RectPrimitive,
  TextPrimitive,
} from '../blocks/types.ts'
import type { LocalBlock } from '../editor-data.ts'
import { useCanvasFontFamily } from '../fonts/use-fonts.ts'
import type { PixelTextSpec } from './pixel-text.ts'
import { useTexture } from './textures.ts'

/** Translated words the canvas draws (the same the preview draws: `blocks/use-block-labels.ts`). */
export type CanvasLabels = BlockLabels

export interface BlockViewProps {
  blockKey: string
  block: LocalBlock
  /** The background's size in world px (position does not matter: blocks sit in its container). */
  frameWidth: number
  frameHeight: number
  labels: CanvasLabels
  resolveFileUrl: (url: string) => string
  specialistName: (id: number | null) => string | null
  register: (key: string, container: Container | null) => void
  /** Reports a text block's drawn height in world px (the hit box follows it). */
  onMeasured: (key: string, heightPx: number) => void
}

const RAD = Math.PI / 180

/**
 * One block on the canvas, drawn about its centre from its appearance (`blocks/`), the same list
 * of primitives the preview draws. Re-renders only when its own data changes.
 */
export const BlockView = memo(function BlockView(props: BlockViewProps) {
  const { block, blockKey, frameWidth, frameHeight, register, labels, specialistName } = props
  const unit = frameWidth / 200
  const cx = frameWidth / 2 + block.x * unit
  const cy = frameHeight / 2 + block.y * unit
  const ref = useCallback((c: Container | null) => register(blockKey, c), [register, blockKey])
  const bgHeight = 2 * halfHeightUnits({ width: frameWidth, height: frameHeight })
  const look = useMemo(
    () => appearanceOf(block, { bgHeight, labels, specialistName }),
    [block, bgHeight, labels, specialistName],
  )
  // A text block is as high as its lines: its paragraph reports the height it is drawn at.
  const sizer = look.primitives.find((p): p is TextPrimitive => p.kind === 'text' && !!p.sizesBlock)
  const measured = useMeasuredHeight(sizer, unit)
  const onMeasured = props.onMeasured
  useLayoutEffect(() => {
    if (measured !== null) onMeasured(blockKey, measured * unit)
  }, [onMeasured, blockKey, measured, unit])
  const h = look.h ?? measured ?? 0
  const frame: Frame = {
    unit,
    left: (-look.w / 2) * unit,
    top: (-h / 2) * unit,
    blockHeight: h,
    resolveFileUrl: props.resolveFileUrl,
  }
  return (
    <pixiContainer ref={ref} x={cx} y={cy} rotation={block.rotation * RAD} label={blockKey}>
      <Primitives primitives={look.primitives} frame={frame} />
    </pixiContainer>
  )
})

/** Where primitives go: world px per unit and the block's top left corner about its centre. */
interface Frame {
  unit: number
  left: number
  top: number
  /** The block's height in units (a text block's as measured). */
  blockHeight: number
  resolveFileUrl: (url: string) => string
}

function Primitives({ primitives, frame }: { primitives: Primitive[]; frame: Frame }) {
  return primitives.map((p, i) => <CanvasPrimitive key={i} p={p} frame={frame} />)
}

function CanvasPrimitive({ p, frame }: { p: Primitive; frame: Frame }) {
  switch (p.kind) {
    case 'rect':
      return (
        <>
          <CanvasRect p={p} frame={frame} />
          {p.label ? <CanvasText p={p.label} frame={frame} /> : null}
        </>
      )
    case 'text':
      return <CanvasText p={p} frame={frame} />
    case 'media':
      return <CanvasMedia p={p} frame={frame} />
    case 'play':
      return <CanvasPlay p={p} frame={frame} />
  }
}

/** A `#rrggbbaa` colour as Pixi's fill: the colour and its alpha times `alpha`. */
function fillOf(color: string, alpha = 1): { color: string; alpha: number } {
  const hex = color.replace('#', '')
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex
  const a = full.length === 8 ? parseInt(full.slice(6), 16) / 255 : 1
  return { color: `#${full.slice(0, 6)}`, alpha: a * alpha }
}

function CanvasRect({ p, frame }: { p: RectPrimitive; frame: Frame }) {
  const { unit } = frame
  const x = frame.left + p.x * unit
  const y = frame.top + p.y * unit
  const w = p.w * unit
  const h = (p.h ?? frame.blockHeight - p.y) * unit
  const r = p.radius * unit
  const { fill, border } = p
  const draw = useCallback(
    (g: Graphics) => {
      g.clear()
      // An invisible fill keeps an empty text block (no background) under the pointer.
      g.roundRect(x, y, w, h, r).fill(fill ? fillOf(fill) : { color: 0xffffff, alpha: 0.001 })
      const b = border ? border.width * unit : 0
      if (border && b > 0) {
        // Inside the edge, as CSS draws a border: the outer corner keeps the radius.
        g.roundRect(x + b / 2, y + b / 2, w - b, h - b, Math.max(0, r - b / 2))
        g.stroke({ width: b, ...fillOf(border.color, border.alpha) })
      }
    },
    [x, y, w, h, r, fill, border, unit],
  )
  return <pixiGraphics draw={draw} />
}

/**
 * Where CSS puts a line's baseline below the line's top: the font's own ascent and descent as the
 * browser's layout rounds and uses them (Pixi would centre the measured extent of a few tall and
 * deep glyphs instead). The browser is asked once per font and line height (an invisible line with
 * a zero-height box on its baseline), so the canvas and the preview draw the glyphs at the same
 * height. Without a layout (unit tests) Pixi's own measure stands.
 */
const baselines = new Map<string, number>()
function lineBaseline(style: TextStyle): number {
  const font = style._fontString
  const lineHeight = style.lineHeight
  const key = `${font}|${lineHeight}`
  let baseline = baselines.get(key)
  if (baseline === undefined) {
    // Nothing is drawn without a 2D canvas (`measureParagraph`): the top of the line will do.
    if (!canMeasureText()) return 0
    const pixi = CanvasTextMetrics.measureFont(font)
    const pixiBaseline = Math.max(0, (lineHeight - pixi.fontSize) / 2) + pixi.ascent
    // No layout (unit tests): Pixi's measure.
    if (!document.body) return pixiBaseline
    const line = document.createElement('div')
    line.style.cssText = `position:absolute;visibility:hidden;left:0;top:0;white-space:pre;font:${font};line-height:${lineHeight}px`
    const mark = document.createElement('span')
    mark.style.cssText = 'display:inline-block;width:0;height:0;vertical-align:baseline'
    line.append('Hg', mark)
    document.body.append(line)
    const cssBaseline = mark.getBoundingClientRect().top - line.getBoundingClientRect().top
    line.remove()
    // A browser without layout (unit tests) reports zeros.
    baseline = cssBaseline > 0 ? cssBaseline : pixiBaseline
    baselines.set(key, baseline)
  }
  return baseline
}

function textStyle(p: TextPrimitive, fontFamily: string, unit: number): TextStyle {
  const fontSize = p.size * unit
  return new TextStyle({
    fontFamily,
    fontSize,
    fontWeight: p.weight === 700 ? '700' : '400',
    fill: fillOf(p.color),
    align: p.align,
    wordWrap: true,
    breakWords: p.breakWords,
    wordWrapWidth: Math.max(1, p.width * unit),
    lineHeight: fontSize * p.lineHeight,
  })
}

/**
 * Whether Pixi can measure text: it does so with a 2D canvas, which a browser may refuse
 * (`getContext('2d')` answers null: too many canvases, a locked-down or headless browser, jsdom).
 * Without one a text is measured as no line and drawn as nothing rather than stopping the canvas.
 */
function canMeasureText(): boolean {
  try {
    return Boolean(CanvasTextMetrics._context as CanvasRenderingContext2D | null)
  } catch {
    return false
  }
}

/** A paragraph's lines as Pixi wraps them, or null when nothing can measure them. */
function measureParagraph(text: string, style: TextStyle): CanvasTextMetrics | null {
  return canMeasureText() ? CanvasTextMetrics.measureText(text || ' ', style) : null
}

/** The height a paragraph is drawn at, in units (null without one). */
function useMeasuredHeight(p: TextPrimitive | undefined, unit: number): number | null {
  const fontFamily = useCanvasFontFamily(p?.font ?? '', p?.weight ?? 400)
  return useMemo(() => {
    if (!p) return null
    const style = textStyle(p, fontFamily, unit)
    const metrics = measureParagraph(p.text, style)
    return Math.max(metrics?.height ?? 0, p.size * p.lineHeight * unit) / unit
  }, [p, fontFamily, unit])
}

const ANCHOR_X = { left: 0, center: 0.5, right: 1 } as const
const ANCHOR_Y = { top: 0, middle: 0.5, bottom: 1 } as const

function CanvasText({ p, frame }: { p: TextPrimitive; frame: Frame }) {
  const { unit } = frame
  // Changes once, when the web font has loaded: the text is drawn (and measured) again.
  const fontFamily = useCanvasFontFamily(p.font, p.weight)
  const spec = useMemo((): PixelTextSpec => {
    const style = textStyle(p, fontFamily, unit)
    const metrics = measureParagraph(p.text, style)
    const lines = metrics?.lines ?? []
    const lineHeight = style.lineHeight
    const height = lines.length * lineHeight
    return {
      text: p.text,
      lines,
      lineWidths: metrics?.lineWidths ?? [],
      x: frame.left + p.x * unit,
      y: frame.top + p.y * unit - ANCHOR_Y[p.anchor] * height,
      width: p.width * unit,
      align: ANCHOR_X[p.align],
      baseline: lineBaseline(style),
      lineHeight,
      fontSize: style.fontSize,
      fontAt: (size) => {
        const sized = style.clone()
        sized.fontSize = size
        return sized._fontString
      },
      color: p.color,
    }
  }, [p, fontFamily, unit, frame.left, frame.top])
  return <pixiPixelText spec={spec} />
}

function CanvasMedia({ p, frame }: { p: MediaPrimitive; frame: Frame }) {
  const { unit } = frame
  const texture = useTexture(p.src ? frame.resolveFileUrl(p.src) : '', p.media)
  if (texture.status === 'ready') {
    return (
      <pixiSprite
        texture={texture.texture}
        anchor={0.5}
        x={frame.left + p.cx * unit}
        y={frame.top + p.cy * unit}
        width={p.w * unit}
        height={p.h * unit}
      />
    )
  }
  // The stand-in fills the box (the frame without the block's scale).
  const { label, failedLabel, dark } = p.placeholder
  const text = texture.status === 'error' ? failedLabel : label
  const w = p.cx * 2
  const h = p.cy * 2
  return <Primitives primitives={placeholder(w, h, text, dark)} frame={frame} />
}

function CanvasPlay({ p, frame }: { p: PlayPrimitive; frame: Frame }) {
  const { unit } = frame
  const cx = frame.left + p.cx * unit
  const cy = frame.top + p.cy * unit
  const r = p.r * unit
  const { disc, sign } = p
  const draw = useCallback(
    (g: Graphics) => {
      g.clear()
      g.circle(cx, cy, r).fill(fillOf(disc.color, disc.alpha))
      g.poly(PLAY_SIGN.flatMap(([px, py]) => [cx + px * r, cy + py * r])).fill(fillOf(sign))
    },
    [cx, cy, r, disc, sign],
  )
  return <pixiGraphics draw={draw} />
}
