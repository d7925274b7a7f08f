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
import { removeLocation } from './removals.ts'
import { useRefresh } from '../../sync/client.ts'
import { LocationForm, emptyLocation } from './location-form.tsx'

export function LocationAddPage() {
  const { t } = useLingui()
  const navigate = useNavigate()
  const workspaceId = useCurrentWorkspaceId()
  if (workspaceId === undefined) return <RecordLoading />
  if (workspaceId === null) return <NoWorkspace />
  return (
    <LocationForm
      title={t`Новая локация`}
      initial={emptyLocation}
      submitLabel={<Trans>Добавить</Trans>}
      onSubmit={(fields) => createRecord('location', workspaceId, fields)}
      onSaved={() => {
        notifySuccess(t`Локация добавлена`)
        void navigate({ to: '/locations' })
      }}
      onCancel={() => void navigate({ to: '/locations' })}
    />
  )
}

export function LocationEditPage({ id }: { id: number }) {
  const { t } = useLingui()
  const navigate = useNavigate()
  const record = useKeepWhileLoading(useRecord('location', id), id)
  const parked = useParkedOf('location', id)
  useRefresh(record ? { kind: 'location', workspaceId: record.workspace_id } : null)
  const follow = useCallback(
    (next: number) =>
      void navigate({ to: '/locations/$id', params: { id: String(next) }, replace: true }),
    [navigate],
  )
  useFollowId('location', id, follow)
  const back = () => void navigate({ to: '/locations' })

  if (record === undefined) return <RecordLoading />
  if (record === null) return <RecordMissing onBack={back} backLabel={<Trans>К локациям</Trans>} />
  return (
    <LocationForm
      title={record.name}
      initial={{ name: record.name, address: record.address, phone: record.phone }}
      serverErrors={parkedFieldErrors(parked)}
      draftKey={draftKey('location', record.id)}
      notice={<ParkedNotice entries={parked} />}
      onSubmit={(fields) => updateRecord('location', record.id, fields)}
      onSaved={() => {
        notifySuccess(t`Изменения сохранены`)
        back()
      }}
      onCancel={back}
      extraActions={
        <DeleteButton onClick={() => void removeLocation(record).then((done) => done && back())} />
      }
    />
  )
}
