import './editor-messages.ts'
import { Trans, useLingui } from '@lingui/react/macro'
import { Box, Group, ScrollBox, Stack, Text, VisuallyHidden } from '../../ui/layout.tsx'
import { Badge } from '../../ui/badge.tsx'
import { Button, PlainButton } from '../../ui/button.tsx'
import { FileButton } from '../../ui/file-button.tsx'
import { IconPhotoPlus, IconPlus } from '@tabler/icons-react'
import { useState } from 'react'
import type { Background } from '../../domain/project.ts'
import { notifyError } from '../../ui/notify.tsx'
import type { EditorData } from './editor-data.ts'
import type { EditorKind } from './model/layout.ts'
import { checkUpload, IMAGE_TYPES, readImageSize, uploadErrorText } from './upload.ts'
import { useBackgroundLabel } from './background-label.ts'
import type { Size } from '../../domain/geometry.ts'
import { needsStoryFit } from './story-fit/geometry.ts'
import {
  decodeImage,
  renderStorySlide,
  sampleEdgeColour,
  type StoryFitChoice,
} from './story-fit/render.ts'
import { StoryFitDialog } from './story-fit/story-fit-dialog.tsx'

interface FitRequest {
  file: Blob
  size: Size
  url: string
  colour: string
}

/**
 * Picks an image, checks it, reads its natural size and adds it as a background. A story asks first
 * when the picture is not 9:16, and adds the cropped or fitted result (docs/editor.md).
 */
export function AddBackgroundButton({
  addBackground,
  onAdded,
  compact,
  label,
  kind,
}: {
  addBackground: EditorData['addBackground']
  onAdded: (bgId: number) => void
  compact?: boolean
  label: string
  kind: EditorKind
}) {
  const [busy, setBusy] = useState(false)
  const [ask, setAsk] = useState<FitRequest | null>(null)
  const [rendering, setRendering] = useState(false)
  const [fitError, setFitError] = useState<string | null>(null)
  const closeAsk = () => {
    if (ask) URL.revokeObjectURL(ask.url)
    setAsk(null)
    setFitError(null)
  }
  const pick = (picked: File | null) => {
    if (!picked) return
    const file: File = picked
    const problem = checkUpload(file, IMAGE_TYPES, 'image')
    if (problem) {
      notifyError(problem)
      return
    }
    setBusy(true)
    readImageSize(file)
      .then(async (size) => {
        if (kind === 'stories' && needsStoryFit(size)) {
          const bitmap = await decodeImage(file)
          const colour = sampleEdgeColour(bitmap)
          bitmap.close()
          setAsk({ file, size, url: URL.createObjectURL(file), colour })
          return
        }
        onAdded(await addBackground(file, size))
      })
      .catch((e: unknown) => notifyError(uploadErrorText(e)))
      .finally(() => setBusy(false))
  }
  const choose = (choice: StoryFitChoice) => {
    if (!ask) return
    setRendering(true)
    setFitError(null)
    renderStorySlide(ask.file, choice)
      .then(({ blob, size }) => addBackground(blob, size))
      .then((bgId) => {
        closeAsk()
        onAdded(bgId)
      })
      // The dialog stays open with the picture: the person can try the other way or cancel.
      .catch((e: unknown) => setFitError(uploadErrorText(e)))
      .finally(() => setRendering(false))
  }
  return (
    <>
      <FileButton onChange={pick} accept={IMAGE_TYPES.join(',')}>
        {(props) => (
          <Button
            {...props}
            loading={busy}
            variant={compact ? 'default' : 'filled'}
            leftSection={compact ? <IconPlus size={18} /> : <IconPhotoPlus size={18} />}
          >
            {label}
          </Button>
        )}
      </FileButton>
      {ask ? (
        <StoryFitDialog
          imageUrl={ask.url}
          size={ask.size}
          defaultColour={ask.colour}
          busy={rendering}
          error={fitError}
          onChoose={choose}
          onCancel={() => {
            if (!rendering) closeAsk()
          }}
        />
      ) : null}
    </>
  )
}

