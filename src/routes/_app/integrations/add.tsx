import { createFileRoute } from '@tanstack/react-router'
import { IntegrationAddPage } from '../../../features/integrations/index.ts'
import type { IntegrationKind } from '../../../domain/integration.ts'

interface AddSearch {
  kind?: IntegrationKind
}

export const Route = createFileRoute('/_app/integrations/add')({
  // Anything but a known kind shows the choice again.
  validateSearch: (search: Record<string, unknown>): AddSearch =>
    search.kind === 'amo' || search.kind === 'bitrix' ? { kind: search.kind } : {},
  component: Page,
})

function Page() {
  const { kind } = Route.useSearch()
  return <IntegrationAddPage kind={kind} />
}
