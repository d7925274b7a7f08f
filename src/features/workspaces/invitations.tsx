import { Trans, useLingui } from '@lingui/react/macro'
import { Popover } from '@mantine/core'
import { IconMail } from '@tabler/icons-react'
import { useEffect, useState, useSyncExternalStore } from 'react'
import { ApiError, NetworkError } from '../../api/client.ts'
import { acceptInvitation, declineInvitation, listInvitations } from '../../api/members.ts'
import type { WorkspaceInvitation } from '../../domain/workspace.ts'
import { nestQuotes } from '../../domain/quotes.ts'
import { setCurrentWorkspace } from '../../mirror/commands.ts'
import { onAccountNews, refresh } from '../../sync/client.ts'
import { Button } from '../../ui/button.tsx'
import { Group, Stack, Text } from '../../ui/layout.tsx'
import { notifyError, notifySuccess } from '../../ui/notify.tsx'

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

function answerError(error: unknown, fallback: string): string {
  if (error instanceof NetworkError) return fallback
  if (error instanceof ApiError && error.message) return error.message
  return fallback
}

/** In the workspace switcher: the invitations waiting, each with «Принять» and «Отклонить». */
export function Invitations() {
  const { t } = useLingui()
  const list = useInvitations()
  const [opened, setOpened] = useState(false)
  const [busy, setBusy] = useState<number | null>(null)
  if (list.length === 0) return null
  const count = list.length

  const accept = async (invitation: WorkspaceInvitation) => {
    setBusy(invitation.id)
    try {
      const workspace = await acceptInvitation(invitation.id)
      await refresh({ kind: 'workspaces' })
      await setCurrentWorkspace(workspace.id)
      const name = nestQuotes(workspace.name)
      notifySuccess(t`Вы участник пространства «${name}»`)
      setOpened(false)
    } catch (error) {
      notifyError(
        error instanceof ApiError && error.status === 404
          ? t`Приглашение уже недействительно`
          : answerError(error, t`Не удалось принять приглашение. Попробуйте ещё раз.`),
      )
    } finally {
      setBusy(null)
      reload()
    }
  }

  const decline = async (invitation: WorkspaceInvitation) => {
    setBusy(invitation.id)
    try {
      await declineInvitation(invitation.id)
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404))
        notifyError(answerError(error, t`Не удалось отклонить приглашение. Попробуйте ещё раз.`))
    } finally {
      setBusy(null)
      reload()
    }
  }

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" withArrow shadow="md">
      <Popover.Target>
        <Button
          variant="light"
          leftSection={<IconMail size={18} aria-hidden />}
          onClick={() => setOpened((shown) => !shown)}
          aria-expanded={opened}
          data-testid="invitations-button"
        >
          <Trans>Приглашения: {count}</Trans>
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack
          gap="sm"
          component="ul"
          aria-label={t`Приглашения в пространства`}
          style={{ margin: 0, padding: 0 }}
        >
          {list.map((invitation) => {
            const workspace = nestQuotes(invitation.workspace_name)
            const who = invitation.invited_by
            return (
              <li key={invitation.id} data-testid="invitation" style={{ listStyle: 'none' }}>
                <Stack gap={6}>
                  <Text size="sm">
                    {who ? (
                      <Trans>
                        {who} приглашает вас в пространство «{workspace}»
                      </Trans>
                    ) : (
                      <Trans>Вас приглашают в пространство «{workspace}»</Trans>
                    )}
                  </Text>
                  <Group gap="xs">
                    <Button
                      size="compact-sm"
                      disabled={busy !== null}
                      onClick={() => void accept(invitation)}
                    >
                      <Trans>Принять</Trans>
                    </Button>
                    <Button
                      size="compact-sm"
                      variant="default"
                      disabled={busy !== null}
                      onClick={() => void decline(invitation)}
                    >
                      <Trans>Отклонить</Trans>
                    </Button>
                  </Group>
                </Stack>
              </li>
            )
          })}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  )
}
