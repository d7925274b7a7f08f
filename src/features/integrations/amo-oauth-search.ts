import { AMO_OAUTH_OUTCOMES, type AmoOauthOutcome } from '../../domain/amo-oauth.ts'

/**
 * The amoCRM pages' search: `amo_oauth` when it is an outcome the server sends (docs/API.md). Apart
 * from the notice (amo-oauth.tsx): a route's `validateSearch` loads with the route tree, on every
 * screen's first load, while its component loads with the page.
 */
export function validateAmoOauthSearch(search: Record<string, unknown>): {
  amo_oauth?: AmoOauthOutcome
} {
  const value = search.amo_oauth
  const known: readonly string[] = AMO_OAUTH_OUTCOMES
  return typeof value === 'string' && known.includes(value)
    ? { amo_oauth: value as AmoOauthOutcome }
    : {}
}
