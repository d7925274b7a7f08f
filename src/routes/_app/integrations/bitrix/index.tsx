import { createFileRoute } from '@tanstack/react-router'
import { IntegrationsListPage } from '../../../../features/integrations/index.ts'

export const Route = createFileRoute('/_app/integrations/bitrix/')({
  // Drawn without Mantine: a list page is a first screen (docs/performance.md).
  staticData: { mantineFree: true },
  component: Page,
})

function Page() {
  return <IntegrationsListPage kind="bitrix" />
}
