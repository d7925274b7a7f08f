import { Trans, useLingui } from '@lingui/react/macro'
import { useNavigate } from '@tanstack/react-router'
import { createRecord, setRecordEnabled, updateRecord } from '../../data/commands.ts'
import type { IntegrationKind } from '../../domain/integration.ts'
import { notifySuccess } from '../../ui/notify.tsx'
import { RecordEditPage } from '../records/record-pages.tsx'
import { RECORD_ROUTES } from '../records/record-routes.ts'
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
    void navigate({ to: RECORD_ROUTES[kind].list })
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
  return (
    <RecordEditPage
      kind={kind}
      id={id}
      backLabel={<Trans>К интеграциям</Trans>}
      remove={(record) => removeIntegration(kind, record)}
    >
      {(record, form) => {
        const save = async (output: AmoOutput | BitrixOutput) => {
          const [fields, enabled] = split(output)
          // A secret left out of the patch keeps its stored value.
          await updateRecord(kind, record.id, fields as never)
          if (enabled !== record.enabled) await setRecordEnabled(kind, record.id, enabled)
        }
        return 'subdomain' in record ? (
          <AmoForm {...form} onSubmit={save} record={record} initial={amoValues(record)} />
        ) : (
          <BitrixForm {...form} onSubmit={save} record={record} initial={bitrixValues(record)} />
        )
      }}
    </RecordEditPage>
  )
}
