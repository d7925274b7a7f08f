/**
 * Where signed-out tokens whose revocation has not been answered yet wait, space-separated in
 * localStorage: session.ts queues them at sign-out, revoke.ts sends them.
 */
export const REVOKE_KEY = 'tokensToRevoke'
