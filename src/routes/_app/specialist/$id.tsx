import { createFileRoute } from '@tanstack/react-router'
import { SpecialistEditPage } from '../../../features/directory/index.ts'
import { parseRecordId, RecordNotFound } from '../../../features/records/index.ts'

export const Route = createFileRoute('/_app/specialist/$id')({ component: Page })

function Page() {
  const { id } = Route.useParams()
  const recordId = parseRecordId(id)
  return recordId === null ? (
    <RecordNotFound to="/specialist" />
  ) : (
    <SpecialistEditPage id={recordId} />
  )
}
