import { Trans, useLingui } from '@lingui/react/macro'
import { Popover } from '@mantine/core'
import { Group, Stack, Text, type TextColor } from '../../ui/layout.tsx'
import {
  IconAlertTriangle,
  IconCloudCheck,
  IconCloudOff,
  IconCloudUpload,
  IconLock,
} from '@tabler/icons-react'
import { useNavigate, useRouterState } from '@tanstack/react-router'
import { useState, type ReactNode } from 'react'
import { useParkedEntries, useSyncStatus, type SyncStatus as Status } from '../../sync/client.ts'
import { useStorageStatus } from '../../sync/storage-status.ts'
import { Badge } from '../../ui/badge.tsx'
import { Button, PlainButton } from '../../ui/button.tsx'
import { Loader } from '../../ui/loader.tsx'
import { ParkedList } from './parked-list.tsx'
import {
  syncState as stateOf,
  useSyncStateLabel as useStateLabel,
  type SyncState as State,
} from './sync-state.ts'
import classes from './sync-status.module.css'

/**
 * The top bar's sync indicator: offline, «Сохраняется…», changes waiting, rejected changes, or all
 * saved. It opens a panel with the details and the rejected changes (retry / discard). When the
 * server asked to sign in again it becomes «Войти снова», which leads to the lock screen.
 */
export function SyncStatus() {
  const { t } = useLingui()
  const status = useSyncStatus()
  const [opened, setOpened] = useState(false)
  const label = useStateLabel(stateOf(status), status)
  const href = useRouterState({ select: (state) => state.location.href })
  const navigate = useNavigate()

  if (status.needsSignIn) {
    return (
      <Button
        onClick={() => void navigate({ to: '/pages/lock-screen', search: { to: href } })}
        color="red"
        variant="light"
        size="sm"
        leftSection={<IconLock size={18} aria-hidden />}
        data-testid="sync-status"
        data-state="signin"
      >
        <Trans>Войти снова</Trans>
      </Button>
    )
  }

  const state = stateOf(status)
  const { icon, color } = LOOK[state]
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={360} shadow="md">
      <Popover.Target>
        <PlainButton
          className={classes.trigger}
          onClick={() => setOpened((o) => !o)}
          aria-label={t`Синхронизация: ${label}`}
          aria-expanded={opened}
          data-testid="sync-status"
          data-state={state}
        >
          <Group gap={6} wrap="nowrap">
            <Text component="span" c={color} lh={0}>
              {icon}
            </Text>
            <Text component="span" size="sm" c={color} visibleFrom="sm" truncate>
              {label}
            </Text>
            {/* One count: the words already give it while the state is about them. */}
            {status.parked > 0 && state !== 'parked' ? (
              <Badge color="red" aria-hidden>
                {String(status.parked)}
              </Badge>
            ) : null}
          </Group>
        </PlainButton>
      </Popover.Target>
      <Popover.Dropdown>
        <SyncPanel status={status} />
      </Popover.Dropdown>
    </Popover>
  )
}

// Shades dark enough for small text on the white bar (contrast ≥ 4.5:1).
const LOOK: Record<State, { icon: ReactNode; color: TextColor }> = {
  offline: { icon: <IconCloudOff size={20} aria-hidden />, color: 'gray.7' },
  unreachable: { icon: <IconCloudOff size={20} aria-hidden />, color: 'orange.9' },
  saving: { icon: <Loader size={16} />, color: 'blue.8' },
  pending: { icon: <IconCloudUpload size={20} aria-hidden />, color: 'blue.8' },
  parked: { icon: <IconAlertTriangle size={20} aria-hidden />, color: 'red.9' },
  checking: { icon: <Loader size={16} />, color: 'gray.7' },
  saved: { icon: <IconCloudCheck size={20} aria-hidden />, color: 'teal.9' },
}

function SyncPanel({ status }: { status: Status }) {
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
    </Stack>
  )
}
