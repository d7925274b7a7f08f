import './directory-messages.ts'
import { Trans, useLingui } from '@lingui/react/macro'
import { IconBuildingHospital } from '@tabler/icons-react'
import { useMemo } from 'react'
import type { Department } from '../../domain/directory.ts'
import type { SortOption } from '../../ui/record-list.tsx'
import { byCreation, byName } from '../records/index.ts'
import { DirectoryListPage } from './directory-list-page.tsx'
import { removeDepartment } from './removals.ts'

export function DepartmentsPage() {
  const { t } = useLingui()
  const sorts = useMemo<SortOption<Department>[]>(
    () => [
      { value: 'name', label: t`По названию`, compare: byName },
      { value: 'created', label: t`По дате добавления`, compare: byCreation },
    ],
    [t],
  )
  return (
    <DirectoryListPage
      kind="department"
      title={t`Отделения`}
      addRoute="/department/add"
      addLabel={<Trans>Добавить отделение</Trans>}
      searchText={searchText}
      searchPlaceholder={t`Поиск по названию и описанию`}
      sorts={sorts}
      details={(item) => item.description}
      remove={removeDepartment}
      empty={{
        icon: IconBuildingHospital,
        title: <Trans>Отделений пока нет</Trans>,
        description: (
          <Trans>
            Добавьте первое отделение — потом к нему можно будет привязать специалистов.
          </Trans>
        ),
      }}
    />
  )
}

const searchText = (item: Department) => `${item.name} ${item.description}`
