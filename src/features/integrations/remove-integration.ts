import { t } from '@lingui/core/macro'
import { deleteRecord } from '../../data/commands.ts'
import type { IntegrationKind } from '../../domain/integration.ts'
import { confirmDelete } from '../../ui/confirm-delete.ts'
import { runCommand } from '../records/run-command.ts'
import { KIND_NAME } from './kinds.ts'

/** Deletes after a confirmation naming the integration; true when deleted. */
export async function removeIntegration(
  kind: IntegrationKind,
  item: { id: number; name: string },
): Promise<boolean> {
  const name = item.name
  const system = KIND_NAME[kind]
  const ok = await confirmDelete({
    title: t`Удалить интеграцию?`,
    message: t`Интеграция ${system} «${name}» будет удалена, заявки перестанут в неё попадать.`,
  })
  if (!ok) return false
  return (
    (await runCommand(
      () => deleteRecord(kind, item.id).then(() => true),
      t`Интеграция «${name}» удалена`,
    )) ?? false
  )
}
