import { Trans, useLingui } from '@lingui/react/macro'
import { useNavigate } from '@tanstack/react-router'
import { useCallback } from 'react'
import { createRecord, setRecordEnabled, updateRecord, uploadFile } from '../../data/commands.ts'
import { useCurrentWorkspaceId, useRecord, useRecords } from '../../data/live.ts'
import type { Specialist } from '../../domain/directory.ts'
import { DeleteButton } from '../../ui/delete-button.tsx'
import { notifySuccess } from '../../ui/notify.tsx'
import { NoWorkspace } from '../records/no-workspace.tsx'
import { ParkedNotice, parkedFieldErrors, useParkedOf } from '../records/parked-notice.tsx'
import { RecordLoading, RecordMissing } from '../records/record-state.tsx'
import { draftKey, useFollowId, useKeepWhileLoading } from '../records/use-follow-id.ts'
import { useRefresh } from '../../sync/client.ts'
import {
  emptySpecialist,
  SpecialistForm,
  type SpecialistOutput,
  type SpecialistValues,
} from './specialist-form.tsx'
import { removeSpecialist } from './removals.ts'
import { SpecialistPhotoPreview } from './specialist-photo.tsx'

const renderPhoto = (url: string) => <SpecialistPhotoPreview url={url} />

/** Pickers read the mirror, so departments and locations made offline are offered too. */
function usePickers(workspaceId: number) {
  useRefresh({ kind: 'department', workspaceId })
  useRefresh({ kind: 'location', workspaceId })
  return {
    departments: useRecords('department', workspaceId),
    locations: useRecords('location', workspaceId),
  }
}

function fieldsOf(output: SpecialistOutput) {
  const { enabled: _enabled, ...fields } = output
  return fields
}

export function SpecialistAddPage() {
  const workspaceId = useCurrentWorkspaceId()
  if (workspaceId === undefined) return <RecordLoading />
  if (workspaceId === null) return <NoWorkspace />
  return <SpecialistAdd workspaceId={workspaceId} />
}

function SpecialistAdd({ workspaceId }: { workspaceId: number }) {
  const { t } = useLingui()
  const navigate = useNavigate()
  const pickers = usePickers(workspaceId)
  const create = async (output: SpecialistOutput) => {
    const id = await createRecord('specialist', workspaceId, fieldsOf(output))
    // Enabling and disabling are separate calls on the server (spec §4).
    if (!output.enabled) await setRecordEnabled('specialist', id, false)
    return id
  }
  return (
    <SpecialistForm
      title={t`Новый специалист`}
      initial={emptySpecialist}
      {...pickers}
      uploadPhoto={uploadFile}
      renderPhoto={renderPhoto}
      submitLabel={<Trans>Добавить</Trans>}
      onSubmit={create}
      onSaved={() => {
        notifySuccess(t`Специалист добавлен`)
        void navigate({ to: '/specialist' })
      }}
      onCancel={() => void navigate({ to: '/specialist' })}
    />
  )
}

function valuesOf(record: Specialist): SpecialistValues {
  const { id: _id, workspace_id: _ws, ...values } = record
  return values
}

export function SpecialistEditPage({ id }: { id: number }) {
  const navigate = useNavigate()
  const record = useKeepWhileLoading(useRecord('specialist', id), id)
  const parked = useParkedOf('specialist', id)
  useRefresh(record ? { kind: 'specialist', workspaceId: record.workspace_id } : null)
  const follow = useCallback(
    (next: number) =>
      void navigate({ to: '/specialist/$id', params: { id: String(next) }, replace: true }),
    [navigate],
  )
  useFollowId('specialist', id, follow)
  const back = () => void navigate({ to: '/specialist' })

  if (record === undefined) return <RecordLoading />
  if (record === null)
    return <RecordMissing onBack={back} backLabel={<Trans>К специалистам</Trans>} />
  return <SpecialistEdit record={record} back={back} parked={parked} />
}

function SpecialistEdit({
  record,
  back,
  parked,
}: {
  record: Specialist
  back: () => void
  parked: ReturnType<typeof useParkedOf>
}) {
  const { t } = useLingui()
  const pickers = usePickers(record.workspace_id)
  const name = record.name

  const save = async (output: SpecialistOutput) => {
    await updateRecord('specialist', record.id, fieldsOf(output))
    if (output.enabled !== record.enabled)
      await setRecordEnabled('specialist', record.id, output.enabled)
  }

  return (
    <SpecialistForm
      title={name}
      initial={valuesOf(record)}
      {...pickers}
      uploadPhoto={uploadFile}
      renderPhoto={renderPhoto}
      serverErrors={parkedFieldErrors(parked)}
      draftKey={draftKey('specialist', record.id)}
      notice={<ParkedNotice entries={parked} />}
      onSubmit={save}
      onSaved={() => {
        notifySuccess(t`Изменения сохранены`)
        back()
      }}
      onCancel={back}
      extraActions={
        <DeleteButton
          onClick={() => void removeSpecialist(record).then((done) => done && back())}
        />
      }
    />
  )
}
