import {
  useContext,
  useRef,
  useState,
  type CSSProperties,
  type MouseEvent,
  type ReactNode,
  type RefObject,
} from 'react'
import { PLAY_SIGN, stillTime } from '../blocks/shared.ts'
import type {
  Appearance,
  MediaPrimitive,
  PlayPrimitive,
  Primitive,
  RectPrimitive,
  TextPrimitive,
} from '../blocks/types.ts'
import { fontStack } from '../model/fonts.ts'
import { videoEmbed } from '../../../domain/video-embed.ts'
import { PublishedImagesContext } from './published-images.ts'

/**
 * The preview's renderer of a block's appearance (`blocks/`): the same primitives the canvas draws,
 * as DOM. Lengths are stored units, half a `cqw` of the background each (it is 200 wide), so the
 * block scales with the width its background is shown at. Editor-only primitives are left out.
 */

/** What pressing a block's action does: a link, or a button. */
export interface DomAction {
  href?: string
  target?: string
  rel?: string
  onClick?: (event: MouseEvent<HTMLElement>) => void
  /** `link`: an `<a>` (without `href` when there is nowhere to go); `button`: a `<button>`. */
  element: 'link' | 'button'
}

const u = (n: number) => `${n / 2}cqw`

export interface DomBlockProps {
  look: Appearance
  resolveFileUrl: (url: string) => string
  action: DomAction | null
  /** The play sign's name («Смотреть видео», BlockLabels). */
  playLabel: string
  /** The published page: a video loads nothing until it is played (docs/publishing.md). */
  published?: boolean
}

export function DomBlock({
  look,
  resolveFileUrl,
  action,
  playLabel,
  published,
}: DomBlockProps): ReactNode {
  const video = useRef<HTMLVideoElement>(null)
  const [playing, setPlaying] = useState(false)
  const play = () => {
    setPlaying(true)
    if (video.current) video.current.currentTime = 0
    // A browser that refuses to play (no autoplay, no codec) leaves the controls to try again.
    video.current?.play()?.catch(() => undefined)
  }
  return look.primitives.map((p, i) => (
    <DomPrimitive
      key={i}
      p={p}
      resolveFileUrl={resolveFileUrl}
      action={action}
      videoRef={video}
      playing={playing}
      onPlay={play}
      playLabel={playLabel}
      published={published === true}
    />
  ))
}

function DomPrimitive(props: {
  p: Primitive
  resolveFileUrl: (url: string) => string
  action: DomAction | null
  /** The block's video and whether it plays: the play sign starts it. */
  videoRef: RefObject<HTMLVideoElement | null>
  playing: boolean
  onPlay: () => void
  playLabel: string
  published: boolean
}): ReactNode {
  const { p } = props
  if ('editorOnly' in p && p.editorOnly) return null
  switch (p.kind) {
    case 'rect':
      return <DomRect p={p} action={props.action} />
    case 'text':
      return <DomText p={p} />
    case 'media':
      return (
        <DomMedia
          p={p}
          resolveFileUrl={props.resolveFileUrl}
          videoRef={props.videoRef}
          playing={props.playing}
          published={props.published}
        />
      )
    case 'play':
      return props.playing ? null : <DomPlay p={p} onPlay={props.onPlay} label={props.playLabel} />
  }
}
/** `#rrggbb` with an alpha as CSS. */
function cssColour(color: string, alpha = 1): string {
  if (alpha >= 1) return color
  const hex = color.replace('#', '')
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex.slice(0, 6)
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16))
  return `rgba(${r}, ${g}, ${b}, ${alpha})`
}

function DomRect({ p, action }: { p: RectPrimitive; action: DomAction | null }) {
  const border = p.border ? p.border.width : 0
  const style: CSSProperties = {
    position: 'absolute',
    left: u(p.x),
    top: u(p.y),
    width: u(p.w),
    ...(p.h === null ? { bottom: 0 } : { height: u(p.h) }),
    boxSizing: 'border-box',
    margin: 0,
    padding: 0,
    background: p.fill ?? 'transparent',
    border: p.border
      ? `${u(p.border.width)} solid ${cssColour(p.border.color, p.border.alpha)}`
      : 'none',
    borderRadius: u(p.radius),
    display: 'block',
    font: 'inherit',
    color: 'inherit',
    textDecoration: 'none',
    overflow: 'hidden',
  }
  // The label is placed from the rectangle's inner edge (inside its border).
  const label = p.label ? (
    <DomText p={{ ...p.label, x: p.label.x - p.x - border, y: p.label.y - p.y - border }} />
  ) : null
  if (!p.action || !action) return <div style={style}>{label}</div>
  if (action.element === 'button') {
    return (
      <button
        type="button"
        style={{ ...style, cursor: 'pointer', appearance: 'none' }}
        onClick={action.onClick}
      >
        {label}
      </button>
    )
  }
  return (
    <a
      href={action.href}
      target={action.target}
      rel={action.rel}
      onClick={action.onClick}
      style={{ ...style, cursor: action.href ? 'pointer' : 'default' }}
    >
      {label}
    </a>
  )
}

