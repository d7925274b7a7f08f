import './integration-messages.ts'
import { useLingui } from '@lingui/react/macro'
import { commands } from '../../mirror/commands.ts'
import type { IntegrationKind } from '../../domain/integration.ts'
import { Switch } from '../../ui/switch.tsx'
import { runCommand } from '../records/index.ts'
import { nestQuotes } from '../../domain/quotes.ts'

/**
 * Quick enable/disable of one integration (a separate call on the server,
 * docs/API.md "Integrations and directory").
 */
export function IntegrationToggle({
  kind,
  id,
  name,
  enabled,
}: {
  kind: IntegrationKind
  id: number
  name: string
  enabled: boolean
}) {
  const { t } = useLingui()
  // The message's placeholder keeps the catalog's name, {name}: the name with nested quotes.
  const done = (next: boolean, name: string) =>
    next ? t`Интеграция «${name}» включена` : t`Интеграция «${name}» выключена`
  const toggle = (next: boolean) =>
    void runCommand(() => commands.setRecordEnabled(kind, id, next), done(next, nestQuotes(name)))
  return (
    <Switch
      checked={enabled}
      onChange={(event) => toggle(event.currentTarget.checked)}
      // One name whatever the state: on or off is the switch's aria-checked.
      aria-label={t`Интеграция ${name} включена`}
    />
  )
}
