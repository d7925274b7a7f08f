import { createFileRoute } from '@tanstack/react-router'
import { IntegrationsOverviewPage } from '../../../features/integrations/index.ts'

export const Route = createFileRoute('/_app/integrations/')({
  // Drawn without Mantine: a list page is a first screen (docs/performance.md).
  staticData: { mantineFree: true },
  component: IntegrationsOverviewPage,
})
