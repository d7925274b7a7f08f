import { Trans, useLingui } from '@lingui/react/macro'
import { useNavigate } from '@tanstack/react-router'
import { useCallback } from 'react'
import { createRecord, setRecordEnabled, updateRecord } from '../../data/commands.ts'
import { useRecord } from '../../data/live.ts'
import type {
  AmoIntegration,
  BitrixIntegration,
  IntegrationKind,
} from '../../domain/integration.ts'
import { DeleteButton } from '../../ui/delete-button.tsx'
import { notifySuccess } from '../../ui/notify.tsx'
import { ParkedNotice, parkedFieldErrors, useParkedOf } from '../records/parked-notice.tsx'
import { RecordLoading, RecordMissing } from '../records/record-state.tsx'
import { draftKey, useFollowId, useKeepWhileLoading } from '../records/use-follow-id.ts'
import { useRefresh } from '../../sync/client.ts'
import { AmoForm, amoValues, emptyAmo, type AmoOutput } from './amo-form.tsx'
import { BitrixForm, bitrixValues, emptyBitrix, type BitrixOutput } from './bitrix-form.tsx'
import { KIND_NAME } from './kinds.ts'
import { removeIntegration } from './remove-integration.ts'

/** Fields for the record commands: `enabled` travels through its own call (spec §4). */
function split<T extends { enabled: boolean }>(output: T): [Omit<T, 'enabled'>, boolean] {
  const { enabled, ...fields } = output
  return [fields, enabled]
}

/** The add form of one kind, in the current workspace. */
export function IntegrationAddForm({
  kind,
  workspaceId,
  onCancel,
}: {
  kind: IntegrationKind
  workspaceId: number
  onCancel: () => void
}) {
  const { t } = useLingui()
  const navigate = useNavigate()
  const system = KIND_NAME[kind]
  const onSaved = () => {
    notifySuccess(t`Интеграция ${system} добавлена`)
    void navigate({ to: kind === 'amo' ? '/integrations/amo' : '/integrations/bitrix' })
  }
  async function create(output: AmoOutput | BitrixOutput) {
    const [fields, enabled] = split(output)
    const id = await createRecord(kind, workspaceId, fields as never)
    if (!enabled) await setRecordEnabled(kind, id, false)
    return id
  }
  const common = {
    title: t`Новая интеграция ${system}`,
    submitLabel: <Trans>Подключить</Trans>,
    onSubmit: create,
    onSaved,
    onCancel,
  }
  return kind === 'amo' ? (
    <AmoForm {...common} initial={emptyAmo} />
  ) : (
    <BitrixForm {...common} initial={emptyBitrix} />
  )
}

export function IntegrationEditPage({ kind, id }: { kind: IntegrationKind; id: number }) {
  const navigate = useNavigate()
  const record = useKeepWhileLoading(
    useRecord(kind, id) as AmoIntegration | BitrixIntegration | null | undefined,
    id,
  )
  const parked = useParkedOf(kind, id)
  useRefresh(record ? { kind, workspaceId: record.workspace_id } : null)
  const follow = useCallback(
    (next: number) =>
      void navigate({
        to: kind === 'amo' ? '/integrations/amo/$id' : '/integrations/bitrix/$id',
        params: { id: String(next) },
        replace: true,
      }),
    [navigate, kind],
  )
  useFollowId(kind, id, follow)
  const back = () =>
    void navigate({ to: kind === 'amo' ? '/integrations/amo' : '/integrations/bitrix' })
  const { t } = useLingui()

  if (record === undefined) return <RecordLoading />
  if (record === null)
    return <RecordMissing onBack={back} backLabel={<Trans>К интеграциям</Trans>} />

  const save = async (output: AmoOutput | BitrixOutput) => {
    const [fields, enabled] = split(output)
    // A secret left out of the patch keeps its stored value.
    await updateRecord(kind, record.id, fields as never)
    if (enabled !== record.enabled) await setRecordEnabled(kind, record.id, enabled)
  }
  const common = {
    title: record.name,
    serverErrors: parkedFieldErrors(parked),
    draftKey: draftKey(kind, record.id),
    notice: <ParkedNotice entries={parked} />,
    onSubmit: save,
    onSaved: () => {
      notifySuccess(t`Изменения сохранены`)
      back()
    },
    onCancel: back,
    extraActions: (
      <DeleteButton
        onClick={() => void removeIntegration(kind, record).then((done) => done && back())}
      />
    ),
  }
  return 'subdomain' in record ? (
    <AmoForm {...common} record={record} initial={amoValues(record)} />
  ) : (
    <BitrixForm {...common} record={record} initial={bitrixValues(record)} />
  )
}
