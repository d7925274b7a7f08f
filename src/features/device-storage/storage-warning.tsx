import { t } from '@lingui/core/macro'
import { IconDatabaseExclamation } from '@tabler/icons-react'
import { showNotice } from '../../ui/notify.tsx'

/**
 * Warns, in Russian, that the device is running out of space (src/app/device-storage.ts loads
 * this, with Mantine's notifications, only when it is: docs/performance.md).
 */
export function warnStorageShort(freeBytes: number | null): void {
  const mb = Math.floor((freeBytes ?? 0) / (1024 * 1024))
  showNotice({
    id: 'storage-short',
    color: 'yellow',
    title: t`Мало места на устройстве`,
    message: t`Свободно около ${mb} МБ. Изменения, ещё не отправленные на сервер, хранятся на этом устройстве: освободите место, чтобы ничего не потерять.`,
    icon: <IconDatabaseExclamation size={20} />,
  })
}
