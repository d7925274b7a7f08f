import { configureApi } from '../api/client.ts'
import { getValidToken } from '../features/auth/session.ts'
import { installSignOutConfirm } from '../features/auth/sign-out.ts'

/** Wires the session into the API client (bearer token) and the sign-out dialog. */
export function setupSession(): void {
  configureApi({ getToken: () => getValidToken() })
  installSignOutConfirm()
}
