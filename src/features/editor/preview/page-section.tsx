import { useMemo, type ReactNode } from 'react'
import type { Background } from '../../../domain/project.ts'
import type { LocalBlock } from '../editor-data.ts'
import { backgroundAnchor, blocksInOrder } from '../model/preview-layout.ts'
import { PreviewBlock } from './preview-block.tsx'

export interface PageSectionProps {
  bg: Pick<Background, 'id' | 'image_url' | 'width' | 'height'>
  /** What the section is called for assistive technology («Секция 2», «Слайд 1»). */
  label: string
  blocks: readonly LocalBlock[]
  resolveFileUrl: (url: string) => string
  specialistName: (id: number | null) => string | null
  onTarget: (bgId: number) => void
  /** The published page's own attributes of the background image (priority, loading). */
  image?: (bg: PageSectionProps['bg']) => Record<string, string | number | undefined>
  /** The published page's resized copies of the background image, WebP and its own format. */
  srcsets?: (bg: PageSectionProps['bg']) => { webp: string; own: string } | null
  /** The published page (docs/publishing.md): a video loads nothing until it is played. */
  published?: boolean
  children?: ReactNode
}

/**
 * One background with its blocks, as a visitor sees it: in the in-app preview and on the
 * published page alike (docs/publishing.md). Fonts in `cqw` scale with the width it is drawn at.
 */
export function PageSection({
  bg,
  label,
  blocks,
  resolveFileUrl,
  specialistName,
  onTarget,
  image,
  srcsets,
  published,
}: PageSectionProps) {
  const own = useMemo(() => blocksInOrder(blocks, bg.id), [blocks, bg.id])
  const ratio = bg.width > 0 && bg.height > 0 ? `${bg.width} / ${bg.height}` : '9 / 16'
  const src = resolveFileUrl(bg.image_url)
  return (
    <section
      id={backgroundAnchor(bg.id)}
      aria-label={label}
      style={{
        position: 'relative',
        width: '100%',
        aspectRatio: ratio,
        overflow: 'hidden',
        containerType: 'inline-size',
        // Its own stacking context, so the image (and blocks with a negative zindex) stay inside.
        isolation: 'isolate',
        background: 'var(--mantine-color-gray-2, #e9ecef)',
      }}
    >
      {src ? (
        <Picture srcsets={srcsets?.(bg) ?? null}>
          <img
            src={src}
            alt=""
            draggable={false}
            width={bg.width > 0 ? bg.width : undefined}
            height={bg.height > 0 ? bg.height : undefined}
            {...(srcsets?.(bg) ? { srcSet: srcsets(bg)!.own, sizes: '100vw' } : {})}
            {...image?.(bg)}
            // Below every block, even those with a negative zindex.
            style={{
              position: 'absolute',
              inset: 0,
              width: '100%',
              height: '100%',
              zIndex: -1_000_001,
            }}
          />
        </Picture>
      ) : null}
      {own.map((block, i) => (
        <PreviewBlock
          key={block.id ?? `new-${i}`}
          block={block}
          background={bg}
          resolveFileUrl={resolveFileUrl}
          specialistName={specialistName}
          onTarget={onTarget}
          published={published}
        />
      ))}
    </section>
  )
}

/** The image alone, or in a `<picture>` with its WebP copies first. */
function Picture({
  srcsets,
  children,
}: {
  srcsets: { webp: string; own: string } | null
  children: ReactNode
}) {
  if (!srcsets) return children
  return (
    <picture>
      <source type="image/webp" srcSet={srcsets.webp} sizes="100vw" />
      {children}
    </picture>
  )
}
