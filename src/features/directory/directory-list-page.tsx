import { Button, Stack, Text } from '@mantine/core'
import { IconPlus } from '@tabler/icons-react'
import { Link, useNavigate } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { useCurrentWorkspaceId, useRecords, useSyncMarks } from '../../mirror/live.ts'
import type { RecordOf } from '../../data/types.ts'
import { useRefresh } from '../../sync/client.ts'
import { RowDeleteButton } from '../../ui/delete-button.tsx'
import { EmptyState, type EmptyStateProps } from '../../ui/empty-state.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { RecordList, type SortOption } from '../../ui/record-list.tsx'
import { NoWorkspace } from '../records/no-workspace.tsx'
import { RECORD_ROUTES } from '../records/record-routes.ts'

type DirectoryKind = 'department' | 'location'

export interface DirectoryListPageProps<K extends DirectoryKind> {
  kind: K
  /** The page's title and the list's accessible name. */
  title: string
  addRoute: '/department/add' | '/locations/add'
  addLabel: ReactNode
  searchText: (item: RecordOf<K>) => string
  searchPlaceholder: string
  sorts: SortOption<RecordOf<K>>[]
  /** The dimmed line under the name; none when empty. */
  details: (item: RecordOf<K>) => string
  /** Confirms and deletes (the row's bin). */
  remove: (item: RecordOf<K>) => Promise<boolean>
  /** What to say when the workspace has none yet (the add button comes with it). */
  empty: Omit<EmptyStateProps, 'action'>
}

/**
 * The list of a directory kind whose records are a name and a line of details (departments,
 * locations): the current workspace's records, searchable and sortable, each opening its form
 * and deletable from its row.
 */
export function DirectoryListPage<K extends DirectoryKind>(props: DirectoryListPageProps<K>) {
  const { kind, details, remove } = props
  const navigate = useNavigate()
  const workspaceId = useCurrentWorkspaceId()
  useRefresh(workspaceId ? { kind, workspaceId } : null)
  const items = useRecords(kind, workspaceId ?? null)
  const marks = useSyncMarks(kind)

  const add = (
    <Button component={Link} to={props.addRoute} size="md" leftSection={<IconPlus size={18} />}>
      {props.addLabel}
    </Button>
  )

  return (
    <Stack gap="lg">
      <PageHeader title={props.title} actions={workspaceId ? add : null} />
      {workspaceId === null ? (
        <NoWorkspace />
      ) : (
        <RecordList
          label={props.title}
          items={workspaceId === undefined ? undefined : items}
          getId={(item) => item.id}
          searchText={props.searchText}
          searchPlaceholder={props.searchPlaceholder}
          sorts={props.sorts}
          marks={marks}
          onOpen={(item) =>
            void navigate({ to: RECORD_ROUTES[kind].item, params: { id: String(item.id) } })
          }
          renderRow={(item) => (
            <Stack gap={2} miw={0}>
              <Text fw={600} truncate="end">
                {item.name}
              </Text>
              {details(item) ? (
                <Text size="sm" c="dimmed" truncate="end">
                  {details(item)}
                </Text>
              ) : null}
            </Stack>
          )}
          renderActions={(item) => (
            <RowDeleteButton name={item.name} onClick={() => void remove(item)} />
          )}
          empty={<EmptyState {...props.empty} action={add} />}
        />
      )}
    </Stack>
  )
}
