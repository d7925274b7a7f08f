import { useLingui } from '@lingui/react/macro'
import { IconAlertTriangle, IconCloudUpload } from '@tabler/icons-react'
import { Badge } from './badge.tsx'

export type SyncMarkState = 'pending' | 'parked' | 'conflict'

/**
 * Says that a record's change has not reached the server yet (pending), was rejected by it
 * (parked), or meets a colleague's change and waits for the person's choice (conflict). Text, not
 * only colour, so it reads without hover and for assistive technology.
 */
export function SyncMark({ state }: { state: SyncMarkState | undefined }) {
  const { t } = useLingui()
  if (!state) return null
  if (state === 'conflict')
    return (
      <Badge
        color="orange"
        leftSection={<IconAlertTriangle size={14} aria-hidden />}
        data-sync-mark="conflict"
      >
        {t`Конфликт`}
      </Badge>
    )
  if (state === 'parked')
    return (
      <Badge
        color="red"
        leftSection={<IconAlertTriangle size={14} aria-hidden />}
        data-sync-mark="parked"
      >
        {t`Не принято сервером`}
      </Badge>
    )
  return (
    <Badge
      color="orange"
      leftSection={<IconCloudUpload size={14} aria-hidden />}
      data-sync-mark="pending"
    >
      {t`Ждёт отправки`}
    </Badge>
  )
}
