import './directory-messages.ts'
import { Trans, useLingui } from '@lingui/react/macro'
import { commands } from '../../mirror/commands.ts'
import { useRecords } from '../../mirror/live.ts'
import type { Specialist } from '../../domain/directory.ts'
import {
  type AddFormProps,
  type EditFormProps,
  RecordAddPage,
  RecordEditPage,
} from '../records/index.ts'
import { useRefresh } from '../../sync/client.ts'
import {
  emptySpecialist,
  SpecialistForm,
  type SpecialistOutput,
  type SpecialistValues,
} from './specialist-form.tsx'
import { removeSpecialist } from './removals.ts'
import { SpecialistPhotoPreview } from './specialist-photo-preview.tsx'

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
  const { t } = useLingui()
  return (
    <RecordAddPage kind="specialist" added={t`Специалист добавлен`}>
      {(workspaceId, form) => <SpecialistAdd workspaceId={workspaceId} {...form} />}
    </RecordAddPage>
  )
}

function SpecialistAdd({ workspaceId, ...form }: AddFormProps & { workspaceId: number }) {
  const { t } = useLingui()
  const pickers = usePickers(workspaceId)
  const create = async (output: SpecialistOutput) => {
    const id = await commands.createRecord('specialist', workspaceId, fieldsOf(output))
    // Enabling and disabling are separate calls on the server
    // (docs/API.md "Integrations and directory").
    if (!output.enabled) await commands.setRecordEnabled('specialist', id, false)
    return id
  }
  return (
    <SpecialistForm
      {...form}
      title={t`Новый специалист`}
      initial={emptySpecialist}
      {...pickers}
      uploadPhoto={commands.uploadFile}
      renderPhoto={renderPhoto}
      onSubmit={create}
    />
  )
}

function valuesOf(record: Specialist): SpecialistValues {
  const { id: _id, workspace_id: _ws, ...values } = record
  return values
}

export function SpecialistEditPage({ id }: { id: number }) {
  return (
    <RecordEditPage
      kind="specialist"
      id={id}
      backLabel={<Trans>К специалистам</Trans>}
      remove={removeSpecialist}
    >
      {(record, form) => <SpecialistEdit record={record} {...form} />}
    </RecordEditPage>
  )
}

function SpecialistEdit({ record, ...form }: EditFormProps & { record: Specialist }) {
  const pickers = usePickers(record.workspace_id)

  const save = async (output: SpecialistOutput) => {
    await commands.updateRecord('specialist', record.id, fieldsOf(output))
    if (output.enabled !== record.enabled)
      await commands.setRecordEnabled('specialist', record.id, output.enabled)
  }

  return (
    <SpecialistForm
      {...form}
      initial={valuesOf(record)}
      {...pickers}
      uploadPhoto={commands.uploadFile}
      renderPhoto={renderPhoto}
      onSubmit={save}
    />
  )
}
