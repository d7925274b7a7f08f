import '../editor-messages.ts'
import { Trans, useLingui } from '@lingui/react/macro'
import { IconVideo, IconX } from '@tabler/icons-react'
import { useState } from 'react'
import { localFileId } from '../../../data/ids.ts'
import { Button } from '../../../ui/button.tsx'
import { Group, Text } from '../../../ui/layout.tsx'
import { SegmentedControl } from '../../../ui/segmented-control.ts'
import { TextField } from '../inspector/fields.tsx'
import {
  noProgress,
  PendingUpload,
  UploadButton,
  URL_HINT,
  type BlockPanel,
  type BlockPanelProps,
} from '../inspector/panel-parts.tsx'
import { VIDEO_TYPES } from '../upload.ts'
import { MediaPanel } from './media-panel.tsx'

/**
 * Video: its source (a link or a file, uploaded or on the device) and its name, then its size
 * (`media-panel.tsx`).
 */
export const videoPanel: BlockPanel<'video'> = { icon: IconVideo, Panel: VideoPanel }

function VideoPanel(props: BlockPanelProps<'video'>) {
  const { t } = useLingui()
  const { ctx } = props
  const block = ctx.block
  const [source, setSource] = useState<'url' | 'file'>(block.video_src ? 'file' : 'url')
  const onFile = async (file: File) => {
    const url = await props.uploadFile(file)
    ctx.commit({ video_src: url }, 'video_src')
  }
  return (
    <MediaPanel
      ctx={{ block: ctx.block, commit: ctx.commit }}
      title={t`Видео`}
      keepAspect={props.keepAspect}
      onKeepAspect={props.onKeepAspect}
    >
      <SegmentedControl
        fullWidth
        aria-label={t`Источник видео`}
        value={source}
        onChange={(next) => setSource(next as 'url' | 'file')}
        data={[
          { value: 'url', label: t`По ссылке` },
          { value: 'file', label: t`Файл` },
        ]}
      />
      {source === 'url' ? (
        <TextField
          ctx={ctx}
          field="video_url"
          label={t`Ссылка на видео`}
          placeholder={URL_HINT}
          type="url"
        />
      ) : (
        <>
          {block.video_src ? (
            <>
              {/* A file on the device resolves to a blob: URL a moment after it is stored. */}
              {props.resolveFileUrl(block.video_src) ? (
                <video
                  src={props.resolveFileUrl(block.video_src)}
                  controls
                  muted
                  playsInline
                  preload="metadata"
                  aria-label={t`Загруженное видео`}
                  style={{ width: '100%', maxHeight: 160, background: '#000', borderRadius: 4 }}
                />
              ) : null}
              <Group gap="xs" wrap="nowrap">
                <Text size="sm" truncate="end" flex={1}>
                  {localFileId(block.video_src) === null ? block.video_src : t`Видео с устройства`}
                </Text>
                <Button
                  variant="subtle"
                  color="red"
                  size="sm"
                  leftSection={<IconX size={16} />}
                  onClick={() => ctx.commit({ video_src: '' }, 'video_src')}
                >
                  <Trans>Убрать</Trans>
                </Button>
              </Group>
              <PendingUpload
                url={block.video_src}
                useUploadProgress={props.useUploadProgress ?? noProgress}
              />
            </>
          ) : (
            <Text size="sm" c="dimmed">{t`Файл не выбран`}</Text>
          )}
          <UploadButton
            accept={VIDEO_TYPES}
            kind="video"
            label={t`Загрузить видео`}
            onFile={onFile}
          />
        </>
      )}
    </MediaPanel>
  )
}
