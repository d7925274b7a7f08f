import './directory-messages.ts'
import { useLingui } from '@lingui/react/macro'
import { Avatar, Progress, Stack, Text } from '@mantine/core'
import { isLocalFileUrl } from './photo-url.ts'
import { useFileUrl } from '../../mirror/live.ts'
import { useUploadProgress } from '../../sync/client.ts'

/** A specialist's photo; an upload still waiting in IndexedDB shows from there. */
export function SpecialistPhoto({
  url,
  name,
  size = 64,
}: {
  url: string
  name?: string
  size?: number
}) {
  const { t } = useLingui()
  const src = useFileUrl(url)
  return (
    <Avatar
      src={src || null}
      size={size}
      radius="md"
      alt={name ?? t`Фото специалиста`}
      name={name}
      color="initials"
    />
  )
}

/** The photo in the form, with what happens to a file not yet on the server. */
export function SpecialistPhotoPreview({ url }: { url: string }) {
  const { t } = useLingui()
  const progress = useUploadProgress(url)
  return (
    <Stack gap={4} align="center" w={96}>
      <SpecialistPhoto url={url} size={72} />
      {progress !== null ? (
        <Progress
          w="100%"
          size="sm"
          value={Math.round(progress * 100)}
          aria-label={t`Загрузка фото`}
        />
      ) : isLocalFileUrl(url) ? (
        <Text size="xs" c="dimmed" ta="center">
          {t`Ждёт загрузки`}
        </Text>
      ) : null}
    </Stack>
  )
}
