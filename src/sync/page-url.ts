import { apiConfig } from '../api/client.ts'
import { pagePath } from '../domain/publish.ts'

/**
 * The address of the published page with `slug` (docs/SYNC.md "Publishing"): on the origin of an
 * address the server gave (`known`), else on the API's (the app's own when it is served with the
 * API). Shared by the mirror's optimistic state and the screens; no database here.
 */
export function pageUrl(slug: string, known?: string | null): string {
  let origin = ''
  try {
    if (known) origin = new URL(known).origin
  } catch {
    // Not an address: the API's origin below.
  }
  const base =
    origin ||
    apiConfig().baseUrl ||
    (typeof location === 'undefined' ? 'http://localhost' : location.origin)
  return new URL(pagePath(slug), base).href
}
