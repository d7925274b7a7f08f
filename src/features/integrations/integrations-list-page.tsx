import './integration-messages.ts'
import { Trans, useLingui } from '@lingui/react/macro'
import { IconPlugConnected, IconPlus } from '@tabler/icons-react'
import { Link, useNavigate } from '@tanstack/react-router'
import { useMemo, type ReactNode } from 'react'
import { useCurrentWorkspaceId, useRecordList, useSyncMarks } from '../../mirror/live.ts'
import type { IntegrationKind } from '../../domain/integration.ts'
import { RowDeleteButton } from '../../ui/row-delete-button.tsx'
import { EmptyState } from '../../ui/empty-state.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { RecordList, type SortOption, recordId } from '../../ui/record-list.tsx'
import { byName, NoWorkspace, RECORD_ROUTES } from '../records/index.ts'
import { useRefresh } from '../../sync/client.ts'
import { ButtonLink } from '../../ui/links.tsx'
import { integrationTarget, StatusBadge, type Integration } from './integration-status.tsx'
import { IntegrationToggle } from './integration-toggle.tsx'
import classes from './integrations-lists.module.css'
import rowText from '../../ui/row-text.module.css'
import { KIND_NAME } from './kind-names.ts'
import { removeIntegration } from './remove-integration.ts'

export function IntegrationsListPage({
  kind,
  notice,
}: {
  kind: IntegrationKind
  /** Above the list: what amoCRM's redirect back said (amo-oauth.tsx). */
  notice?: ReactNode
}) {
  const { t } = useLingui()
  const navigate = useNavigate()
  const workspaceId = useCurrentWorkspaceId()
  useRefresh(workspaceId ? { kind, workspaceId } : null)
  const list = useRecordList(kind, workspaceId ?? null)
  const items = list.items as Integration[] | undefined
  const partial = list.partial
  const marks = useSyncMarks(kind)
  const system = KIND_NAME[kind]

  const sorts = useMemo<SortOption<Integration>[]>(
    () => [
      { value: 'name', label: t`По названию`, compare: byName },
      {
        value: 'status',
        label: t`Сначала включённые`,
        compare: (a, b) => Number(b.enabled) - Number(a.enabled) || byName(a, b),
      },
    ],
    [t],
  )

  const add = (
    <ButtonLink
      to="/integrations/add"
      search={{ kind }}
      leftSection={<IconPlus size={18} aria-hidden />}
    >
      <Trans>Добавить {system}</Trans>
    </ButtonLink>
  )

  return (
    <div className={classes.page}>
      <PageHeader title={t`Интеграции ${system}`} actions={workspaceId ? add : null}>
        <p className={classes.back}>
          <Link to="/integrations">
            <Trans>Все интеграции</Trans>
          </Link>
        </p>
      </PageHeader>
      {notice}
      {workspaceId === null ? (
        <NoWorkspace />
      ) : (
        <RecordList
          label={t`Интеграции ${system}`}
          items={workspaceId === undefined ? undefined : items}
          partial={partial}
          getId={recordId}
          searchText={(item) => `${item.name} ${integrationTarget(item)}`}
          sorts={sorts}
          marks={marks}
          onOpen={(item) =>
            void navigate({
              to: RECORD_ROUTES[kind].item,
              params: { id: String(item.id) },
            })
          }
          renderRow={(item) => (
            <span className={rowText.text}>
              <span className={classes.title}>
                <span className={rowText.name} data-testid="row-name">
                  {item.name}
                </span>
                <StatusBadge enabled={item.enabled} />
              </span>
              <span className={rowText.details}>{integrationTarget(item)}</span>
            </span>
          )}
          renderActions={(item) => (
            <>
              <IntegrationToggle kind={kind} id={item.id} name={item.name} enabled={item.enabled} />
              <RowDeleteButton
                name={item.name}
                onClick={() => void removeIntegration(kind, item)}
              />
            </>
          )}
          empty={
            <EmptyState
              icon={IconPlugConnected}
              title={<Trans>Интеграций {system} пока нет</Trans>}
              description={
                <Trans>Подключите {system}, чтобы заявки с лендингов попадали в CRM.</Trans>
              }
              action={add}
            />
          }
        />
      )}
    </div>
  )
}
