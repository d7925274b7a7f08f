import { createFileRoute } from '@tanstack/react-router'
import { LocationEditPage } from '../../../features/directory/location-pages.tsx'
import { parseRecordId } from '../../../features/records/record-id.ts'
import { RecordNotFound } from '../../../features/records/record-state.tsx'

export const Route = createFileRoute('/_app/locations/$id')({ component: Page })

function Page() {
  const { id } = Route.useParams()
  const recordId = parseRecordId(id)
  return recordId === null ? <RecordNotFound to="/locations" /> : <LocationEditPage id={recordId} />
}
