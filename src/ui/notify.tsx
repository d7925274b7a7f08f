import { t } from '@lingui/core/macro'
import { notifications } from '@mantine/notifications'
import { IconAlertCircle, IconCheck } from '@tabler/icons-react'
import { requestNotificationHost } from './notification-host.tsx'

/** A notification's ✕, named for screen readers (Mantine leaves it without a name). */
export function closeButtonProps() {
  return { 'aria-label': t`Закрыть уведомление` }
}

/**
 * Danger notification titled «Ошибка» with the error's own message
 * (docs/app-shell.md "Errors and texts").
 */
export function notifyError(message: string, options: { autoClose?: number | false } = {}): string {
  requestNotificationHost()
  return notifications.show({
    color: 'red',
    title: t`Ошибка`,
    message,
    icon: <IconAlertCircle size={20} />,
    autoClose: options.autoClose ?? 6000,
    withBorder: true,
    closeButtonProps: closeButtonProps(),
  })
}

export function notifySuccess(message: string, title?: string): string {
  requestNotificationHost()
  return notifications.show({
    color: 'teal',
    title,
    message,
    icon: <IconCheck size={20} />,
    autoClose: 4000,
    withBorder: true,
    closeButtonProps: closeButtonProps(),
  })
}
