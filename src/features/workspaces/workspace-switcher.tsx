import { Trans, useLingui } from '@lingui/react/macro'
import { Button, Menu, Text } from '@mantine/core'
import { IconCheck, IconChevronDown, IconFolders, IconSettings } from '@tabler/icons-react'
import { lazy, Suspense, useState } from 'react'
import { setCurrentWorkspace } from '../../data/commands.ts'
import { useCurrentWorkspaceId, useWorkspaces } from '../../data/live.ts'
import { runCommand } from '../records/run-command.ts'
import { useRefreshScopes } from '../records/use-refresh-scope.ts'

// The manager loads when it is opened: it is not part of the first load.
const WorkspaceManager = lazy(() =>
  import('./workspace-manager.tsx').then((m) => ({ default: m.WorkspaceManager })),
)

/**
 * The top bar's workspace switcher. The choice is remembered in the mirror (so every tab and a
 * reload keep it); every list shows the current workspace's records only.
 */
export function WorkspaceSwitcher() {
  const { t } = useLingui()
  useRefreshScopes([{ kind: 'workspaces' }])
  const workspaces = useWorkspaces()
  const currentId = useCurrentWorkspaceId()
  const [managing, setManaging] = useState(false)
  const current = workspaces?.find((workspace) => workspace.id === currentId)

  return (
    <>
      <Menu position="bottom-start" width={280} withinPortal shadow="md">
        <Menu.Target>
          <Button
            variant="default"
            size="md"
            maw={{ base: 180, sm: 280 }}
            leftSection={<IconFolders size={18} aria-hidden />}
            rightSection={<IconChevronDown size={16} aria-hidden />}
            aria-label={t`Рабочее пространство`}
            data-testid="workspace-switcher"
          >
            <Text truncate="end" fw={500} size="sm">
              {current?.name ?? (workspaces?.length === 0 ? t`Нет пространства` : '…')}
            </Text>
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>
            <Trans>Рабочие пространства</Trans>
          </Menu.Label>
          {(workspaces ?? []).map((workspace) => (
            <Menu.Item
              key={workspace.id}
              py="sm"
              leftSection={
                workspace.id === currentId ? (
                  <IconCheck size={16} aria-hidden />
                ) : (
                  <span style={{ width: 16, display: 'inline-block' }} />
                )
              }
              aria-current={workspace.id === currentId ? 'true' : undefined}
              onClick={() => void runCommand(() => setCurrentWorkspace(workspace.id))}
            >
              {workspace.name}
            </Menu.Item>
          ))}
          <Menu.Divider />
          <Menu.Item
            py="sm"
            leftSection={<IconSettings size={16} aria-hidden />}
            onClick={() => setManaging(true)}
          >
            <Trans>Управлять пространствами</Trans>
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {managing ? (
        <Suspense fallback={null}>
          <WorkspaceManager opened onClose={() => setManaging(false)} />
        </Suspense>
      ) : null}
    </>
  )
}
