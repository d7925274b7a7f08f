import { Trans, useLingui } from '@lingui/react/macro'
import { useMemo } from 'react'
import { imageSrcsets, type PageSnapshot } from '../../domain/publish.ts'
import {
  type LocalBlock,
  PageSection,
  PublishedImagesContext,
  useBackgroundLabel,
} from '../editor/page-kit.ts'
import { PageForms } from './forms.tsx'

export interface PublishedPageProps {
  snapshot: PageSnapshot
  slug: string
  /** An uploaded file's address as the page links it (the stored URL, or its origin's). */
  resolveFileUrl: (url: string) => string
}

/** The background image's attributes: the first one is the largest paint, the rest wait. */
function imageAttributes(first: number) {
  return (bg: { id: number }) =>
    bg.id === first
      ? { fetchPriority: 'high', decoding: 'async' }
      : { loading: 'lazy', decoding: 'async' }
}

/**
 * A published project as its visitors see it (docs/publishing.md), drawn by the same sections and
 * blocks as the in-app preview (`editor/preview/page-section.tsx`): «Лендинг» as sections one
 * under another, each as wide as the screen; «Сторис» as slides that the page's script shows one
 * at a time (without it, one under another).
 */
export function PublishedPage({ snapshot, slug, resolveFileUrl }: PublishedPageProps) {
  const { t } = useLingui()
  const stories = snapshot.project.type === 2
  const label = useBackgroundLabel(stories ? 'stories' : 'landing')
  const blocks = snapshot.blocks as unknown as LocalBlock[]
  const names = useMemo(
    () => new Map(snapshot.specialists.map((s) => [s.id, s.name])),
    [snapshot.specialists],
  )
  const specialistName = (id: number | null) => (id === null ? null : (names.get(id) ?? null))
  const backgrounds = snapshot.backgrounds
  const image = imageAttributes(backgrounds[0]?.id ?? 0)
  const count = backgrounds.length
  const copies = (url: string) => {
    const size = snapshot.images?.[url]
    return size ? imageSrcsets(url, size.width) : null
  }
  const firstScreen = { copies, lazy: false }
  const below = { copies, lazy: true }
  const sections = backgrounds.map((bg, index) => (
    <PublishedImagesContext key={bg.id} value={index === 0 ? firstScreen : below}>
      <PageSection
        bg={bg}
        label={label(index)}
        blocks={blocks}
        resolveFileUrl={resolveFileUrl}
        specialistName={specialistName}
        // Target buttons are anchors: the browser scrolls, the script changes slides.
        onTarget={() => undefined}
        image={image}
        srcsets={(bg) => copies(bg.image_url)}
        published
      />
    </PublishedImagesContext>
  ))
  if (count === 0) {
    return (
      <main className="empty">
        <p>
          <Trans>Страница пока пуста.</Trans>
        </p>
      </main>
    )
  }
  const forms = <PageForms snapshot={snapshot} slug={slug} />
  if (!stories) {
    return (
      <>
        <main className="landing">{sections}</main>
        {forms}
      </>
    )
  }
  return (
    <>
      <main className="stories" data-stories="">
        <div
          className="progress"
          data-progress=""
          role="progressbar"
          aria-label={t`Слайды`}
          aria-valuemin={1}
          aria-valuemax={count}
          aria-valuenow={1}
        >
          {backgrounds.map((bg, i) => (
            <span key={bg.id} data-mark="" className={i === 0 ? 'on' : undefined} />
          ))}
        </div>
        {sections}
      </main>
      {forms}
    </>
  )
}
