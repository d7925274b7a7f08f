import { createFileRoute } from '@tanstack/react-router'
import { DepartmentEditPage } from '../../../features/directory/department-pages.tsx'
import { parseRecordId } from '../../../features/records/record-id.ts'
import { RecordNotFound } from '../../../features/records/record-state.tsx'

export const Route = createFileRoute('/_app/department/$id')({ component: Page })

function Page() {
  const { id } = Route.useParams()
  const recordId = parseRecordId(id)
  return recordId === null ? (
    <RecordNotFound to="/department" />
  ) : (
    <DepartmentEditPage id={recordId} />
  )
}
