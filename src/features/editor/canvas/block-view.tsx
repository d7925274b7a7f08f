import { CanvasTextMetrics, Container, Graphics, TextStyle, type TextStyleOptions } from 'pixi.js'
import { memo, useCallback, useLayoutEffect, useMemo } from 'react'
import type { BlockOf } from '../../../domain/block.ts'
import { formatDayMonth, formatPrice } from '../../../domain/format.ts'
import type { LocalBlock } from '../editor-data.ts'
import { useCanvasFontFamily } from '../fonts/use-fonts.ts'
import { CARD_RATIO, LINE_HEIGHT, widthUnits } from '../model/block-shape.ts'
import { DEFAULT_FONT } from '../model/fonts.ts'
import { useTexture } from './textures.ts'
import { buttonRadiusUnits } from '../model/block-shape.ts'

/** Translated words the canvas draws. */
export interface CanvasLabels {
  image: string
  imageFailed: string
  video: string
  giftButton: string
  noSpecialist: string
  noDate: string
  buy: string
  subscribe: string
}

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

const COLOR_RE = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/
/** A colour Pixi understands, or null for transparent / not a colour. */
function cssColor(value: string, fallback: string | null = null): string | null {
  return COLOR_RE.test(value) ? value : fallback
}

const RAD = Math.PI / 180

/** One block on the canvas, drawn about its centre. Re-renders only when its own data changes. */
export const BlockView = memo(function BlockView(props: BlockViewProps) {
  const { block, blockKey, frameWidth, frameHeight, register } = props
  const unit = unitPx(frameWidth)
  const cx = frameWidth / 2 + block.x * unit
  const cy = frameHeight / 2 + block.y * unit
  const ref = useCallback((c: Container | null) => register(blockKey, c), [register, blockKey])
  return (
    <pixiContainer ref={ref} x={cx} y={cy} rotation={block.rotation * RAD} label={blockKey}>
      <BlockContent {...props} />
    </pixiContainer>
  )
})

function BlockContent(props: BlockViewProps) {
  const { block } = props
  switch (block.type) {
    case 'text':
      return <TextContent {...props} block={block} />
    case 'button':
      return <ButtonContent {...props} block={block} />
    case 'image':
      return <ImageContent {...props} block={block} />
    case 'video':
      return <VideoContent {...props} block={block} />
    case 'gift':
    case 'price':
    case 'subscribe':
      return <CardContent {...props} block={block} />
  }
}

const unitPx = (frameWidth: number) => frameWidth / 200

function anchorX(align: 'left' | 'center' | 'right'): number {
  return align === 'left' ? 0 : align === 'right' ? 1 : 0.5
}

function TextContent(props: BlockViewProps & { block: BlockOf<'text'> }) {
  const { block, frameWidth, onMeasured, blockKey } = props
  const w = (block.width / 100) * frameWidth
  const fontSize = block.fontSize * unitPx(frameWidth)
  // Changes once, when the block's web font has loaded: the text is drawn (and measured) again.
  const fontFamily = useCanvasFontFamily(block.font)
  const style = useMemo<TextStyleOptions>(
    () => ({
      fontFamily,
      fontSize,
      fill: cssColor(block.color, '#000000')!,
      align: block.align,
      wordWrap: true,
      breakWords: true,
      wordWrapWidth: Math.max(1, w),
      lineHeight: fontSize * LINE_HEIGHT,
    }),
    [fontFamily, fontSize, block.color, block.align, w],
  )
  const h = useMemo(() => {
    const metrics = CanvasTextMetrics.measureText(block.text || ' ', new TextStyle(style))
    return Math.max(metrics.height, fontSize * LINE_HEIGHT)
  }, [block.text, style, fontSize])
  useLayoutEffect(() => onMeasured(blockKey, h), [onMeasured, blockKey, h])
  const bg = cssColor(block.background)
  const draw = useCallback(
    (g: Graphics) => {
      g.clear()
      // An invisible hit area keeps empty text blocks visible to the selection outline.
      g.rect(-w / 2, -h / 2, w, h).fill(bg ? { color: bg } : { color: 0xffffff, alpha: 0.001 })
    },
    [w, h, bg],
  )
  return (
    <>
      <pixiGraphics draw={draw} />
      <pixiText
        text={block.text}
        style={style}
        resolution={2}
        anchor={{ x: anchorX(block.align), y: 0 }}
        x={block.align === 'left' ? -w / 2 : block.align === 'right' ? w / 2 : 0}
        y={-h / 2}
      />
    </>
  )
}

