import type { CSSProperties, MouseEvent } from 'react'
import { halfHeightUnits, type Size } from '../../../domain/geometry.ts'
import { takesRequests } from '../../../domain/block.ts'
import { actionOf, appearanceOf } from '../blocks/index.ts'
import { useBlockLabels } from '../blocks/use-block-labels.ts'
import type { LocalBlock } from '../editor-data.ts'
import { previewBox } from '../model/preview-layout.ts'
import { DomBlock, type DomAction } from './dom-primitives.tsx'

export interface PreviewBlockProps {
  block: LocalBlock
  background: Size
  resolveFileUrl: (url: string) => string
  specialistName: (id: number | null) => string | null
  /** A target button was followed: show the background with this id (scroll or change slide). */
  onTarget: (bgId: number) => void
  /** On the published page a video loads nothing until it is played (docs/publishing.md). */
  published?: boolean
}

/**
 * One block as a visitor sees it, positioned in percentages of its background
 * (docs/editor.md "Geometry") and drawn from its appearance (`blocks/`), as the canvas draws it.
 */
export function PreviewBlock({
  block,
  background,
  resolveFileUrl,
  specialistName,
  onTarget,
  published,
}: PreviewBlockProps) {
  const labels = useBlockLabels()
  const watch = labels.watchVideo
  const box = previewBox(block, background)
  const look = appearanceOf(block, {
    bgHeight: 2 * halfHeightUnits(background),
    labels,
    specialistName,
  })
  // Centred by layout rather than by a transform: the browser lays a transformed box on a whole
  // pixel before moving it by half its size, which puts its paint up to half a pixel off its place
  // (and rounds its texts again there); laid out, a block is painted where it is, as the canvas
  // draws it (docs/editor.md «Canvas and preview, pixel for pixel»). A zero-height band at the
  // centre with auto margins centres a box of any height, one whose text decides it too.
  const style: CSSProperties = {
    position: 'absolute',
    left: `${box.left - box.width / 2}%`,
    width: `${box.width}%`,
    top: `${box.top}%`,
    bottom: `${100 - box.top}%`,
    height: box.height === null ? 'fit-content' : `${box.height}%`,
    marginTop: 'auto',
    marginBottom: 'auto',
    transform: box.rotation ? `rotate(${box.rotation}deg)` : undefined,
    zIndex: box.zIndex,
    boxSizing: 'border-box',
  }
  return (
    <div style={style} data-block-type={block.type}>
      <DomBlock
        look={look}
        resolveFileUrl={resolveFileUrl}
        action={domActionOf(block, onTarget, published === true)}
        playLabel={watch}
        published={published}
      />
    </div>
  )
}

/**
 * What the block's button does for a visitor: its type's action (`blocks/<type>.ts` `action`) as
 * a link or a button of the page.
 */
function domActionOf(
  block: LocalBlock,
  onTarget: (bgId: number) => void,
  published: boolean,
): DomAction | null {
  // On the published page a request-taking block's button opens its form (docs/requests.md).
  if (published && takesRequests(block.type)) {
    return { element: 'link', href: `#form-${block.id}` }
  }
  const action = actionOf(block)
  if (action === null || action.element === 'button') return action
  const { href, newTab, goTo } = action
  if (goTo !== undefined) {
    const follow = (event: MouseEvent<HTMLElement>) => {
      event.preventDefault()
      if (goTo !== null) onTarget(goTo)
    }
    return { element: 'link', href, onClick: href ? follow : undefined }
  }
  return newTab && href
    ? { element: 'link', href, target: '_blank', rel: 'noopener noreferrer' }
    : { element: 'link', href }
}
