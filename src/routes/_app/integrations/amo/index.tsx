import { createFileRoute } from '@tanstack/react-router'
import { useCallback } from 'react'
import {
  AmoOauthNotice,
  IntegrationsListPage,
  useAmoOauthOutcome,
  validateAmoOauthSearch,
} from '../../../../features/integrations/index.ts'

export const Route = createFileRoute('/_app/integrations/amo/')({
  // Drawn without Mantine: a list page is a first screen (docs/performance.md).
  staticData: { mantineFree: true },
  // A stale or used link of «Подключить amoCRM» comes back here (`amo_oauth=bad_state`).
  validateSearch: validateAmoOauthSearch,
  component: Page,
})

function Page() {
  const { amo_oauth } = Route.useSearch()
  const navigate = Route.useNavigate()
  const drop = useCallback(() => void navigate({ search: {}, replace: true }), [navigate])
  const outcome = useAmoOauthOutcome(amo_oauth, drop)
  return (
    <IntegrationsListPage
      kind="amo"
      notice={outcome ? <AmoOauthNotice outcome={outcome} /> : null}
    />
  )
}
