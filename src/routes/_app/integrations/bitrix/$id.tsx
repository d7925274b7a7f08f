import { createFileRoute } from '@tanstack/react-router'
import { IntegrationEditPage } from '../../../../features/integrations/index.ts'
import { parseRecordId, RecordNotFound } from '../../../../features/records/index.ts'

export const Route = createFileRoute('/_app/integrations/bitrix/$id')({ component: Page })

function Page() {
  const { id } = Route.useParams()
  const recordId = parseRecordId(id)
  return recordId === null ? (
    <RecordNotFound to="/integrations/bitrix" />
  ) : (
    <IntegrationEditPage kind="bitrix" id={recordId} />
  )
}
