import { createFileRoute } from '@tanstack/react-router'
import { DepartmentEditPage } from '../../../features/directory/index.ts'
import { parseRecordId, RecordNotFound } from '../../../features/records/index.ts'

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
