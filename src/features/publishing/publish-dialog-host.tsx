import { lazy, Suspense } from 'react'
import { MantineScope } from '../../ui/mantine-scope.tsx'

/** Loads the dialog's code (and its QR library) on demand: never part of the first load. */
export const loadPublishDialog = () => import('./dialog/publish-dialog.tsx')
const PublishDialog = lazy(() => loadPublishDialog().then((m) => ({ default: m.PublishDialog })))

/**
 * The publish dialog of a project (docs/screens.md "Publishing"), loaded when it is first opened.
 * `beforePublish`: hands what the screen still holds to the data layer first (the editor's
 * unsaved changes), so the publish is queued after them.
 */
export function PublishDialogHost({
  projectId,
  onClose,
  beforePublish,
}: {
  projectId: number
  onClose: () => void
  beforePublish?: () => Promise<void>
}) {
  return (
    <MantineScope>
      <Suspense fallback={null}>
        <PublishDialog projectId={projectId} onClose={onClose} beforePublish={beforePublish} />
      </Suspense>
    </MantineScope>
  )
}
