import { commands } from '../../mirror/commands.ts'
import type { RecordKind } from '../../data/types.ts'
import { confirmDelete } from '../../ui/confirm-delete.ts'
import { runCommand } from './run-command.ts'

/** What the user reads when deleting one record: the question, what it means, and the outcome. */
export interface RemovalTexts {
  title: string
  message: string
  done: string
}

/**
 * Deletes a record after the user confirms (a local command: it works offline too); true when
 * deleted, false when the user kept it or the command failed (the failure is already reported).
 */
export async function removeRecord(
  kind: RecordKind,
  id: number,
  texts: RemovalTexts,
): Promise<boolean> {
  const ok = await confirmDelete({ title: texts.title, message: texts.message })
  if (!ok) return false
  return (
    (await runCommand(() => commands.deleteRecord(kind, id).then(() => true), texts.done)) ?? false
  )
}