function ButtonContent(props: BlockViewProps & { block: BlockOf<'button'> }) {
  const { block, frameWidth, frameHeight } = props
  const w = (block.width / 100) * frameWidth
  const h = (block.height / 100) * frameHeight
  const unit = unitPx(frameWidth)
  const border = block.border_width * unit
  const fill = cssColor(block.background)
  const stroke = cssColor(block.border_color, '#000000')!
  const draw = useCallback(
    (g: Graphics) => {
      g.clear()
      const radius = buttonRadiusUnits(h / unit) * unit
      g.roundRect(-w / 2, -h / 2, w, h, radius)
      g.fill(fill ? { color: fill } : { color: 0xffffff, alpha: 0.001 })
      if (border > 0) {
        g.roundRect(-w / 2 + border / 2, -h / 2 + border / 2, w - border, h - border, radius)
        g.stroke({ width: border, color: stroke })
      }
    },
    [w, h, unit, fill, border, stroke],
  )
  const fontSize = block.fontSize * unit
  const pad = Math.max(border, 4 * unit)
  const fontFamily = useCanvasFontFamily(block.font)
  const style = useMemo<TextStyleOptions>(
    () => ({
      fontFamily,
      fontSize,
      fill: cssColor(block.color, '#ffffff')!,
      align: block.align,
      wordWrap: true,
      wordWrapWidth: Math.max(1, w - 2 * pad),
    }),
    [fontFamily, fontSize, block.color, block.align, w, pad],
  )
  return (
    <>
      <pixiGraphics draw={draw} />
      <pixiText
        text={block.text}
        style={style}
        resolution={2}
        anchor={{ x: anchorX(block.align), y: 0.5 }}
        x={block.align === 'left' ? -w / 2 + pad : block.align === 'right' ? w / 2 - pad : 0}
        y={0}
      />
    </>
  )
}

function Placeholder({
  w,
  h,
  label,
  dark,
  unit,
}: {
  w: number
  h: number
  label: string
  dark?: boolean
  unit: number
}) {
  const draw = useCallback(
    (g: Graphics) => {
      g.clear()
      g.rect(-w / 2, -h / 2, w, h).fill({ color: dark ? 0x343a40 : 0xe9ecef })
      // A plain stroke, not `pixelLine`: Pixi draws pixel lines as GL lines, which cannot share a
      // batch with the triangles around them (a full frame of 1,000 blocks took ~1,150 draw calls
      // with them, ~110 without).
      g.rect(-w / 2, -h / 2, w, h).stroke({ width: 1, color: 0xadb5bd })
    },
    [w, h, dark],
  )
  const style = useMemo<TextStyleOptions>(
    () => ({
      fontFamily: 'Arial',
      fontSize: Math.max(8, Math.min(h / 6, 6 * unit)),
      fill: dark ? '#f1f3f5' : '#495057',
      align: 'center',
      wordWrap: true,
      wordWrapWidth: Math.max(1, w * 0.9),
    }),
    [h, w, dark, unit],
  )
  return (
    <>
      <pixiGraphics draw={draw} />
      <pixiText text={label} style={style} anchor={0.5} resolution={2} y={dark ? h * 0.22 : 0} />
    </>
  )
}

function ImageContent(props: BlockViewProps & { block: BlockOf<'image'> }) {
  const { block, frameWidth, frameHeight, labels, resolveFileUrl } = props
  const w = (block.width / 100) * frameWidth
  const h = (block.height / 100) * frameHeight
  const texture = useTexture(block.image_url ? resolveFileUrl(block.image_url) : '')
  if (texture.status === 'ready') {
    return (
      <pixiSprite
        texture={texture.texture}
        anchor={0.5}
        width={w * block.scaleX}
        height={h * block.scaleY}
      />
    )
  }
  const label = texture.status === 'error' ? labels.imageFailed : labels.image
  return <Placeholder w={w} h={h} label={label} unit={unitPx(frameWidth)} />
}

function VideoContent(props: BlockViewProps & { block: BlockOf<'video'> }) {
  const { block, frameWidth, frameHeight, labels, resolveFileUrl } = props
  const w = (block.width / 100) * frameWidth
  const h = (block.height / 100) * frameHeight
  const source = block.video_src || block.video_url
  const poster = useTexture(source ? resolveFileUrl(source) : '', 'video')
  const play = useCallback(
    (g: Graphics) => {
      g.clear()
      const r = Math.max(6, Math.min(w, h) * 0.14)
      g.circle(0, 0, r).fill({ color: 0x000000, alpha: 0.55 })
      g.poly([-r * 0.35, -r * 0.5, r * 0.55, 0, -r * 0.35, r * 0.5]).fill({ color: 0xffffff })
    },
    [w, h],
  )
  return (
    <>
      {poster.status === 'ready' ? (
        <pixiSprite
          texture={poster.texture}
          anchor={0.5}
          width={w * block.scaleX}
          height={h * block.scaleY}
        />
      ) : (
        <Placeholder w={w} h={h} label={labels.video} dark unit={unitPx(frameWidth)} />
      )}
      <pixiGraphics draw={play} />
    </>
  )
}

