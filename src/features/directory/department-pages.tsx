import { Trans, useLingui } from '@lingui/react/macro'
import { useNavigate } from '@tanstack/react-router'
import { useCallback } from 'react'
import { createRecord, updateRecord } from '../../data/commands.ts'
import { useCurrentWorkspaceId, useRecord } from '../../data/live.ts'
import { DeleteButton } from '../../ui/delete-button.tsx'
import { notifySuccess } from '../../ui/notify.tsx'
import { NoWorkspace } from '../records/no-workspace.tsx'
import { ParkedNotice, parkedFieldErrors, useParkedOf } from '../records/parked-notice.tsx'
import { RecordLoading, RecordMissing } from '../records/record-state.tsx'
import { draftKey, useFollowId, useKeepWhileLoading } from '../records/use-follow-id.ts'
import { removeDepartment } from './removals.ts'
import { useRefresh } from '../../sync/client.ts'
import { DepartmentForm, emptyDepartment } from './department-form.tsx'

export function DepartmentAddPage() {
  const { t } = useLingui()
  const navigate = useNavigate()
  const workspaceId = useCurrentWorkspaceId()
  if (workspaceId === undefined) return <RecordLoading />
  if (workspaceId === null) return <NoWorkspace />
  return (
    <DepartmentForm
      title={t`Новое отделение`}
      initial={emptyDepartment}
      submitLabel={<Trans>Добавить</Trans>}
      onSubmit={(fields) => createRecord('department', workspaceId, fields)}
      onSaved={() => {
        notifySuccess(t`Отделение добавлено`)
        void navigate({ to: '/department' })
      }}
      onCancel={() => void navigate({ to: '/department' })}
    />
  )
}

export function DepartmentEditPage({ id }: { id: number }) {
  const { t } = useLingui()
  const navigate = useNavigate()
  const record = useKeepWhileLoading(useRecord('department', id), id)
  const parked = useParkedOf('department', id)
  useRefresh(record ? { kind: 'department', workspaceId: record.workspace_id } : null)
  const follow = useCallback(
    (next: number) =>
      void navigate({ to: '/department/$id', params: { id: String(next) }, replace: true }),
    [navigate],
  )
  useFollowId('department', id, follow)
  const back = () => void navigate({ to: '/department' })

  if (record === undefined) return <RecordLoading />
  if (record === null)
    return <RecordMissing onBack={back} backLabel={<Trans>К отделениям</Trans>} />
  return (
    <DepartmentForm
      title={record.name}
      initial={{ name: record.name, description: record.description }}
      serverErrors={parkedFieldErrors(parked)}
      draftKey={draftKey('department', record.id)}
      notice={<ParkedNotice entries={parked} />}
      onSubmit={(fields) => updateRecord('department', record.id, fields)}
      onSaved={() => {
        notifySuccess(t`Изменения сохранены`)
        back()
      }}
      onCancel={back}
      extraActions={
        <DeleteButton
          onClick={() => void removeDepartment(record).then((done) => done && back())}
        />
      }
    />
  )
}
