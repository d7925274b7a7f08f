import { Trans, useLingui } from '@lingui/react/macro'
import { Box, Group, Text } from '../../../ui/layout.tsx'
import { IconButton } from '../../../ui/button.tsx'
import { Modal } from '../../../ui/modal.ts'
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react'
import { useCallback, useEffect, useMemo, useRef, useState, type PointerEvent } from 'react'
import type { Specialist } from '../../../domain/directory.ts'
import type { Background } from '../../../domain/project.ts'
import type { LocalBlock } from '../editor-data.ts'
import { editorFonts } from '../fonts/use-fonts.ts'
import type { EditorKind } from '../model/layout.ts'
import { FRAME_WIDTH } from '../model/layout.ts'
import { backgroundAnchor } from '../model/preview-layout.ts'
import { PageSection } from './page-section.tsx'
import { useBackgroundLabel } from '../background-label.ts'

export interface ProjectPreviewProps {
  opened: boolean
  onClose: () => void
  kind: EditorKind
  backgrounds: readonly Background[]
  /** The editor's current blocks (unsaved edits included). */
  blocks: readonly LocalBlock[]
  specialists: readonly Specialist[]
  resolveFileUrl: (url: string) => string
}

/** Horizontal travel (px) after which a pointer gesture counts as a swipe, not a tap. */
const SWIPE_PX = 40

/**
 * The project as a visitor sees it, drawn with plain DOM: type 1 («Лендинг») scrolls through its
 * sections in a desktop-width frame, type 2 («Сторис») shows one slide at a time in a phone frame.
 */
export function ProjectPreview(props: ProjectPreviewProps) {
  const { t } = useLingui()
  // The web fonts' faces are known to the document, so the text below loads its font by itself.
  useEffect(() => {
    editorFonts()
  }, [])
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      fullScreen
      title={t`Предпросмотр`}
      closeButtonProps={{ 'aria-label': t`Закрыть предпросмотр`, size: 'lg' }}
      transitionProps={{ duration: 0 }}
      styles={{
        content: { display: 'flex', flexDirection: 'column' },
        body: { flex: 1, minHeight: 0, padding: 0, background: 'var(--mantine-color-gray-8)' },
      }}
    >
      {props.kind === 'landing' ? <LandingPreview {...props} /> : <StoriesPreview {...props} />}
    </Modal>
  )
}

function useSpecialistName(specialists: readonly Specialist[]) {
  const names = useMemo(() => new Map(specialists.map((s) => [s.id, s.name])), [specialists])
  return useCallback((id: number | null) => (id === null ? null : (names.get(id) ?? null)), [names])
}

/** One background with its blocks (page-section.tsx, shared with the published page). */
function BackgroundView({
  bg,
  index,
  props,
  specialistName,
  onTarget,
}: {
  bg: Background
  index: number
  props: ProjectPreviewProps
  specialistName: (id: number | null) => string | null
  onTarget: (bgId: number) => void
}) {
  const backgroundLabel = useBackgroundLabel(props.kind)
  return (
    <PageSection
      bg={bg}
      label={backgroundLabel(index)}
      blocks={props.blocks}
      resolveFileUrl={props.resolveFileUrl}
      specialistName={specialistName}
      onTarget={onTarget}
    />
  )
}

function EmptyPreview() {
  return (
    <Text c="gray.0" ta="center" p="xl">
      <Trans>В проекте пока нет фонов — добавьте первый, чтобы увидеть предпросмотр.</Trans>
    </Text>
  )
}

/** Type 1: sections one under another, the page scrolls. */
function LandingPreview(props: ProjectPreviewProps) {
  const specialistName = useSpecialistName(props.specialists)
  const root = useRef<HTMLDivElement>(null)
  const onTarget = useCallback((bgId: number) => {
    root.current
      ?.querySelector(`#${backgroundAnchor(bgId)}`)
      ?.scrollIntoView({ behavior: 'smooth', block: 'start' })
  }, [])
  if (props.backgrounds.length === 0) return <EmptyPreview />
  return (
    <Box ref={root} h="100%" style={{ overflowY: 'auto' }} data-testid="landing-preview">
      <Box maw={FRAME_WIDTH.landing} mx="auto" bg="white">
        {props.backgrounds.map((bg, index) => (
          <BackgroundView
            key={bg.id}
            bg={bg}
            index={index}
            props={props}
            specialistName={specialistName}
            onTarget={onTarget}
          />
        ))}
      </Box>
    </Box>
  )
}

