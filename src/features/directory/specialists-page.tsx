import './directory-messages.ts'
import { Trans, useLingui } from '@lingui/react/macro'
import { IconPlus, IconUsers } from '@tabler/icons-react'
import { useNavigate } from '@tanstack/react-router'
import { useCallback, useMemo, useState } from 'react'
import { commands } from '../../mirror/commands.ts'
import {
  useCurrentWorkspaceId,
  useRecordList,
  useRecords,
  useSyncMarks,
} from '../../mirror/live.ts'
import type { Specialist } from '../../domain/directory.ts'
import { ButtonLink } from '../../ui/links.tsx'
import { RowDeleteButton } from '../../ui/row-delete-button.tsx'
import { Switch } from '../../ui/switch.tsx'
import { NativeSelect } from '../../ui/text-input.tsx'
import { EmptyState } from '../../ui/empty-state.tsx'
import { compareText } from '../../ui/list-query.ts'
import { PageHeader } from '../../ui/page-header.tsx'
import { RecordList, type SortOption, recordId } from '../../ui/record-list.tsx'
import { byName, NoWorkspace, runCommand } from '../records/index.ts'
import { useRefresh } from '../../sync/client.ts'
import { removeSpecialist } from './removals.ts'
import classes from './directory-lists.module.css'
import rowText from '../../ui/row-text.module.css'
import { SpecialistPhoto } from './specialist-photo.tsx'
import { nestQuotes } from '../../domain/quotes.ts'

/** Filter values: '' any, 'none' not set, or an id. */
type RefFilter = string

function matchesRef(value: number | null, filter: RefFilter): boolean {
  if (filter === '') return true
  if (filter === 'none') return value === null
  return value === Number(filter)
}

export function SpecialistsPage() {
  const { t } = useLingui()
  const navigate = useNavigate()
  const workspaceId = useCurrentWorkspaceId()
  const ws = workspaceId ?? null
  useRefresh(ws ? { kind: 'specialist', workspaceId: ws } : null)
  useRefresh(ws ? { kind: 'department', workspaceId: ws } : null)
  useRefresh(ws ? { kind: 'location', workspaceId: ws } : null)
  const { items, partial } = useRecordList('specialist', ws)
  const departments = useRecords('department', ws)
  const locations = useRecords('location', ws)
  const marks = useSyncMarks('specialist')
  const [department, setDepartment] = useState<RefFilter>('')
  const [location, setLocation] = useState<RefFilter>('')
  const [status, setStatus] = useState<'' | 'on' | 'off'>('')

  const departmentName = useMemo(
    () => new Map((departments ?? []).map((d) => [d.id, d.name])),
    [departments],
  )
  const locationName = useMemo(
    () => new Map((locations ?? []).map((l) => [l.id, l.name])),
    [locations],
  )

  const sorts = useMemo<SortOption<Specialist>[]>(
    () => [
      { value: 'name', label: t`По имени`, compare: byName },
      {
        value: 'department',
        label: t`По отделению`,
        compare: (a, b) =>
          compareText(
            departmentName.get(a.department_id ?? 0) ?? '\uffff',
            departmentName.get(b.department_id ?? 0) ?? '\uffff',
          ) || byName(a, b),
      },
      {
        value: 'position',
        label: t`По должности`,
        compare: (a, b) => compareText(a.position, b.position) || byName(a, b),
      },
    ],
    [t, departmentName],
  )

  const filter = useCallback(
    (item: Specialist) =>
      matchesRef(item.department_id, department) &&
      matchesRef(item.location_id, location) &&
      (status === '' || item.enabled === (status === 'on')),
    [department, location, status],
  )
  const searchText = useCallback(
    (item: Specialist) =>
      `${item.name} ${item.position} ${item.phone} ${item.email} ${
        departmentName.get(item.department_id ?? 0) ?? ''
      } ${locationName.get(item.location_id ?? 0) ?? ''}`,
    [departmentName, locationName],
  )

  // One name whatever the state: on or off is the switch's aria-checked.
  const toggleLabel = (name: string) => t`Специалист ${name} активен`

  const toggle = (item: Specialist, enabled: boolean) => {
    const name = nestQuotes(item.name)
    void runCommand(
      () => commands.setRecordEnabled('specialist', item.id, enabled),
      enabled ? t`Специалист «${name}» включён` : t`Специалист «${name}» выключен`,
    )
  }

  const refOptions = (options: { id: number; name: string }[] | undefined, none: string) => [
    { value: '', label: t`Все` },
    { value: 'none', label: none },
    ...(options ?? []).map((o) => ({ value: String(o.id), label: o.name })),
  ]

  // Native selects: the platform's own picker on a tablet, and no Mantine on the first load.
  const filters = (
    <>
      <NativeSelect
        label={t`Отделение`}
        data={refOptions(departments, t`Без отделения`)}
        value={department}
        onChange={(event) => setDepartment(event.currentTarget.value)}
      />
      <NativeSelect
        label={t`Локация`}
        data={refOptions(locations, t`Без локации`)}
        value={location}
        onChange={(event) => setLocation(event.currentTarget.value)}
      />
      <NativeSelect
        label={t`Статус`}
        data={[
          { value: '', label: t`Все` },
          { value: 'on', label: t`Активные` },
          { value: 'off', label: t`Выключенные` },
        ]}
        value={status}
        onChange={(event) => setStatus(event.currentTarget.value as '' | 'on' | 'off')}
      />
    </>
  )

  const add = (
    <ButtonLink to="/specialist/add" leftSection={<IconPlus size={18} aria-hidden />}>
      <Trans>Добавить специалиста</Trans>
    </ButtonLink>
  )

  return (
    <div className={classes.page}>
      <PageHeader title={t`Специалисты`} actions={ws ? add : null} />
      {workspaceId === null ? (
        <NoWorkspace />
      ) : (
        <RecordList
          label={t`Специалисты`}
          items={workspaceId === undefined ? undefined : items}
          partial={partial}
          getId={recordId}
          searchText={searchText}
          searchPlaceholder={t`Поиск по имени, должности, контактам`}
          sorts={sorts}
          filters={filters}
          filter={filter}
          marks={marks}
          rowHeight={80}
          onOpen={(item) =>
            void navigate({ to: '/specialist/$id', params: { id: String(item.id) } })
          }
          renderRow={(item) => (
            <span className={classes.person}>
              <SpecialistPhoto url={item.photo_url} name={item.name} size={48} />
              <span className={rowText.text}>
                <span
                  className={rowText.name}
                  data-testid="row-name"
                  data-off={item.enabled ? undefined : true}
                >
                  {item.name}
                </span>
                <span className={rowText.details}>
                  {[
                    item.position,
                    departmentName.get(item.department_id ?? 0),
                    locationName.get(item.location_id ?? 0),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
              </span>
            </span>
          )}
          renderActions={(item) => (
            <>
              <Switch
                checked={item.enabled}
                onChange={(event) => toggle(item, event.currentTarget.checked)}
                aria-label={toggleLabel(item.name)}
              />
              <RowDeleteButton name={item.name} onClick={() => void removeSpecialist(item)} />
            </>
          )}
          empty={
            <EmptyState
              icon={IconUsers}
              title={<Trans>Специалистов пока нет</Trans>}
              description={
                <Trans>
                  Добавьте специалиста: имя, должность, отделение и локацию. Фото можно загрузить и
                  без сети.
                </Trans>
              }
              action={add}
            />
          }
        />
      )}
    </div>
  )
}
