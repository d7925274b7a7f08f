import { Trans } from '@lingui/react/macro'
import { IconFolders } from '@tabler/icons-react'
import { EmptyState } from '../../ui/empty-state.tsx'

/** Every list belongs to a workspace: without one there is nothing to show yet. */
export function NoWorkspace() {
  return (
    <EmptyState
      icon={IconFolders}
      title={<Trans>Нет рабочего пространства</Trans>}
      description={
        <Trans>
          Создайте рабочее пространство в переключателе вверху страницы — списки и проекты хранятся
          в нём.
        </Trans>
      }
    />
  )
}
