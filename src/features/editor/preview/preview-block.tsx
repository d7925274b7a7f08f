import { useLingui } from '@lingui/react/macro'
import type { CSSProperties, MouseEvent, ReactNode } from 'react'
import type { BlockOf } from '../../../domain/block.ts'
import { formatDayMonth, formatPrice } from '../../../domain/format.ts'
import { halfHeightUnits, type Size } from '../../../domain/geometry.ts'
import type { LocalBlock } from '../editor-data.ts'
import { buttonRadiusUnits, LINE_HEIGHT } from '../model/block-shape.ts'
import { DEFAULT_FONT, fontStack } from '../model/fonts.ts'
import { buttonHref, previewBox, safeHref } from '../model/preview-layout.ts'

export interface PreviewBlockProps {
  block: LocalBlock
  background: Size
  resolveFileUrl: (url: string) => string
  specialistName: (id: number | null) => string | null
  /** A target button was followed: show the background with this id (scroll or change slide). */
  onTarget: (bgId: number) => void
}

const CARD_COLORS = { gift: '#e64980', price: '#2b8a3e', subscribe: '#1c7ed6' } as const
const COLOR_RE = /^(#[0-9a-f]{3,8}|transparent|rgba?\([^)]*\))$/i

function cssColor(value: string, fallback: string): string {
  return COLOR_RE.test(value.trim()) ? value.trim() : fallback
}

/** Dark ink on light cards, white on dark ones (the canvas draws cards the same way). */
function ink(hex: string): string {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex)
  if (!m) return '#ffffff'
  const h = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(h.slice(i, i + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45 ? '#212529' : '#ffffff'
}

/** One block as a visitor sees it, positioned in percentages of its background (DESIGN §3). */
export function PreviewBlock({
  block,
  background,
  resolveFileUrl,
  specialistName,
  onTarget,
}: PreviewBlockProps) {
  const box = previewBox(block, background)
  const scale =
    block.type === 'image' || block.type === 'video'
      ? ` scale(${block.scaleX}, ${block.scaleY})`
      : ''
  const style: CSSProperties = {
    position: 'absolute',
    left: `${box.left}%`,
    top: `${box.top}%`,
    width: `${box.width}%`,
    height: box.height === null ? undefined : `${box.height}%`,
    transform: `translate(-50%, -50%) rotate(${box.rotation}deg)${scale}`,
    zIndex: box.zIndex,
    fontSize: box.fontSize === null ? undefined : `${box.fontSize}cqw`,
    boxSizing: 'border-box',
  }
  return (
    <div style={style} data-block-type={block.type}>
      <BlockContent
        block={block}
        background={background}
        cardWidth={box.width}
        resolveFileUrl={resolveFileUrl}
        specialistName={specialistName}
        onTarget={onTarget}
      />
    </div>
  )
}

function BlockContent(props: {
  block: LocalBlock
  background: Size
  cardWidth: number
  resolveFileUrl: (url: string) => string
  specialistName: (id: number | null) => string | null
  onTarget: (bgId: number) => void
}): ReactNode {
  const { block } = props
  switch (block.type) {
    case 'text':
      return (
        <div
          style={{
            color: cssColor(block.color, '#000000'),
            background: cssColor(block.background, 'transparent'),
            textAlign: block.align,
            fontFamily: fontStack(block.font),
            lineHeight: LINE_HEIGHT,
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
          }}
        >
          {block.text}
        </div>
      )
    case 'button':
      return <ButtonContent block={block} background={props.background} onTarget={props.onTarget} />
    case 'image':
      return props.resolveFileUrl(block.image_url) ? (
        <img
          src={props.resolveFileUrl(block.image_url)}
          alt={block.name}
          style={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
        />
      ) : null
    case 'video': {
      const source = block.video_src || block.video_url
      return props.resolveFileUrl(source) ? (
        <video
          src={props.resolveFileUrl(source)}
          controls
          playsInline
          preload="metadata"
          aria-label={block.name || undefined}
          style={{ width: '100%', height: '100%', display: 'block', background: '#000' }}
        />
      ) : null
    }
    case 'gift':
    case 'price':
    case 'subscribe':
      return (
        <CardContent
          block={block}
          cardWidth={props.cardWidth}
          specialistName={props.specialistName}
        />
      )
  }
}

function ButtonContent({
  block,
  background,
  onTarget,
}: {
  block: BlockOf<'button'>
  background: Size
  onTarget: (bgId: number) => void
}) {
  // Stored units are 1/200 of the background's width: half a cqw of its section.
  const heightUnits = (block.height / 100) * 2 * halfHeightUnits(background)
  const radius = `${buttonRadiusUnits(heightUnits) / 2}cqw`
  const href = buttonHref(block.btn_type, block.btn_type_value)
  const followTarget = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault()
    const id = Number(block.btn_type_value.trim())
    if (Number.isInteger(id)) onTarget(id)
  }
  const justify = { left: 'flex-start', center: 'center', right: 'flex-end' }[block.align]
  return (
    <a
      href={href ?? undefined}
      target={block.btn_type === 'link' && href ? '_blank' : undefined}
      rel={block.btn_type === 'link' && href ? 'noopener noreferrer' : undefined}
      onClick={block.btn_type === 'target' && href ? followTarget : undefined}
      style={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: justify,
        width: '100%',
        height: '100%',
        boxSizing: 'border-box',
        padding: '0 0.5em',
        textDecoration: 'none',
        color: cssColor(block.color, '#ffffff'),
        background: cssColor(block.background, '#228be6'),
        border: `${block.border_width / 2}cqw solid ${cssColor(block.border_color, 'transparent')}`,
        borderRadius: radius,
        fontFamily: fontStack(block.font),
        textAlign: block.align,
        overflow: 'hidden',
        cursor: href ? 'pointer' : 'default',
      }}
    >
      {block.text}
    </a>
  )
}

type Card = BlockOf<'gift'> | BlockOf<'price'> | BlockOf<'subscribe'>

function CardContent(props: {
  block: Card
  cardWidth: number
  specialistName: (id: number | null) => string | null
}) {
  const { t } = useLingui()
  const { block, cardWidth } = props
  const fill = cssColor('color' in block ? block.color : '', CARD_COLORS[block.type])
  const text = ink(fill)
  let title: string
  let sub = ''
  let action: string
  let href: string | null = null
  switch (block.type) {
    case 'gift':
      title = block.text
      action = t`Получить подарок`
      href = safeHref(block.button_url)
      break
    case 'price':
      title = block.text_price !== null ? formatPrice(block.text_price) : block.text
      action = block.button_text || t`Купить`
      break
    case 'subscribe':
      title = props.specialistName(block.specialist_id) ?? t`Специалист не выбран`
      sub = block.date
        ? formatDayMonth(block.date, { withYear: true }) || block.date
        : t`Дата не выбрана`
      action = block.action || t`Записаться`
      break
  }
  // Sizes in cqw (percent of the background's width), so the card scales like the canvas draws it.
  const w = cardWidth
  const actionStyle: CSSProperties = {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    height: '26%',
    borderRadius: 999,
    border: 'none',
    background: text,
    color: fill,
    fontFamily: fontStack(DEFAULT_FONT),
    fontWeight: 700,
    fontSize: `${w * 0.06}cqw`,
    textDecoration: 'none',
    cursor: 'pointer',
  }
  return (
    <div
      style={{
        display: 'flex',
        flexDirection: 'column',
        width: '100%',
        height: '100%',
        boxSizing: 'border-box',
        padding: `${w * 0.06}cqw`,
        borderRadius: `${w * 0.04}cqw`,
        background: fill,
        color: text,
        fontFamily: fontStack(DEFAULT_FONT),
        textAlign: 'center',
        boxShadow: 'inset 0 0 0 1px rgba(0,0,0,0.15)',
      }}
    >
      <div
        style={{
          flex: 1,
          display: 'flex',
          flexDirection: 'column',
          justifyContent: 'center',
          overflow: 'hidden',
          overflowWrap: 'anywhere',
        }}
      >
        <div style={{ fontWeight: 700, fontSize: `${w * (sub ? 0.07 : 0.085)}cqw` }}>{title}</div>
        {sub ? <div style={{ fontSize: `${w * 0.055}cqw` }}>{sub}</div> : null}
      </div>
      {block.type === 'gift' && href ? (
        <a href={href} target="_blank" rel="noopener noreferrer" style={actionStyle}>
          {action}
        </a>
      ) : (
        <button type="button" style={actionStyle}>
          {action}
        </button>
      )}
    </div>
  )
}
