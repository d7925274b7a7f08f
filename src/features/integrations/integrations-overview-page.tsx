import './integration-messages.ts'
import { Trans, useLingui } from '@lingui/react/macro'
import { IconPlus } from '@tabler/icons-react'
import { useCurrentWorkspaceId, useRecords, useSyncMarks } from '../../mirror/live.ts'
import type { IntegrationKind } from '../../domain/integration.ts'
import { PageHeader } from '../../ui/page-header.tsx'
import { SyncMark } from '../../ui/sync-mark.tsx'
import {
  byName,
  NoWorkspace,
  RECORD_ROUTES,
  RecordLoading,
  type RecordRoutes,
} from '../records/index.ts'
import { useRefresh } from '../../sync/client.ts'
import { AnchorLink, ButtonLink } from '../../ui/links.tsx'
import { IntegrationToggle } from './integration-toggle.tsx'
import { integrationTarget, StatusBadge } from './integration-status.tsx'
import classes from './integrations-lists.module.css'
import rowText from '../../ui/row-text.module.css'
import { KIND_DESCRIPTION, KIND_NAME } from './kind-names.ts'

/** How many integrations of a kind the overview lists before «Все …». */
const PREVIEW = 5

/**
 * /integrations: both kinds with counts, status and quick enable/disable. Drawn without Mantine
 * (a first screen: docs/performance.md).
 */
export function IntegrationsOverviewPage() {
  const { t } = useLingui()
  const workspaceId = useCurrentWorkspaceId()
  const ws = workspaceId ?? null
  useRefresh(ws ? { kind: 'amo', workspaceId: ws } : null)
  useRefresh(ws ? { kind: 'bitrix', workspaceId: ws } : null)
  return (
    <div className={classes.page}>
      <PageHeader
        title={t`Интеграции`}
        actions={
          ws ? (
            <ButtonLink to="/integrations/add" leftSection={<IconPlus size={18} aria-hidden />}>
              <Trans>Добавить интеграцию</Trans>
            </ButtonLink>
          ) : null
        }
      />
      {workspaceId === undefined ? (
        <RecordLoading />
      ) : workspaceId === null ? (
        <NoWorkspace />
      ) : (
        <div className={classes.grid}>
          <KindCard kind="amo" workspaceId={workspaceId} />
          <KindCard kind="bitrix" workspaceId={workspaceId} />
        </div>
      )}
    </div>
  )
}

function KindCard({ kind, workspaceId }: { kind: IntegrationKind; workspaceId: number }) {
  const { t } = useLingui()
  const items = useRecords(kind, workspaceId)
  const marks = useSyncMarks(kind)
  const system = KIND_NAME[kind]
  const routes: RecordRoutes = RECORD_ROUTES[kind]
  const total = items?.length ?? 0
  const enabled = items?.filter((item) => item.enabled).length ?? 0
  const shown = [...(items ?? [])].sort(byName).slice(0, PREVIEW)

  return (
    <section className={classes.card} data-testid={`overview-${kind}`}>
      <div className={classes.heading}>
        <h2 className={classes.kind}>{system}</h2>
        <p className={classes.dimmed} data-size="sm">
          {t(KIND_DESCRIPTION[kind])}
        </p>
      </div>
      <div className={classes.counts}>
        <div className={classes.count}>
          <p className={classes.number} data-testid={`count-${kind}`}>
            {items ? total : '—'}
          </p>
          <p className={classes.dimmed} data-size="sm">
            <Trans>всего</Trans>
          </p>
        </div>
        <div className={classes.count}>
          <p className={classes.number} data-enabled>
            {items ? enabled : '—'}
          </p>
          <p className={classes.dimmed} data-size="sm">
            <Trans>включено</Trans>
          </p>
        </div>
      </div>
      {items && total === 0 ? (
        <p className={classes.dimmed}>
          <Trans>Интеграций {system} пока нет. Подключите первую — это займёт минуту.</Trans>
        </p>
      ) : null}
      <div className={classes.rows}>
        {shown.map((item) => (
          <div key={item.id} className={classes.row}>
            <div className={classes.rowText}>
              <AnchorLink
                to={routes.item}
                params={{ id: String(item.id) }}
                className={classes.rowName}
              >
                {item.name}
              </AnchorLink>
              <span className={rowText.details}>{integrationTarget(item)}</span>
            </div>
            <div className={classes.rowActions}>
              <SyncMark state={marks.get(item.id)} />
              <StatusBadge enabled={item.enabled} />
              <IntegrationToggle kind={kind} id={item.id} name={item.name} enabled={item.enabled} />
            </div>
          </div>
        ))}
      </div>
      <div className={classes.links}>
        <ButtonLink to={routes.list} variant="light">
          <Trans>Все интеграции {system}</Trans>
        </ButtonLink>
        <ButtonLink
          to="/integrations/add"
          search={{ kind }}
          variant="subtle"
          leftSection={<IconPlus size={18} aria-hidden />}
        >
          <Trans>Добавить</Trans>
        </ButtonLink>
      </div>
    </section>
  )
}