type Card = BlockOf<'gift'> | BlockOf<'price'> | BlockOf<'subscribe'>

const CARD_COLORS: Record<Card['type'], string> = {
  gift: '#e64980',
  price: '#2b8a3e',
  subscribe: '#1c7ed6',
}

/** What a card says (its title, second line and button), as the preview says it too. */
export function cardTexts(
  block: Card,
  props: BlockViewProps,
): { title: string; sub: string; button: string } {
  const { labels, specialistName } = props
  switch (block.type) {
    case 'gift':
      return { title: block.text, sub: '', button: labels.giftButton }
    case 'price':
      return {
        title: block.text_price !== null ? formatPrice(block.text_price) : block.text,
        sub: '',
        button: block.button_text || labels.buy,
      }
    case 'subscribe':
      return {
        title: specialistName(block.specialist_id) ?? labels.noSpecialist,
        sub: block.date
          ? formatDayMonth(block.date, { withYear: true }) || block.date
          : labels.noDate,
        button: block.action || labels.subscribe,
      }
  }
}

/** Dark text on light colours, white on dark ones (relative luminance). */
export function contrastText(hex: string): string {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})/i.exec(hex)
  if (!m) return '#212529'
  const h = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(h.slice(i, i + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45 ? '#212529' : '#ffffff'
}

/** Gift, price and subscribe blocks: a card in the block's colour with a title and a button. */
function CardContent(props: BlockViewProps & { block: Card }) {
  const { block, frameWidth } = props
  const unit = unitPx(frameWidth)
  const w = widthUnits(block) * unit
  const h = w * CARD_RATIO
  const fill = cssColor('color' in block ? block.color : '', CARD_COLORS[block.type])!
  const ink = contrastText(fill)
  const { title, sub, button } = cardTexts(block, props)
  const pad = w * 0.06
  const buttonH = h * 0.26
  const draw = useCallback(
    (g: Graphics) => {
      g.clear()
      const r = w * 0.04
      g.roundRect(-w / 2, -h / 2, w, h, r).fill({ color: fill })
      g.roundRect(-w / 2, -h / 2, w, h, r).stroke({
        width: Math.max(1, w * 0.006),
        color: 0x000000,
        alpha: 0.15,
      })
      g.roundRect(-w / 2 + pad, h / 2 - pad - buttonH, w - 2 * pad, buttonH, buttonH / 2).fill({
        color: ink,
      })
    },
    [w, h, fill, ink, pad, buttonH],
  )
  // Cards use the default web font: bold for the title and the button, regular for the date.
  const boldFamily = useCanvasFontFamily(DEFAULT_FONT, 700)
  const regularFamily = useCanvasFontFamily(DEFAULT_FONT, 400)
  const titleStyle = useMemo<TextStyleOptions>(
    () => ({
      fontFamily: boldFamily,
      fontWeight: '700',
      fontSize: w * (sub ? 0.07 : 0.085),
      fill: ink,
      align: 'center',
      wordWrap: true,
      breakWords: true,
      wordWrapWidth: Math.max(1, w - 2 * pad),
    }),
    [boldFamily, w, pad, ink, sub],
  )
  const subStyle = useMemo<TextStyleOptions>(
    () => ({ fontFamily: regularFamily, fontSize: w * 0.055, fill: ink, align: 'center' }),
    [regularFamily, w, ink],
  )
  const buttonStyle = useMemo<TextStyleOptions>(
    () => ({
      fontFamily: boldFamily,
      fontWeight: '700',
      fontSize: w * 0.06,
      fill: fill,
      align: 'center',
    }),
    [boldFamily, w, fill],
  )
  const bodyTop = -h / 2 + pad
  const bodyBottom = h / 2 - pad - buttonH
  const mid = (bodyTop + bodyBottom) / 2
  return (
    <>
      <pixiGraphics draw={draw} />
      <pixiText
        text={title}
        style={titleStyle}
        anchor={{ x: 0.5, y: sub ? 1 : 0.5 }}
        resolution={2}
        y={sub ? mid + h * 0.02 : mid}
      />
      {sub ? (
        <pixiText
          text={sub}
          style={subStyle}
          anchor={{ x: 0.5, y: 0 }}
          resolution={2}
          y={mid + h * 0.06}
        />
      ) : null}
      <pixiText
        text={button}
        style={buttonStyle}
        anchor={0.5}
        resolution={2}
        y={h / 2 - pad - buttonH / 2}
      />
    </>
  )
}
