import { send } from './send.ts'
import type { Mutators } from './load.ts'

/**
 * The service worker's replay takes the mutators' `send` as it starts: a service worker cannot
 * fetch code later (`import()` is not allowed there), so its build puts this module in place of
 * load.ts (vite.config.ts, `eagerMutatorsInServiceWorker`). It sends entries only: it makes no
 * local writes.
 */
export function loadMutators(): Promise<Pick<Mutators, 'send'>> {
  return Promise.resolve({ send })
}
