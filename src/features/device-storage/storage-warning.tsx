import { t } from '@lingui/core/macro'
import { notifications } from '@mantine/notifications'
import { IconDatabaseExclamation } from '@tabler/icons-react'
import { requestNotificationHost } from '../../ui/notification-host.tsx'
import { closeButtonProps } from '../../ui/notify.tsx'
import { checkStorage } from '../../sync/storage-status.ts'

/** Asks for persistent storage and warns, in Russian, when the device is running out of space. */
export async function checkDeviceStorage(): Promise<void> {
  const report = await checkStorage()
  if (!report.short) return
  const mb = Math.floor((report.freeBytes ?? 0) / (1024 * 1024))
  requestNotificationHost()
  notifications.show({
    id: 'storage-short',
    color: 'yellow',
    title: t`Мало места на устройстве`,
    message: t`Свободно около ${mb} МБ. Изменения, ещё не отправленные на сервер, хранятся на этом устройстве: освободите место, чтобы ничего не потерять.`,
    icon: <IconDatabaseExclamation size={20} />,
    autoClose: false,
    withBorder: true,
    closeButtonProps: closeButtonProps(),
  })
}
