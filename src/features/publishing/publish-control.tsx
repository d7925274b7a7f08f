import { Trans } from '@lingui/react/macro'
import { IconWorldUpload } from '@tabler/icons-react'
import { useState } from 'react'
import type { Project } from '../../domain/project.ts'
import { useWaitingPages } from '../../mirror/live.ts'
import { useOnline } from '../../sync/client.ts'
import { Button } from '../../ui/button.tsx'
import { Group } from '../../ui/layout.tsx'
import { PublishDialogHost } from './publish-dialog-host.tsx'
import { PublishStatus } from './publish-status.tsx'

/**
 * The page's state and «Опубликовать» in the editor's toolbar (docs/editor.md "Publishing"): the
 * dialog hands the editor's unsaved changes to the data layer (`beforePublish`) before it queues
 * the publish, so the page is what is on screen.
 */
export function PublishControl({
  project,
  beforePublish,
}: {
  project: Project
  beforePublish: () => Promise<void>
}) {
  const waiting = useWaitingPages().get(project.id)
  const online = useOnline()
  const [open, setOpen] = useState(false)
  return (
    <Group gap="sm" wrap="nowrap" miw={0} style={{ marginLeft: 'auto' }}>
      <PublishStatus project={project} waiting={waiting} online={online} />
      <Button
        variant="light"
        leftSection={<IconWorldUpload size={18} aria-hidden />}
        onClick={() => setOpen(true)}
        style={{ flex: 'none' }}
      >
        <Trans>Опубликовать</Trans>
      </Button>
      {open ? (
        <PublishDialogHost
          projectId={project.id}
          onClose={() => setOpen(false)}
          beforePublish={beforePublish}
        />
      ) : null}
    </Group>
  )
}