function Thumb({
  bg,
  index,
  active,
  count,
  resolveFileUrl,
  kind,
  onClick,
}: {
  bg: Background
  index: number
  active: boolean
  count: number
  resolveFileUrl: (url: string) => string
  kind: EditorKind
  onClick: () => void
}) {
  const { t } = useLingui()
  const backgroundLabel = useBackgroundLabel(kind)
  const label = backgroundLabel(index)
  const number = index + 1
  const blocks = count > 0 ? t`блоков: ${count}` : t`без блоков`
  const width = kind === 'stories' ? 54 : 120
  const height = kind === 'stories' ? 96 : (120 * bg.height) / Math.max(1, bg.width)
  return (
    // Named by its text, «Секция 1, блоков: 7»: the badges show the same numbers to the eye only.
    <PlainButton
      onClick={onClick}
      aria-current={active ? 'true' : undefined}
      style={{
        borderRadius: 8,
        outline: active
          ? '3px solid var(--mantine-color-blue-6)'
          : '1px solid var(--mantine-color-gray-4)',
        outlineOffset: active ? 1 : 0,
        overflow: 'hidden',
        flex: 'none',
        position: 'relative',
      }}
    >
      <Box
        w={width}
        h={Math.min(height, 160)}
        style={{
          backgroundColor: 'var(--mantine-color-gray-1)',
          backgroundImage: resolveFileUrl(bg.image_url)
            ? `url("${resolveFileUrl(bg.image_url)}")`
            : undefined,
          backgroundSize: 'cover',
          backgroundPosition: 'center',
        }}
      />
      <VisuallyHidden>{`${label}, ${blocks}`}</VisuallyHidden>
      <Badge color="dark" style={{ position: 'absolute', top: 4, left: 4 }} aria-hidden>
        {number}
      </Badge>
      {count > 0 ? (
        <Badge color="white" style={{ position: 'absolute', bottom: 4, right: 4 }} aria-hidden>
          {count}
        </Badge>
      ) : null}
    </PlainButton>
  )
}

export interface BackgroundsNavProps {
  kind: EditorKind
  backgrounds: Background[]
  activeBgId: number | null
  blockCounts: Map<number, number>
  resolveFileUrl: (url: string) => string
  addBackground: EditorData['addBackground']
  onSelect: (bgId: number) => void
}

/**
 * A strip of thumbnails along the bottom: a story's slides, and a landing's sections on a narrow
 * screen (a tablet held upright), named as the project's kind names them.
 */
export function SlideStrip(props: BackgroundsNavProps) {
  const { t } = useLingui()
  return (
    <ScrollBox>
      {/* Room under the slides for a scroll bar drawn over the content (a tablet's). */}
      <Group gap="sm" wrap="nowrap" p={4} pb={12}>
        {/* Only slides are list items: the add button sits beside the list (an ARIA list holds
            list items only, and an empty one is none). */}
        {props.backgrounds.length > 0 ? (
          <Group
            gap="sm"
            wrap="nowrap"
            role="list"
            aria-label={props.kind === 'stories' ? t`Слайды` : t`Секции`}
          >
            {props.backgrounds.map((bg, i) => (
              <div role="listitem" key={bg.id}>
                <Thumb
                  bg={bg}
                  index={i}
                  kind={props.kind}
                  active={bg.id === props.activeBgId}
                  count={props.blockCounts.get(bg.id) ?? 0}
                  resolveFileUrl={props.resolveFileUrl}
                  onClick={() => props.onSelect(bg.id)}
                />
              </div>
            ))}
          </Group>
        ) : null}
        <AddBackgroundButton
          compact
          addBackground={props.addBackground}
          onAdded={props.onSelect}
          label={props.kind === 'stories' ? t`Слайд` : t`Секция`}
          kind={props.kind}
        />
      </Group>
    </ScrollBox>
  )
}

/** Landing: the sections, top to bottom. */
export function SectionList(props: BackgroundsNavProps) {
  const { t } = useLingui()
  return (
    <Stack gap={6}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed">
        <Trans>Секции</Trans>
      </Text>
      <Stack gap={8} role="list" aria-label={t`Секции`}>
        {props.backgrounds.map((bg, i) => (
          <div role="listitem" key={bg.id}>
            <Thumb
              bg={bg}
              index={i}
              kind="landing"
              active={bg.id === props.activeBgId}
              count={props.blockCounts.get(bg.id) ?? 0}
              resolveFileUrl={props.resolveFileUrl}
              onClick={() => props.onSelect(bg.id)}
            />
          </div>
        ))}
      </Stack>
      <AddBackgroundButton
        compact
        addBackground={props.addBackground}
        onAdded={props.onSelect}
        label={t`Секция`}
        kind="landing"
      />
    </Stack>
  )
}
