/**
 * Where `GET /api/amo/oauth/callback` sends the person back: the outcome in `amo_oauth`
 * (docs/API.md). Apart from the requests' schemas: the app's route tree reads it on every load.
 */
export const AMO_OAUTH_OUTCOMES = [
  'connected',
  'bad_state',
  'denied',
  'other_account',
  'refused',
] as const
export type AmoOauthOutcome = (typeof AMO_OAUTH_OUTCOMES)[number]
