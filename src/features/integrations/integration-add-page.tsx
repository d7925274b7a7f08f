import './integration-messages.ts'
import { Trans, useLingui } from '@lingui/react/macro'
import { PlainButton } from '../../ui/button.tsx'
import { IconTile, Paper, SimpleGrid, Stack, Text } from '../../ui/layout.tsx'
import { IconChevronRight, IconPlugConnected } from '@tabler/icons-react'
import { useNavigate } from '@tanstack/react-router'
import { useCurrentWorkspaceId } from '../../mirror/live.ts'
import { INTEGRATION_KINDS, type IntegrationKind } from '../../domain/integration.ts'
import { PageHeader } from '../../ui/page-header.tsx'
import { NoWorkspace, RecordLoading } from '../records/index.ts'
import { IntegrationAddForm } from './integration-pages.tsx'
import { KIND_DESCRIPTION, KIND_NAME } from './kinds.ts'

/** /integrations/add: choose amoCRM or Bitrix24 (kept in `?kind=` so Back returns here), then its form. */
export function IntegrationAddPage({ kind }: { kind: IntegrationKind | undefined }) {
  const { t } = useLingui()
  const navigate = useNavigate()
  const workspaceId = useCurrentWorkspaceId()
  if (workspaceId === undefined) return <RecordLoading />
  if (workspaceId === null) return <NoWorkspace />
  if (kind)
    return (
      <IntegrationAddForm
        kind={kind}
        workspaceId={workspaceId}
        onCancel={() => void navigate({ to: '/integrations/add', search: {} })}
      />
    )
  return (
    <Stack gap="lg" maw={880}>
      <PageHeader title={t`Новая интеграция`}>
        <Text c="dimmed">
          <Trans>Выберите CRM, в которую будут приходить заявки.</Trans>
        </Text>
      </PageHeader>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {INTEGRATION_KINDS.map((option) => (
          <PlainButton
            key={option}
            onClick={() => void navigate({ to: '/integrations/add', search: { kind: option } })}
            aria-label={KIND_NAME[option]}
          >
            <Paper withBorder radius="lg" p="lg" h="100%">
              <Stack gap="sm">
                <IconTile size={48} radius="md" color={option === 'amo' ? 'blue' : 'cyan'}>
                  <IconPlugConnected size={26} aria-hidden />
                </IconTile>
                <Text fw={700} fz="lg">
                  {KIND_NAME[option]}
                </Text>
                <Text c="dimmed" size="sm">
                  {t(KIND_DESCRIPTION[option])}
                </Text>
                <Text c="blue" fw={600} size="sm">
                  <Trans>Выбрать</Trans> <IconChevronRight size={14} aria-hidden />
                </Text>
              </Stack>
            </Paper>
          </PlainButton>
        ))}
      </SimpleGrid>
    </Stack>
  )
}
