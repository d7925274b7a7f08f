import './integration-messages.ts'
import { Trans, useLingui } from '@lingui/react/macro'
import { Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core'
import { IconPlus } from '@tabler/icons-react'
import { Link } from '@tanstack/react-router'
import { useCurrentWorkspaceId, useRecords, useSyncMarks } from '../../mirror/live.ts'
import type { IntegrationKind } from '../../domain/integration.ts'
import { PageHeader } from '../../ui/page-header.tsx'
import { SyncMark } from '../../ui/sync-mark.tsx'
import { NoWorkspace } from '../records/no-workspace.tsx'
import { RecordLoading } from '../records/record-state.tsx'
import { RECORD_ROUTES, type RecordRoutes } from '../records/record-routes.ts'
import { byName } from '../records/sorts.ts'
import { useRefresh } from '../../sync/client.ts'
import { AnchorLink, ButtonLink } from '../../ui/links.tsx'
import { IntegrationToggle } from './integration-toggle.tsx'
import { integrationTarget, StatusBadge } from './integrations-list-page.tsx'
import { KIND_DESCRIPTION, KIND_NAME } from './kinds.ts'

/** How many integrations of a kind the overview lists before «Все …». */
const PREVIEW = 5

/** /integrations: both kinds with counts, status and quick enable/disable. */
export function IntegrationsOverviewPage() {
  const { t } = useLingui()
  const workspaceId = useCurrentWorkspaceId()
  const ws = workspaceId ?? null
  useRefresh(ws ? { kind: 'amo', workspaceId: ws } : null)
  useRefresh(ws ? { kind: 'bitrix', workspaceId: ws } : null)
  return (
    <Stack gap="lg">
      <PageHeader
        title={t`Интеграции`}
        actions={
          ws ? (
            <Button
              component={Link}
              to="/integrations/add"
              size="md"
              leftSection={<IconPlus size={18} />}
            >
              <Trans>Добавить интеграцию</Trans>
            </Button>
          ) : null
        }
      />
      {workspaceId === undefined ? (
        <RecordLoading />
      ) : workspaceId === null ? (
        <NoWorkspace />
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 2 }}>
          <KindCard kind="amo" workspaceId={workspaceId} />
          <KindCard kind="bitrix" workspaceId={workspaceId} />
        </SimpleGrid>
      )}
    </Stack>
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
    <Paper withBorder radius="lg" p="lg" data-testid={`overview-${kind}`}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start">
          <Stack gap={2}>
            <Text fw={700} fz="xl">
              {system}
            </Text>
            <Text size="sm" c="dimmed">
              {t(KIND_DESCRIPTION[kind])}
            </Text>
          </Stack>
        </Group>
        <Group gap="xl">
          <Stack gap={0}>
            <Text fz={28} fw={700} lh={1.1} data-testid={`count-${kind}`}>
              {items ? total : '—'}
            </Text>
            <Text size="sm" c="dimmed">
              <Trans>всего</Trans>
            </Text>
          </Stack>
          <Stack gap={0}>
            <Text fz={28} fw={700} lh={1.1} c="teal">
              {items ? enabled : '—'}
            </Text>
            <Text size="sm" c="dimmed">
              <Trans>включено</Trans>
            </Text>
          </Stack>
        </Group>
        {items && total === 0 ? (
          <Text c="dimmed">
            <Trans>Интеграций {system} пока нет. Подключите первую — это займёт минуту.</Trans>
          </Text>
        ) : null}
        <Stack gap={0}>
          {shown.map((item) => (
            <Group
              key={item.id}
              justify="space-between"
              wrap="nowrap"
              py="xs"
              mih={56}
              style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}
            >
              <Stack gap={0} miw={0}>
                <AnchorLink
                  to={routes.item}
                  params={{ id: String(item.id) }}
                  fw={600}
                  truncate="end"
                >
                  {item.name}
                </AnchorLink>
                <Text size="sm" c="dimmed" truncate="end">
                  {integrationTarget(item)}
                </Text>
              </Stack>
              <Group gap="xs" wrap="nowrap">
                <SyncMark state={marks.get(item.id)} />
                <StatusBadge enabled={item.enabled} />
                <IntegrationToggle
                  kind={kind}
                  id={item.id}
                  name={item.name}
                  enabled={item.enabled}
                />
              </Group>
            </Group>
          ))}
        </Stack>
        <Group gap="sm">
          <Button component={Link} to={routes.list} variant="light" size="md">
            <Trans>Все интеграции {system}</Trans>
          </Button>
          <ButtonLink
            to="/integrations/add"
            search={{ kind }}
            variant="subtle"
            size="md"
            leftSection={<IconPlus size={18} />}
          >
            <Trans>Добавить</Trans>
          </ButtonLink>
        </Group>
      </Stack>
    </Paper>
  )
}
