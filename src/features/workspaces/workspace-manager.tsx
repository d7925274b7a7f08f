import { Trans, useLingui } from '@lingui/react/macro'
import { Group, Stack, Text } from '../../ui/layout.tsx'
import { IconPencil, IconTrash, IconUsers } from '@tabler/icons-react'
import { useState, type FormEvent } from 'react'
import * as v from 'valibot'
import { commands } from '../../mirror/commands.ts'
import {
  useCurrentWorkspaceId,
  useProjects,
  useRecords,
  useSyncMarks,
  useWorkspaces,
} from '../../mirror/live.ts'
import type { Workspace } from '../../domain/workspace.ts'
import { WorkspaceInput } from '../../domain/workspace.ts'
import { Button, IconButton } from '../../ui/button.tsx'
import { confirmDelete } from '../../ui/confirm-delete.ts'
import { InlineRename } from '../../ui/inline-rename.tsx'
import { issuesToFieldErrors } from '../../ui/field-error.ts'
import { Modal } from '../../ui/modal.ts'
import { SyncMark, type SyncMarkState } from '../../ui/sync-mark.tsx'
import { TextInput } from '../../ui/text-input.tsx'
import { runCommand } from '../records/index.ts'
import { useRefresh } from '../../sync/client.ts'
import { deleteWorkspaceMessage, type WorkspaceContents } from './workspace-contents.ts'
import { WorkspaceMembers } from './workspace-members.tsx'
import { nestQuotes } from '../../domain/quotes.ts'

/** A validated workspace name, or the field's message. */
function checkName(name: string): { name: string } | { error: string } {
  const parsed = v.safeParse(WorkspaceInput, { name })
  return parsed.success ? parsed.output : { error: issuesToFieldErrors(parsed.issues).name ?? '' }
}

export function WorkspaceManager({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useLingui()
  const workspaces = useWorkspaces()
  const marks = useSyncMarks('workspaces')
  return (
    <Modal opened={opened} onClose={onClose} title={t`Рабочие пространства`} size="lg" centered>
      <Stack gap="lg">
        <AddWorkspace />
        <Stack gap={0}>
          {(workspaces ?? []).map((workspace) => (
            <WorkspaceRow key={workspace.id} workspace={workspace} mark={marks.get(workspace.id)} />
          ))}
          {workspaces?.length === 0 ? (
            <Text c="dimmed">
              <Trans>
                Пространств пока нет. Добавьте первое — в нём будут проекты и справочники.
              </Trans>
            </Text>
          ) : null}
        </Stack>
      </Stack>
    </Modal>
  )
}

function AddWorkspace() {
  const { t } = useLingui()
  const [name, setName] = useState('')
  const [error, setError] = useState<string>()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const checked = checkName(name)
    if ('error' in checked) return setError(checked.error)
    const created = nestQuotes(checked.name)
    const id = await runCommand(
      () => commands.createWorkspace(checked.name),
      t`Пространство «${created}» добавлено`,
    )
    if (id !== undefined) setName('')
  }
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Group align="flex-start" gap="sm">
        <TextInput
          style={{ flex: 1 }}
          label={t`Новое пространство`}
          placeholder={t`Например, Клиника на Ленина`}
          value={name}
          onChange={(event) => {
            setName(event.currentTarget.value)
            setError(undefined)
          }}
          error={error}
          data-autofocus
        />
        <Button type="submit" style={{ marginTop: 25 }}>
          <Trans>Добавить</Trans>
        </Button>
      </Group>
    </form>
  )
}

/** What a workspace holds in the mirror; undefined until every count has loaded. */
function useContents(workspaceId: number): WorkspaceContents | undefined {
  useRefresh({ kind: 'projects', workspaceId })
  useRefresh({ kind: 'amo', workspaceId })
  useRefresh({ kind: 'bitrix', workspaceId })
  useRefresh({ kind: 'department', workspaceId })
  useRefresh({ kind: 'location', workspaceId })
  useRefresh({ kind: 'specialist', workspaceId })
  const projects = useProjects(workspaceId)
  const amo = useRecords('amo', workspaceId)
  const bitrix = useRecords('bitrix', workspaceId)
  const departments = useRecords('department', workspaceId)
  const locations = useRecords('location', workspaceId)
  const specialists = useRecords('specialist', workspaceId)
  if (!projects || !amo || !bitrix || !departments || !locations || !specialists) return undefined
  return {
    projects: projects.length,
    integrations: amo.length + bitrix.length,
    departments: departments.length,
    locations: locations.length,
    specialists: specialists.length,
  }
}

function WorkspaceRow({ workspace, mark }: { workspace: Workspace; mark?: SyncMarkState }) {
  const { t } = useLingui()
  const contents = useContents(workspace.id)
  const currentId = useCurrentWorkspaceId()
  const [editing, setEditing] = useState(false)
  const [showMembers, setShowMembers] = useState(false)
  const current = workspace.id === currentId
  // Only an admin deletes a workspace (the server refuses an editor too): docs/API.md, "Members".
  const mayDelete = workspace.role !== 'editor'
  const oldName = nestQuotes(workspace.name)

  const remove = async () => {
    // The confirmation must say what will go: wait for the counts (a moment after opening).
    if (!contents) return
    const ok = await confirmDelete({
      title: t`Удалить пространство «${oldName}»?`,
      message: deleteWorkspaceMessage(workspace.name, contents),
    })
    if (ok)
      await runCommand(
        () => commands.deleteWorkspace(workspace.id),
        t`Пространство «${oldName}» удалено`,
      )
  }

  return (
    <div style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}>
      <Group
        justify="space-between"
        wrap="nowrap"
        py="sm"
        mih={64}
        data-testid={`workspace-${workspace.id}`}
      >
        {editing ? (
          <InlineRename
            label={t`Название пространства`}
            name={workspace.name}
            check={checkName}
            save={(next) =>
              runCommand(
                () => commands.renameWorkspace(workspace.id, next),
                t`Пространство переименовано`,
              )
            }
            onDone={() => setEditing(false)}
          />
        ) : (
          <>
            <Stack gap={2} miw={0}>
              <Group gap="xs">
                <Text fw={600} truncate="end">
                  {workspace.name}
                </Text>
                {current ? (
                  <Text size="xs" c="blue">
                    <Trans>текущее</Trans>
                  </Text>
                ) : null}
                <SyncMark state={mark} />
              </Group>
            </Stack>
            <Group gap="xs" wrap="nowrap">
              {workspace.id > 0 ? (
                <IconButton
                  variant={showMembers ? 'default' : 'subtle'}
                  onClick={() => setShowMembers((shown) => !shown)}
                  aria-label={t`Участники ${oldName}`}
                  aria-expanded={showMembers}
                >
                  <IconUsers size={20} />
                </IconButton>
              ) : null}
              <IconButton
                variant="subtle"
                onClick={() => setEditing(true)}
                aria-label={t`Переименовать ${oldName}`}
              >
                <IconPencil size={20} />
              </IconButton>
              {mayDelete ? (
                <IconButton
                  variant="subtle"
                  color="red"
                  onClick={() => void remove()}
                  disabled={!contents}
                  aria-label={t`Удалить ${oldName}`}
                >
                  <IconTrash size={20} />
                </IconButton>
              ) : null}
            </Group>
          </>
        )}
      </Group>
      {showMembers ? (
        <WorkspaceMembers workspaceId={workspace.id} workspaceName={workspace.name} />
      ) : null}
    </div>
  )
}
