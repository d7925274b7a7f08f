import { useEffect } from 'react'
import { refresh, type RefreshScope } from '../../sync/client.ts'

/**
 * Asks the sync layer to refresh what a screen shows, on mount and when the scope changes (another
 * workspace). Null waits (no workspace yet). Offline the call quietly does nothing; the screen reads
 * the mirror either way.
 */
export function useRefreshScopes(scopes: readonly (RefreshScope | null)[]): void {
  const key = JSON.stringify(scopes)
  useEffect(() => {
    for (const scope of JSON.parse(key) as (RefreshScope | null)[])
      if (scope) void refresh(scope).catch(() => undefined)
  }, [key])
}
