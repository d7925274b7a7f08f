import './integration-messages.ts'
import { t } from '@lingui/core/macro'
import type { IntegrationKind } from '../../domain/integration.ts'
import { removeRecord } from '../records/remove-record.ts'
import { KIND_NAME } from './kind-names.ts'

/** Deletes after a confirmation naming the integration; true when deleted. */
export function removeIntegration(
  kind: IntegrationKind,
  { id, name }: { id: number; name: string },
): Promise<boolean> {
  const system = KIND_NAME[kind]
  return removeRecord(kind, id, {
    title: t`Удалить интеграцию?`,
    message: t`Интеграция ${system} «${name}» будет удалена, заявки перестанут в неё попадать.`,
    done: t`Интеграция «${name}» удалена`,
  })
}
