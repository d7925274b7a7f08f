import { lazy, useEffect, useSyncExternalStore } from 'react'
import { listInvitations } from '../../api/members.ts'
import type { WorkspaceInvitation } from '../../domain/workspace.ts'
import { onAccountNews } from '../../sync/client.ts'
import { MantineScope } from '../../ui/mantine-scope.tsx'
import { useOverlayOnDemand } from '../../ui/overlay-on-demand.ts'
import { InvitationsButton } from './invitations-button.tsx'

/**
 * The signed-in person's invitations to workspaces (docs/API.md, "Members"): asked for online
 * when the app opens, comes back online, and whenever the server says they changed (an event on
 * every stream of theirs), never kept offline — an invitation is answered online anyway.
 */
let invitations: WorkspaceInvitation[] = []
const listeners = new Set<() => void>()

function reload(): void {
  listInvitations().then(
    (list) => {
      invitations = list
      for (const listener of listeners) listener()
    },
    () => undefined,
  )
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

function useInvitations(): WorkspaceInvitation[] {
  useEffect(() => {
    reload()
    const stop = onAccountNews((news) => {
      if (news === 'invitations') reload()
    })
    window.addEventListener('online', reload)
    return () => {
      stop()
      window.removeEventListener('online', reload)
    }
  }, [])
  return useSyncExternalStore(subscribe, () => invitations)
}

// The list with its answers, in Mantine's Popover, loads on the first press (docs/performance.md).
const loadPopover = () => import('./invitations-popover.tsx')
const InvitationsPopover = lazy(() =>
  loadPopover().then((m) => ({ default: m.InvitationsPopover })),
)

/** In the workspace switcher: the invitations waiting, each with «Принять» and «Отклонить». */
export function Invitations() {
  const list = useInvitations()
  const { opened, setOpened, wanted, lightProps } = useOverlayOnDemand(loadPopover)
  if (list.length === 0) return null
  const count = list.length
  if (!wanted) return <InvitationsButton count={count} opened={false} {...lightProps} />
  return (
    <MantineScope fallback={<InvitationsButton count={count} opened={opened} />}>
      <InvitationsPopover
        list={list}
        opened={opened}
        onChange={setOpened}
        takeFocus={wanted.takeFocus}
        reload={reload}
      />
    </MantineScope>
  )
}
