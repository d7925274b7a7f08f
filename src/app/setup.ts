import { configureApi } from '../api/client.ts'
import { getValidToken, loadSignOutQuestion, setSignOutConfirm } from '../features/auth/index.ts'
import { noteAnswer } from '../sync/reachability.ts'

/**
 * Wires the session into the API client (bearer token, answers for the sync status) and the
 * sign-out dialog.
 */
export function setupSession(): void {
  // Whether the API answers the page's requests feeds the sync status («Нет сети»).
  configureApi({ getToken: () => getValidToken(), onAnswer: noteAnswer })
  setSignOutConfirm((pending) => loadSignOutQuestion().then((m) => m.confirmSignOut(pending)))
}
