import { useLingui } from '@lingui/react/macro'
import { useCurrentWorkspaceId, useNewAppealCount } from '../../mirror/live.ts'
import { useRefresh } from '../../sync/client.ts'
import { NavBadge } from '../../ui/app-layout.tsx'

/**
 * The number of new requests beside «Обращения» in the navigation (docs/requests.md, "The app"):
 * counted in the mirror, kept current by the workspace's requests' refresh and their live events
 * (which only refresh what some screen registers: this badge registers them on every screen).
 */
export function NewAppealsBadge() {
  const { t } = useLingui()
  const workspaceId = useCurrentWorkspaceId() ?? null
  useRefresh(workspaceId ? { kind: 'appeals', workspaceId } : null)
  const count = useNewAppealCount(workspaceId)
  if (!count) return null
  const shown = count > 99 ? '99+' : String(count)
  return <NavBadge count={shown} label={t`новых: ${count}`} />
}
