import { Trans, useLingui } from '@lingui/react/macro'
import { useRef } from 'react'
import { useParkedEntries, type SyncStatus as Status } from '../../sync/client.ts'
import { useStorageStatus } from '../../sync/storage-status.ts'
import { Stack, Text } from '../../ui/layout.tsx'
import { closeOnEscape, useTakeFocus } from '../../ui/overlay-on-demand.ts'
import { Popover } from '../../ui/popover.ts'
import { NoticeList } from './notice-list.tsx'
import { ParkedList } from './parked-list.tsx'
import type { ChangeNotice } from '../../domain/workspace.ts'
import { SyncStatusButton, type SyncStatusButtonProps } from './sync-status-button.tsx'

/**
 * The sync indicator's panel in Mantine's Popover, loaded on the indicator's first opening
 * (docs/performance.md). Its button takes the place of the light one that was pressed: when that
 * one had the focus, this one takes it.
 */
export function SyncStatusPopover({
  status,
  notices,
  opened,
  onChange,
  takeFocus,
  button,
}: {
  status: Status
  notices: readonly ChangeNotice[]
  opened: boolean
  onChange: (opened: boolean) => void
  takeFocus: boolean
  button: SyncStatusButtonProps
}) {
  const target = useRef<HTMLButtonElement>(null)
  useTakeFocus(target, takeFocus)
  return (
    <Popover opened={opened} onChange={onChange} position="bottom-end" width={360} shadow="md">
      <Popover.Target>
        <SyncStatusButton ref={target} {...button} onKeyDown={closeOnEscape(opened, onChange)} />
      </Popover.Target>
      <Popover.Dropdown>
        <SyncPanel status={status} notices={notices} />
      </Popover.Dropdown>
    </Popover>
  )
}

function SyncPanel({ status, notices }: { status: Status; notices: readonly ChangeNotice[] }) {
  const { t, i18n } = useLingui()
  const parked = useParkedEntries()
  const storage = useStorageStatus()
  const pending = status.pending
  const time = status.lastSyncedAt
    ? new Intl.DateTimeFormat(i18n.locale, {
        day: 'numeric',
        month: 'short',
        hour: '2-digit',
        minute: '2-digit',
      }).format(status.lastSyncedAt)
    : null
  return (
    <Stack gap="sm">
      <Stack gap={2}>
        <Text size="sm" fw={600}>
          {status.online
            ? t`Соединение есть`
            : status.network
              ? t`Сервер не отвечает`
              : t`Нет соединения с сервером`}
        </Text>
        <Text size="sm" c="dimmed" data-testid="sync-summary">
          {status.pending > 0
            ? t`Изменений ждут отправки: ${pending}. Они сохранены на этом устройстве.`
            : status.parked > 0
              ? t`Остальные изменения отправлены. Ниже — те, что ждут вашего решения.`
              : t`Все изменения отправлены.`}
        </Text>
        {time ? (
          <Text size="xs" c="dimmed">
            <Trans>Последняя синхронизация: {time}</Trans>
          </Text>
        ) : null}
      </Stack>
      {storage.short ? (
        <Text size="sm" c="orange.8" data-testid="storage-short">
          <Trans>
            На устройстве мало места. Изменения, которые уже сохранены, не пропадут, но новые могут
            не поместиться: освободите место или дождитесь отправки.
          </Trans>
        </Text>
      ) : null}
      {storage.persisted === false ? (
        <Text size="xs" c="dimmed" data-testid="storage-not-persisted">
          <Trans>
            Браузер не разрешил постоянное хранилище: при нехватке места он может удалить данные
            этого сайта. Не очищайте данные браузера, пока изменения ждут отправки.
          </Trans>
        </Text>
      ) : null}
      {parked.length > 0 ? <ParkedList entries={parked} /> : null}
      {notices.length > 0 ? <NoticeList notices={notices} /> : null}
    </Stack>
  )
}
