import './integration-messages.ts'
import { Trans } from '@lingui/react/macro'
import type { AmoIntegration, BitrixIntegration } from '../../domain/integration.ts'
import { Badge } from '../../ui/badge.tsx'

// Shared by the overview and the lists; its own module so the overview, which has no record
// list, does not load the list's code on a first visit.

export type Integration = AmoIntegration | BitrixIntegration

/** Where an integration points: the amoCRM account or the Bitrix24 portal. */
export function integrationTarget(item: Integration): string {
  return 'subdomain' in item
    ? `${item.subdomain}.amocrm.ru`
    : item.portal_url.replace(/^https:\/\//, '')
}

export function StatusBadge({ enabled }: { enabled: boolean }) {
  return enabled ? (
    <Badge color="teal">
      <Trans>Включена</Trans>
    </Badge>
  ) : (
    <Badge color="gray">
      <Trans>Выключена</Trans>
    </Badge>
  )
}