const SHIFT_Y = { top: '0', middle: '-50%', bottom: '-100%' } as const

function DomText({ p }: { p: TextPrimitive }) {
  // A text block's paragraph is in the flow: the block is as high as its lines.
  const style: CSSProperties = {
    position: p.sizesBlock ? 'relative' : 'absolute',
    left: u(p.x),
    top: p.sizesBlock ? undefined : u(p.y),
    width: u(p.width),
    transform: p.anchor === 'top' ? undefined : `translateY(${SHIFT_Y[p.anchor]})`,
    margin: 0,
    fontFamily: fontStack(p.font),
    fontWeight: p.weight,
    fontSize: u(p.size),
    lineHeight: p.lineHeight,
    color: p.color,
    textAlign: p.align,
    whiteSpace: 'pre-wrap',
    overflowWrap: p.breakWords ? 'anywhere' : 'normal',
  }
  return <div style={style}>{p.text}</div>
}

/**
 * A picture; or a video's still, with the play sign over it as the canvas draws it (pressing the
 * sign plays it, with the browser's controls from then on).
 */
function DomMedia({
  p,
  resolveFileUrl,
  videoRef,
  playing,
  published,
}: {
  p: MediaPrimitive
  resolveFileUrl: (url: string) => string
  videoRef: RefObject<HTMLVideoElement | null>
  playing: boolean
  published: boolean
}) {
  const images = useContext(PublishedImagesContext)
  const src = resolveFileUrl(p.src)
  if (!src) return null
  const style: CSSProperties = {
    position: 'absolute',
    left: u(p.cx - p.w / 2),
    top: u(p.cy - p.h / 2),
    width: u(p.w),
    height: u(p.h),
    objectFit: 'fill',
    display: 'block',
  }
  if (p.media === 'image') {
    // On the published page: the copy the screen needs (the block is p.w / 2 % of its section,
    // which is as wide as the screen), after the first screen only when the visitor comes near.
    const copies = images?.copies(p.src) ?? null
    const sizes = `${p.w / 2}vw`
    const img = (
      <img
        src={src}
        alt={p.alt}
        style={style}
        {...(copies ? { srcSet: copies.own, sizes } : {})}
        {...(images ? { loading: images.lazy ? 'lazy' : undefined, decoding: 'async' } : {})}
      />
    )
    if (!copies) return img
    return (
      <picture>
        <source type="image/webp" srcSet={copies.webp} sizes={sizes} />
        {img}
      </picture>
    )
  }
  // A YouTube, VK Video or Rutube link: nothing of theirs loads before the play sign is pressed.
  const embed = videoEmbed(p.src)
  if (embed) {
    return playing ? (
      <iframe
        src={embed.embed}
        title={p.alt || embed.provider}
        allow="autoplay; encrypted-media; fullscreen; picture-in-picture"
        allowFullScreen
        style={{ ...style, border: 0, background: '#000' }}
      />
    ) : (
      <a
        href={embed.watch}
        target="_blank"
        rel="noopener noreferrer"
        data-embed={embed.embed}
        aria-label={p.alt || embed.provider}
        style={{ ...style, background: '#000' }}
      />
    )
  }
  return (
    <video
      ref={videoRef}
      src={src}
      controls={playing}
      playsInline
      // The published page loads nothing before a tap (its script plays it, docs/publishing.md).
      preload={published ? 'none' : 'metadata'}
      // The still the canvas shows, until the play sign is pressed.
      onLoadedMetadata={(event) => {
        if (!playing) event.currentTarget.currentTime = stillTime(event.currentTarget.duration)
      }}
      aria-label={p.alt || undefined}
      style={{ ...style, background: '#000' }}
    />
  )
}

function DomPlay({ p, onPlay, label }: { p: PlayPrimitive; onPlay: () => void; label: string }) {
  const points = PLAY_SIGN.map(([x, y]) => `${x},${y}`).join(' ')
  return (
    <button
      type="button"
      aria-label={label}
      data-play=""
      onClick={onPlay}
      style={{
        position: 'absolute',
        left: u(p.cx - p.r),
        top: u(p.cy - p.r),
        width: u(2 * p.r),
        height: u(2 * p.r),
        margin: 0,
        padding: 0,
        border: 'none',
        background: 'none',
        cursor: 'pointer',
      }}
    >
      <svg viewBox="-1 -1 2 2" style={{ display: 'block', width: '100%', height: '100%' }}>
        <circle r={1} fill={p.disc.color} fillOpacity={p.disc.alpha} />
        <polygon points={points} fill={p.sign} />
      </svg>
    </button>
  )
}
