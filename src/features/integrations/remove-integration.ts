import './integration-messages.ts'
import { t } from '@lingui/core/macro'
import type { IntegrationKind } from '../../domain/integration.ts'
import { removeRecord } from '../records/index.ts'
import { KIND_NAME } from './kind-names.ts'
import { nestQuotes } from '../../domain/quotes.ts'

/** Deletes after a confirmation naming the integration; true when deleted. */
export function removeIntegration(
  kind: IntegrationKind,
  record: { id: number; name: string },
): Promise<boolean> {
  const name = nestQuotes(record.name)
  const system = KIND_NAME[kind]
  return removeRecord(kind, record.id, {
    title: t`Удалить интеграцию?`,
    message: t`Интеграция ${system} «${name}» будет удалена, заявки перестанут в неё попадать.`,
    done: t`Интеграция «${name}» удалена`,
  })
}
