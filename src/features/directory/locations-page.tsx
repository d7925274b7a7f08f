import { Trans, useLingui } from '@lingui/react/macro'
import { Button, Stack, Text } from '@mantine/core'
import { IconMapPin, IconPlus } from '@tabler/icons-react'
import { Link, useNavigate } from '@tanstack/react-router'
import { useMemo } from 'react'
import { useCurrentWorkspaceId, useRecords, useSyncMarks } from '../../data/live.ts'
import type { Location } from '../../domain/directory.ts'
import { RowDeleteButton } from '../../ui/delete-button.tsx'
import { EmptyState } from '../../ui/empty-state.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { compareText } from '../../ui/list-query.ts'
import { RecordList, type SortOption } from '../../ui/record-list.tsx'
import { NoWorkspace } from '../records/no-workspace.tsx'
import { byCreation, byName } from '../records/sorts.ts'
import { useRefresh } from '../../sync/client.ts'
import { removeLocation } from './removals.ts'

export function LocationsPage() {
  const { t } = useLingui()
  const navigate = useNavigate()
  const workspaceId = useCurrentWorkspaceId()
  useRefresh(workspaceId ? { kind: 'location', workspaceId } : null)
  const items = useRecords('location', workspaceId ?? null)
  const marks = useSyncMarks('location')

  const sorts = useMemo<SortOption<Location>[]>(
    () => [
      { value: 'name', label: t`По названию`, compare: byName },
      {
        value: 'address',
        label: t`По адресу`,
        compare: (a, b) => compareText(a.address, b.address),
      },
      { value: 'created', label: t`По дате добавления`, compare: byCreation },
    ],
    [t],
  )

  const add = (
    <Button component={Link} to="/locations/add" size="md" leftSection={<IconPlus size={18} />}>
      <Trans>Добавить локацию</Trans>
    </Button>
  )

  return (
    <Stack gap="lg">
      <PageHeader title={t`Локации`} actions={workspaceId ? add : null} />
      {workspaceId === null ? (
        <NoWorkspace />
      ) : (
        <RecordList
          label={t`Локации`}
          items={workspaceId === undefined ? undefined : items}
          getId={(item) => item.id}
          searchText={(item) => `${item.name} ${item.address} ${item.phone}`}
          searchPlaceholder={t`Поиск по названию, адресу, телефону`}
          sorts={sorts}
          marks={marks}
          onOpen={(item) =>
            void navigate({ to: '/locations/$id', params: { id: String(item.id) } })
          }
          renderRow={(item) => (
            <Stack gap={2} miw={0}>
              <Text fw={600} truncate="end">
                {item.name}
              </Text>
              {item.address || item.phone ? (
                <Text size="sm" c="dimmed" truncate="end">
                  {[item.address, item.phone].filter(Boolean).join(' · ')}
                </Text>
              ) : null}
            </Stack>
          )}
          renderActions={(item) => (
            <RowDeleteButton name={item.name} onClick={() => void removeLocation(item)} />
          )}
          empty={
            <EmptyState
              icon={IconMapPin}
              title={<Trans>Локаций пока нет</Trans>}
              description={
                <Trans>Добавьте первую локацию — адрес, где принимают специалисты.</Trans>
              }
              action={add}
            />
          }
        />
      )}
    </Stack>
  )
}
