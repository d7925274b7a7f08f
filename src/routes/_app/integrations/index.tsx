import { createFileRoute } from '@tanstack/react-router'
import { IntegrationsOverviewPage } from '../../../features/integrations/integrations-overview-page.tsx'

export const Route = createFileRoute('/_app/integrations/')({ component: IntegrationsOverviewPage })
