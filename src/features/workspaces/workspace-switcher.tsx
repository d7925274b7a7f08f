import { Trans, useLingui } from '@lingui/react/macro'
import { Group } from '../../ui/layout.tsx'
import { IconFolders, IconPlus, IconSettings } from '@tabler/icons-react'
import { lazy, useState } from 'react'
import { commands } from '../../mirror/commands.ts'
import { useCurrentWorkspaceId, useWorkspaces } from '../../mirror/live.ts'
import { Button, IconButton } from '../../ui/button.tsx'
import { MantineScope } from '../../ui/mantine-scope.tsx'
import { NativeSelect } from '../../ui/text-input.tsx'
import { runCommand } from '../records/index.ts'
import { useRefresh } from '../../sync/client.ts'
import classes from './workspace-switcher.module.css'
import { Invitations } from './invitations.tsx'
import { WorkspaceLossNotice } from './workspace-loss.tsx'

// The manager (Mantine's Modal) loads when it is opened: it is not part of the first screen
// (docs/performance.md).
const WorkspaceManager = lazy(() =>
  import('./workspace-manager.tsx').then((m) => ({ default: m.WorkspaceManager })),
)

/**
 * The top bar's workspace switcher: a native select (the platform's own picker on a tablet), a
 * button to manage workspaces, the invitations waiting for the person, and the notice of a
 * workspace they lost while the app was open. Closed, it is the app's own light controls only;
 * each overlay loads Mantine when it is first opened (docs/performance.md). The choice is remembered in the mirror, so every tab and a reload
 * keep it; every list shows the current workspace's records only.
 */
export function WorkspaceSwitcher() {
  const { t } = useLingui()
  useRefresh({ kind: 'workspaces' })
  const workspaces = useWorkspaces()
  const currentId = useCurrentWorkspaceId()
  const [managing, setManaging] = useState(false)

  return (
    <>
      {workspaces?.length === 0 ? (
        <Button
          variant="light"
          leftSection={<IconPlus size={18} aria-hidden />}
          onClick={() => setManaging(true)}
        >
          <Trans>Создать пространство</Trans>
        </Button>
      ) : null}
      {workspaces?.length === 0 ? null : (
        <Group gap={6} wrap="nowrap" className={classes.group}>
          <NativeSelect
            className={classes.select}
            leftSection={<IconFolders size={18} aria-hidden />}
            aria-label={t`Рабочее пространство`}
            data-testid="workspace-switcher"
            data={(workspaces ?? []).map((workspace) => ({
              value: String(workspace.id),
              label: workspace.name,
            }))}
            value={currentId ? String(currentId) : ''}
            onChange={(event) => {
              const id = Number(event.currentTarget.value)
              if (id) void runCommand(() => commands.setCurrentWorkspace(id))
            }}
          />
          <IconButton
            variant="default"
            onClick={() => setManaging(true)}
            aria-label={t`Управлять пространствами`}
          >
            <IconSettings size={20} />
          </IconButton>
        </Group>
      )}
      <Invitations />
      <WorkspaceLossNotice />
      {managing ? (
        <MantineScope>
          <WorkspaceManager opened onClose={() => setManaging(false)} />
        </MantineScope>
      ) : null}
    </>
  )
}