/** Type 2: a phone-sized 9:16 frame, one slide at a time, tap / swipe / arrow keys to move. */
function StoriesPreview(props: ProjectPreviewProps) {
  const { t } = useLingui()
  const specialistName = useSpecialistName(props.specialists)
  const count = props.backgrounds.length
  const [current, setCurrent] = useState(0)
  const index = Math.min(current, Math.max(0, count - 1))
  const go = useCallback(
    (step: number) => setCurrent((i) => Math.max(0, Math.min(count - 1, i + step))),
    [count],
  )
  const { backgrounds } = props
  const onTarget = useCallback(
    (bgId: number) => {
      const i = backgrounds.findIndex((b) => b.id === bgId)
      if (i >= 0) setCurrent(i)
    },
    [backgrounds],
  )

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'ArrowRight' || event.key === 'ArrowDown' || event.key === 'PageDown') {
        event.preventDefault()
        go(1)
      } else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp' || event.key === 'PageUp') {
        event.preventDefault()
        go(-1)
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [go])

  const start = useRef<{ x: number; y: number } | null>(null)
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    start.current = { x: e.clientX, y: e.clientY }
  }
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    const from = start.current
    start.current = null
    if (!from) return
    const dx = e.clientX - from.x
    const dy = e.clientY - from.y
    if (Math.abs(dx) >= SWIPE_PX && Math.abs(dx) > Math.abs(dy)) {
      go(dx < 0 ? 1 : -1)
      return
    }
    // Taps on the slide's own controls (links, buttons, video) belong to them.
    if (Math.abs(dx) > 10 || Math.abs(dy) > 10) return
    if ((e.target as Element).closest('a, button, video')) return
    const rect = e.currentTarget.getBoundingClientRect()
    go(e.clientX - rect.left < rect.width / 2 ? -1 : 1)
  }

  if (count === 0) return <EmptyPreview />
  const bg = props.backgrounds[index]!
  const number = index + 1
  return (
    <Group h="100%" justify="center" align="center" gap="md" wrap="nowrap" p="sm">
      <Box visibleFrom="sm">
        <IconButton
          variant="white"
          aria-label={t`Предыдущий слайд`}
          disabled={index === 0}
          onClick={() => go(-1)}
        >
          <IconChevronLeft />
        </IconButton>
      </Box>
      <div
        data-testid="stories-preview"
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        onPointerCancel={() => (start.current = null)}
        style={{
          position: 'relative',
          height: 'min(100%, 860px)',
          maxWidth: '100%',
          aspectRatio: '9 / 16',
          background: '#000',
          borderRadius: 24,
          overflow: 'hidden',
          touchAction: 'pan-y',
          userSelect: 'none',
          display: 'flex',
          flexDirection: 'column',
          justifyContent: 'center',
        }}
      >
        <div
          role="progressbar"
          aria-label={t`Слайд ${number} из ${count}`}
          aria-valuemin={1}
          aria-valuemax={count}
          aria-valuenow={index + 1}
          style={{
            position: 'absolute',
            top: 10,
            left: 10,
            right: 10,
            display: 'flex',
            gap: 4,
            zIndex: 1_000_001,
          }}
        >
          {props.backgrounds.map((b, i) => (
            <div
              key={b.id}
              style={{
                flex: 1,
                height: 3,
                borderRadius: 2,
                background: i <= index ? '#fff' : 'rgba(255,255,255,0.4)',
              }}
            />
          ))}
        </div>
        <div style={{ maxHeight: '100%', overflowY: 'auto' }}>
          <BackgroundView
            key={bg.id}
            bg={bg}
            index={index}
            props={props}
            specialistName={specialistName}
            onTarget={onTarget}
          />
        </div>
      </div>
      <Box visibleFrom="sm">
        <IconButton
          variant="white"
          aria-label={t`Следующий слайд`}
          disabled={index >= count - 1}
          onClick={() => go(1)}
        >
          <IconChevronRight />
        </IconButton>
      </Box>
    </Group>
  )
}
