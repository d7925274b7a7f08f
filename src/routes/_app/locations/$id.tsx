import { createFileRoute } from '@tanstack/react-router'
import { LocationEditPage } from '../../../features/directory/index.ts'
import { parseRecordId, RecordNotFound } from '../../../features/records/index.ts'

export const Route = createFileRoute('/_app/locations/$id')({ component: Page })

function Page() {
  const { id } = Route.useParams()
  const recordId = parseRecordId(id)
  return recordId === null ? <RecordNotFound to="/locations" /> : <LocationEditPage id={recordId} />
}
