import { Trans, useLingui } from '@lingui/react/macro'
import { IconLock } from '@tabler/icons-react'
import { useNavigate, useRouterState } from '@tanstack/react-router'
import { lazy, useEffect } from 'react'
import { useSyncStatus } from '../../sync/client.ts'
import { Button } from '../../ui/button.tsx'
import { MantineScope } from '../../ui/mantine-scope.tsx'
import { useOverlayOnDemand } from '../../ui/overlay-on-demand.ts'
import {
  onOpenSyncPanel,
  syncState as stateOf,
  useSyncStateLabel as useStateLabel,
} from '../sync-state/index.ts'
import { useNotices } from './notices.ts'
import { SyncStatusButton, type SyncStatusButtonProps } from './sync-status-button.tsx'

// The panel and Mantine's Popover load on the first opening (docs/performance.md).
const loadPanel = () => import('./sync-status-panel.tsx')
const SyncStatusPopover = lazy(() => loadPanel().then((m) => ({ default: m.SyncStatusPopover })))

/**
 * The top bar's sync indicator: offline, «Сохраняется…», changes waiting, rejected changes, or all
 * saved. It opens a panel with the details and the rejected changes (retry / discard). When the
 * server asked to sign in again it becomes «Войти снова», which leads to the lock screen. Until it
 * is first opened it is only the app's own light button (no Mantine); hovering or focusing it
 * prefetches the panel.
 */
export function SyncStatus() {
  const { t } = useLingui()
  const status = useSyncStatus()
  const notices = useNotices()
  const { opened, setOpened, wanted, lightProps, open } = useOverlayOnDemand(loadPanel)
  useEffect(() => onOpenSyncPanel(open), [open])
  const state = stateOf(status)
  const label = useStateLabel(state, status)
  const href = useRouterState({ select: (s) => s.location.href })
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

  const replaced = notices.length
  const button: SyncStatusButtonProps = {
    state,
    label,
    parked: status.parked,
    notices: replaced,
    'aria-label':
      replaced > 0
        ? t`Синхронизация: ${label}. Коллеги заменили ваши значения: ${replaced}`
        : t`Синхронизация: ${label}`,
    'aria-expanded': opened,
    onClick: () => setOpened((shown) => !shown),
  }
  if (!wanted) return <SyncStatusButton {...button} {...lightProps} />
  return (
    <MantineScope fallback={<SyncStatusButton {...button} />}>
      <SyncStatusPopover
        status={status}
        notices={notices}
        opened={opened}
        onChange={setOpened}
        takeFocus={wanted.takeFocus}
        button={button}
      />
    </MantineScope>
  )
}
