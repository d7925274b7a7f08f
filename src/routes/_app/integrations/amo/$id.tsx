import { createFileRoute } from '@tanstack/react-router'
import { useCallback } from 'react'
import {
  AmoOauthNotice,
  IntegrationEditPage,
  useAmoOauthOutcome,
  validateAmoOauthSearch,
} from '../../../../features/integrations/index.ts'
import { parseRecordId, RecordNotFound } from '../../../../features/records/index.ts'

export const Route = createFileRoute('/_app/integrations/amo/$id')({
  // amoCRM's redirect back after «Подключить amoCRM» says how it went (docs/API.md).
  validateSearch: validateAmoOauthSearch,
  component: Page,
})

function Page() {
  const { id } = Route.useParams()
  const { amo_oauth } = Route.useSearch()
  const navigate = Route.useNavigate()
  const drop = useCallback(() => void navigate({ search: {}, replace: true }), [navigate])
  const outcome = useAmoOauthOutcome(amo_oauth, drop)
  const recordId = parseRecordId(id)
  return recordId === null ? (
    <RecordNotFound to="/integrations/amo" />
  ) : (
    <IntegrationEditPage
      kind="amo"
      id={recordId}
      notice={outcome ? <AmoOauthNotice outcome={outcome} /> : null}
    />
  )
}
