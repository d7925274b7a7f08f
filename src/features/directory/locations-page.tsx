import './directory-messages.ts'
import { Trans, useLingui } from '@lingui/react/macro'
import { IconMapPin } from '@tabler/icons-react'
import { useMemo } from 'react'
import type { Location } from '../../domain/directory.ts'
import { compareText } from '../../ui/list-query.ts'
import type { SortOption } from '../../ui/record-list.tsx'
import { byCreation, byName } from '../records/index.ts'
import { DirectoryListPage } from './directory-list-page.tsx'
import { removeLocation } from './removals.ts'

export function LocationsPage() {
  const { t } = useLingui()
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
  return (
    <DirectoryListPage
      kind="location"
      title={t`Локации`}
      addRoute="/locations/add"
      addLabel={<Trans>Добавить локацию</Trans>}
      searchText={searchText}
      searchPlaceholder={t`Поиск по названию, адресу, телефону`}
      sorts={sorts}
      details={(item) => [item.address, item.phone].filter(Boolean).join(' · ')}
      remove={removeLocation}
      empty={{
        icon: IconMapPin,
        title: <Trans>Локаций пока нет</Trans>,
        description: <Trans>Добавьте первую локацию — адрес, где принимают специалисты.</Trans>,
      }}
    />
  )
}

const searchText = (item: Location) => `${item.name} ${item.address} ${item.phone}`
