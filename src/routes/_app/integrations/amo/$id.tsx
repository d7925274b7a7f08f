import { createFileRoute } from '@tanstack/react-router'
import { IntegrationEditPage } from '../../../../features/integrations/integration-pages.tsx'
import { parseRecordId } from '../../../../features/records/record-id.ts'
import { RecordNotFound } from '../../../../features/records/record-state.tsx'

export const Route = createFileRoute('/_app/integrations/amo/$id')({ component: Page })

function Page() {
  const { id } = Route.useParams()
  const recordId = parseRecordId(id)
  return recordId === null ? (
    <RecordNotFound to="/integrations/amo" />
  ) : (
    <IntegrationEditPage kind="amo" id={recordId} />
  )
}
