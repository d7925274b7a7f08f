import { createFileRoute } from '@tanstack/react-router'
import { IntegrationsListPage } from '../../../../features/integrations/integrations-list-page.tsx'

export const Route = createFileRoute('/_app/integrations/bitrix/')({ component: Page })

function Page() {
  return <IntegrationsListPage kind="bitrix" />
}
