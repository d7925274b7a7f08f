import { NetworkError } from '../../api/client.ts'

/** The mutators: every local write and every entry's request (src/sync/mutators/index.ts). */
export type Mutators = typeof import('./index.ts')

let loading: Promise<Mutators> | null = null

/**
 * The mutators' code, fetched on the first write or the first entry to send: opening a list reads
 * the mirror and pulls, so the first screen does without it (docs/performance.md, "The rules that keep them").
 * A fetch that fails (offline before the service worker has kept the app's files) is a network
 * error, retried like one; the next call fetches again.
 */
export function loadMutators(): Promise<Mutators> {
  loading ??= import('./index.ts').catch((error: unknown) => {
    loading = null
    throw new NetworkError(error instanceof Error ? error.message : String(error), { cause: error })
  })
  return loading
}
