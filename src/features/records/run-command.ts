import { errorMessage } from '../../ui/field-error.ts'
import { notifyError, notifySuccess } from '../../ui/notify.tsx'

/**
 * Runs a local command (a write to the mirror and the outbox) and reports it bottom right. It
 * succeeds offline too: the change reaches the server when the outbox replays.
 */
export async function runCommand<R>(
  command: () => Promise<R>,
  success?: string,
): Promise<R | undefined> {
  try {
    const result = await command()
    if (success) notifySuccess(success)
    return result
  } catch (error) {
    notifyError(errorMessage(error))
    return undefined
  }
}
