import { Trans, useLingui } from '@lingui/react/macro'
import { useRef, useState } from 'react'
import { ApiError, NetworkError } from '../../api/client.ts'
import { acceptInvitation, declineInvitation } from '../../api/members.ts'
import type { WorkspaceInvitation } from '../../domain/workspace.ts'
import { nestQuotes } from '../../domain/quotes.ts'
import { commands } from '../../mirror/commands.ts'
import { refresh } from '../../sync/client.ts'
import { Button } from '../../ui/button.tsx'
import { Group, Stack, Text } from '../../ui/layout.tsx'
import { notifyError, notifySuccess } from '../../ui/notify.tsx'
import { closeOnEscape, useTakeFocus } from '../../ui/overlay-on-demand.ts'
import { Popover } from '../../ui/popover.ts'
import { InvitationsButton } from './invitations-button.tsx'

function answerError(error: unknown, fallback: string): string {
  if (error instanceof NetworkError) return fallback
  if (error instanceof ApiError && error.message) return error.message
  return fallback
}

/**
 * The invitations' list in Mantine's Popover, loaded on the button's first press
 * (docs/performance.md): each with «Принять» and «Отклонить». Its button takes the place of the
 * light one that was pressed: when that one had the focus, this one takes it.
 */
export function InvitationsPopover({
  list,
  opened,
  onChange,
  takeFocus,
  reload,
}: {
  list: WorkspaceInvitation[]
  opened: boolean
  onChange: (opened: boolean) => void
  takeFocus: boolean
  reload: () => void
}) {
  const { t } = useLingui()
  const [busy, setBusy] = useState<number | null>(null)
  const target = useRef<HTMLButtonElement>(null)
  useTakeFocus(target, takeFocus)

  const accept = async (invitation: WorkspaceInvitation) => {
    setBusy(invitation.id)
    try {
      const workspace = await acceptInvitation(invitation.id)
      await refresh({ kind: 'workspaces' })
      await commands.setCurrentWorkspace(workspace.id)
      const name = nestQuotes(workspace.name)
      notifySuccess(t`Вы участник пространства «${name}»`)
      onChange(false)
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
    <Popover opened={opened} onChange={onChange} position="bottom-end" withArrow shadow="md">
      <Popover.Target>
        <InvitationsButton
          ref={target}
          count={list.length}
          opened={opened}
          onClick={() => onChange(!opened)}
          onKeyDown={closeOnEscape(opened, onChange)}
        />
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
