import { IconPlus } from '@tabler/icons-react'
import { useNavigate } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { useCurrentWorkspaceId, useRecordList, useSyncMarks } from '../../mirror/live.ts'
import type { RecordOf } from '../../data/types.ts'
import { useRefresh } from '../../sync/client.ts'
import { ButtonLink } from '../../ui/links.tsx'
import { RowDeleteButton } from '../../ui/row-delete-button.tsx'
import { EmptyState, type EmptyStateProps } from '../../ui/empty-state.tsx'
import { PageHeader } from '../../ui/page-header.tsx'
import { RecordList, type SortOption, recordId } from '../../ui/record-list.tsx'
import { NoWorkspace, RECORD_ROUTES } from '../records/index.ts'
import classes from './directory-lists.module.css'
import rowText from '../../ui/row-text.module.css'

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
 * and deletable from its row. Drawn without Mantine (a first screen: docs/performance.md).
 */
export function DirectoryListPage<K extends DirectoryKind>(props: DirectoryListPageProps<K>) {
  const { kind, details, remove } = props
  const navigate = useNavigate()
  const workspaceId = useCurrentWorkspaceId()
  useRefresh(workspaceId ? { kind, workspaceId } : null)
  const { items, partial } = useRecordList(kind, workspaceId ?? null)
  const marks = useSyncMarks(kind)

  const add = (
    <ButtonLink to={props.addRoute} leftSection={<IconPlus size={18} aria-hidden />}>
      {props.addLabel}
    </ButtonLink>
  )

  return (
    <div className={classes.page}>
      <PageHeader title={props.title} actions={workspaceId ? add : null} />
      {workspaceId === null ? (
        <NoWorkspace />
      ) : (
        <RecordList
          label={props.title}
          items={workspaceId === undefined ? undefined : items}
          partial={partial}
          getId={recordId}
          searchText={props.searchText}
          searchPlaceholder={props.searchPlaceholder}
          sorts={props.sorts}
          marks={marks}
          onOpen={(item) =>
            void navigate({ to: RECORD_ROUTES[kind].item, params: { id: String(item.id) } })
          }
          renderRow={(item) => (
            <span className={rowText.text}>
              <span className={rowText.name} data-testid="row-name">
                {item.name}
              </span>
              {details(item) ? <span className={rowText.details}>{details(item)}</span> : null}
            </span>
          )}
          renderActions={(item) => (
            <RowDeleteButton name={item.name} onClick={() => void remove(item)} />
          )}
          empty={<EmptyState {...props.empty} action={add} />}
        />
      )}
    </div>
  )
}
