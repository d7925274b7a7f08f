import { Trans, useLingui } from '@lingui/react/macro'
import { Button, Stack, Text } from '@mantine/core'
import { IconBuildingHospital, IconPlus } from '@tabler/icons-react'
import { Link, useNavigate } from '@tanstack/react-router'
import { useMemo } from 'react'
import { useCurrentWorkspaceId, useRecords, useSyncMarks } from '../../data/live.ts'
import type { Department } from '../../domain/directory.ts'
import { RowDeleteButton } from '../../ui/delete-button.tsx'
import { EmptyState } from '../../ui/empty-state.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { RecordList, type SortOption } from '../../ui/record-list.tsx'
import { NoWorkspace } from '../records/no-workspace.tsx'
import { byCreation, byName } from '../records/sorts.ts'
import { useRefresh } from '../../sync/client.ts'
import { removeDepartment } from './removals.ts'

export function DepartmentsPage() {
  const { t } = useLingui()
  const navigate = useNavigate()
  const workspaceId = useCurrentWorkspaceId()
  useRefresh(workspaceId ? { kind: 'department', workspaceId } : null)
  const items = useRecords('department', workspaceId ?? null)
  const marks = useSyncMarks('department')

  const sorts = useMemo<SortOption<Department>[]>(
    () => [
      { value: 'name', label: t`По названию`, compare: byName },
      { value: 'created', label: t`По дате добавления`, compare: byCreation },
    ],
    [t],
  )

  const add = (
    <Button component={Link} to="/department/add" size="md" leftSection={<IconPlus size={18} />}>
      <Trans>Добавить отделение</Trans>
    </Button>
  )

  return (
    <Stack gap="lg">
      <PageHeader title={t`Отделения`} actions={workspaceId ? add : null} />
      {workspaceId === null ? (
        <NoWorkspace />
      ) : (
        <RecordList
          label={t`Отделения`}
          items={workspaceId === undefined ? undefined : items}
          getId={(item) => item.id}
          searchText={(item) => `${item.name} ${item.description}`}
          searchPlaceholder={t`Поиск по названию и описанию`}
          sorts={sorts}
          marks={marks}
          onOpen={(item) =>
            void navigate({ to: '/department/$id', params: { id: String(item.id) } })
          }
          renderRow={(item) => (
            <Stack gap={2} miw={0}>
              <Text fw={600} truncate="end">
                {item.name}
              </Text>
              {item.description ? (
                <Text size="sm" c="dimmed" truncate="end">
                  {item.description}
                </Text>
              ) : null}
            </Stack>
          )}
          renderActions={(item) => (
            <RowDeleteButton name={item.name} onClick={() => void removeDepartment(item)} />
          )}
          empty={
            <EmptyState
              icon={IconBuildingHospital}
              title={<Trans>Отделений пока нет</Trans>}
              description={
                <Trans>
                  Добавьте первое отделение — потом к нему можно будет привязать специалистов.
                </Trans>
              }
              action={add}
            />
          }
        />
      )}
    </Stack>
  )
}
