import { commandErrorMessage } from './command-error.ts'

// Notifications load on first use (the list screens are part of the first load; the toasts are not).
const notify = () => import('../../ui/notify.tsx')

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
    if (success) void notify().then((m) => m.notifySuccess(success))
    return result
  } catch (error) {
    const message = commandErrorMessage(error)
    void notify().then((m) => m.notifyError(message))
    return undefined
  }
}
