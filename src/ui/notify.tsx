import { t } from '@lingui/core/macro'
import { notifications } from '@mantine/notifications'
import { IconAlertCircle, IconCheck } from '@tabler/icons-react'
import type { ReactNode } from 'react'
import { requestNotificationHost } from './notification-host.tsx'

/** A notification's ✕, named for screen readers (Mantine leaves it without a name). */
function closeButtonProps() {
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

/**
 * A notice that stays until the person closes it or acts on it (the update prompt, the storage
 * warning, the install hint), bottom right like every notification. `closeLabel` names a ✕ that
 * means more than closing («Больше не показывать»), drawn larger; otherwise it is «Закрыть
 * уведомление». Showing one with the id of a notice on screen leaves that one as it is.
 */
export function showNotice({
  closeLabel,
  ...notice
}: {
  id: string
  color: string
  title: string
  message: ReactNode
  icon: ReactNode
  closeLabel?: string
  onClose?: () => void
}): void {
  requestNotificationHost()
  notifications.show({
    ...notice,
    autoClose: false,
    withBorder: true,
    closeButtonProps: closeLabel ? { 'aria-label': closeLabel, size: 'lg' } : closeButtonProps(),
  })
}

/** Removes a notification (by the id its `notify…` or `showNotice` gave) if it is on screen. */
export function hideNotification(id: string): void {
  notifications.hide(id)
}
