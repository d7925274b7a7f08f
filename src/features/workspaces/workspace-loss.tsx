import { lazy } from 'react'
import { useSyncMeta } from '../../mirror/live.ts'
import { MantineScope } from '../../ui/mantine-scope.tsx'

// Mantine's Modal loads only when there is a loss to tell (docs/performance.md).
const WorkspaceLossModal = lazy(() =>
  import('./workspace-loss-modal.tsx').then((m) => ({ default: m.WorkspaceLossModal })),
)

/**
 * Says that a workspace is no longer the person's (docs/SYNC.md, "Live changes"): removed by an
 * admin while the app was open, left, or gone from their list. The app has moved to another
 * workspace of theirs and dropped that one's copy; the changes still queued for it, which could
 * never be saved, are listed — there is nothing to retry.
 */
export function WorkspaceLossNotice() {
  const loss = useSyncMeta().workspaceLoss
  if (!loss) return null
  return (
    <MantineScope>
      <WorkspaceLossModal loss={loss} />
    </MantineScope>
  )
}
