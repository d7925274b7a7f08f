import '../editor-messages.ts'
import { useLingui } from '@lingui/react/macro'
import { IconPhoto } from '@tabler/icons-react'
import { halfHeightUnits, roundStored } from '../../../domain/geometry.ts'
import { Text } from '../../../ui/layout.tsx'
import {
  noProgress,
  PendingUpload,
  UploadButton,
  type BlockPanel,
  type BlockPanelProps,
} from '../inspector/panel-parts.tsx'
import { IMAGE_TYPES, readImageSize } from '../upload.ts'
import { MediaPanel } from './media-panel.tsx'
import type { BlockPatch } from './types.ts'

/** Image: the picture (shown, uploaded) and its name, then its size (`media-panel.tsx`). */
export const imagePanel: BlockPanel<'image'> = { icon: IconPhoto, Panel: ImagePanel }

function ImagePanel(props: BlockPanelProps<'image'>) {
  const { t } = useLingui()
  const { ctx } = props
  const block = ctx.block
  const onFile = async (file: File) => {
    const size = await readImageSize(file)
    const url = await props.uploadFile(file)
    const patch: BlockPatch<'image'> = { image_url: url }
    if (props.background && size.width > 0) {
      // Keep the picture's own proportions at the block's width.
      const heightUnits = (block.width * 2 * size.height) / size.width
      patch.height = roundStored((heightUnits / (2 * halfHeightUnits(props.background))) * 100)
      patch.scaleX = 1
      patch.scaleY = 1
    }
    ctx.commit(patch, 'image_url')
  }
  return (
    <MediaPanel
      ctx={{ block: ctx.block, commit: ctx.commit }}
      title={t`Изображение`}
      keepAspect={props.keepAspect}
      onKeepAspect={props.onKeepAspect}
    >
      {props.resolveFileUrl(block.image_url) ? (
        <img
          src={props.resolveFileUrl(block.image_url)}
          alt={t`Загруженное изображение`}
          style={{
            display: 'block',
            width: '100%',
            maxHeight: 140,
            objectFit: 'contain',
            borderRadius: 'var(--mantine-radius-sm)',
          }}
        />
      ) : (
        <Text size="sm" c="dimmed">{t`Изображение ещё не загружено`}</Text>
      )}
      <PendingUpload
        url={block.image_url}
        useUploadProgress={props.useUploadProgress ?? noProgress}
      />
      <UploadButton
        accept={IMAGE_TYPES}
        kind="image"
        label={t`Загрузить изображение`}
        onFile={onFile}
      />
    </MediaPanel>
  )
}
