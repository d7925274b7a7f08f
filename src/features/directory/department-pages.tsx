import './directory-messages.ts'
import { Trans, useLingui } from '@lingui/react/macro'
import { commands } from '../../mirror/commands.ts'
import { RecordAddPage, RecordEditPage } from '../records/index.ts'
import { DepartmentForm, emptyDepartment } from './department-form.tsx'
import { removeDepartment } from './removals.ts'

export function DepartmentAddPage() {
  const { t } = useLingui()
  return (
    <RecordAddPage kind="department" added={t`Отделение добавлено`}>
      {(workspaceId, form) => (
        <DepartmentForm
          {...form}
          title={t`Новое отделение`}
          initial={emptyDepartment}
          onSubmit={(fields) => commands.createRecord('department', workspaceId, fields)}
        />
      )}
    </RecordAddPage>
  )
}

export function DepartmentEditPage({ id }: { id: number }) {
  return (
    <RecordEditPage
      kind="department"
      id={id}
      backLabel={<Trans>К отделениям</Trans>}
      remove={removeDepartment}
    >
      {(record, form) => (
        <DepartmentForm
          {...form}
          initial={{ name: record.name, description: record.description }}
          onSubmit={(fields) => commands.updateRecord('department', record.id, fields)}
        />
      )}
    </RecordEditPage>
  )
}
