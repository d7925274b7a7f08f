import { configureApi } from '../api/client.ts'
import { getValidToken } from '../features/auth/session.ts'
import { installTokenRevocation } from '../features/auth/revoke.ts'
import { installSignOutConfirm } from '../features/auth/sign-out.ts'

/**
 * Wires the session into the API client (bearer token), the sign-out dialog, and the revocation of
 * signed-out tokens (sent now if one still waits from an earlier sign-out).
 */
export function setupSession(): void {
  configureApi({ getToken: () => getValidToken() })
  installSignOutConfirm()
  installTokenRevocation()
}
