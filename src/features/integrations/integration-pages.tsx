import './integration-messages.ts'
import { Trans, useLingui } from '@lingui/react/macro'
import { useNavigate } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { commands } from '../../mirror/commands.ts'
import type { IntegrationKind } from '../../domain/integration.ts'
import { notifySuccess } from '../../ui/notify.tsx'
import { RECORD_ROUTES, RecordEditPage } from '../records/index.ts'
import {
  emptyIntegration,
  IntegrationForm,
  integrationValues,
  type IntegrationOutput,
} from './integration-form.tsx'
import { IntegrationStatePanel } from './integration-state.tsx'
import { KIND_NAME } from './kinds.ts'
import { removeIntegration } from './remove-integration.ts'

/**
 * Fields for the record commands: `enabled` travels through its own call
 * (docs/API.md "Integrations and directory").
 */
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
  async function create(output: IntegrationOutput<IntegrationKind>) {
    const [fields, enabled] = split(output)
    const id = await commands.createRecord(kind, workspaceId, fields as never)
    if (!enabled) await commands.setRecordEnabled(kind, id, false)
    return id
  }
  return (
    <IntegrationForm
      kind={kind}
      title={t`Новая интеграция ${system}`}
      initial={emptyIntegration(kind)}
      submitLabel={<Trans>Подключить</Trans>}
      onSubmit={create}
      onSaved={onSaved}
      onCancel={onCancel}
    />
  )
}

export function IntegrationEditPage({
  kind,
  id,
  notice,
}: {
  kind: IntegrationKind
  id: number
  /** Above the state: what amoCRM's redirect back said (amo-oauth.tsx). */
  notice?: ReactNode
}) {
  return (
    <RecordEditPage
      kind={kind}
      id={id}
      backLabel={<Trans>К интеграциям</Trans>}
      remove={(record) => removeIntegration(kind, record)}
    >
      {(record, form) => {
        const save = async (output: IntegrationOutput<IntegrationKind>) => {
          const [fields, enabled] = split(output)
          // A secret left out of the patch keeps its stored value.
          await commands.updateRecord(kind, record.id, fields as never)
          if (enabled !== record.enabled) await commands.setRecordEnabled(kind, record.id, enabled)
        }
        return (
          <IntegrationForm
            {...form}
            notice={
              <>
                {form.notice}
                {notice}
                <IntegrationStatePanel
                  kind={kind}
                  id={record.id}
                  workspaceId={record.workspace_id}
                />
              </>
            }
            kind={kind}
            record={record}
            initial={integrationValues(kind, record)}
            onSubmit={save}
          />
        )
      }}
    </RecordEditPage>
  )
}
