import './directory-messages.ts'
import { Trans, useLingui } from '@lingui/react/macro'
import { commands } from '../../mirror/commands.ts'
import { RecordAddPage, RecordEditPage } from '../records/index.ts'
import { LocationForm, emptyLocation } from './location-form.tsx'
import { removeLocation } from './removals.ts'

export function LocationAddPage() {
  const { t } = useLingui()
  return (
    <RecordAddPage kind="location" added={t`Локация добавлена`}>
      {(workspaceId, form) => (
        <LocationForm
          {...form}
          title={t`Новая локация`}
          initial={emptyLocation}
          onSubmit={(fields) => commands.createRecord('location', workspaceId, fields)}
        />
      )}
    </RecordAddPage>
  )
}

export function LocationEditPage({ id }: { id: number }) {
  return (
    <RecordEditPage
      kind="location"
      id={id}
      backLabel={<Trans>К локациям</Trans>}
      remove={removeLocation}
    >
      {(record, form) => (
        <LocationForm
          {...form}
          initial={{ name: record.name, address: record.address, phone: record.phone }}
          onSubmit={(fields) => commands.updateRecord('location', record.id, fields)}
        />
      )}
    </RecordEditPage>
  )
}
