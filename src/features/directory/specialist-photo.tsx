import { useLingui } from '@lingui/react/macro'
import { Avatar } from '@mantine/core'
import { useFileUrl } from '../../data/live.ts'

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
