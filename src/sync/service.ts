import { liveQuery, type Subscription } from 'dexie'
import type { WriteCommands, WriteName } from './mutators/index.ts'
import { loadMutators } from './mutators/load.ts'
import { isQuotaError } from '../data/errors.ts'
import { QUERIES, type QueryName } from '../data/queries.ts'
import { claimMirror, storeAuthToken, unsyncedCount, type StoredAuth } from '../data/sync-state.ts'

/**
 * The mirror as a service: named live queries and commands over the database. It runs where the
 * database lives, the sync worker (exposed with comlink), so the page never loads Dexie; without
 * module workers (and in jsdom tests) the page runs it itself (src/mirror/port.ts).
 */

const SESSION = {
  /** The page mirrors its session token here; the worker and the service worker read it. */
  storeAuthToken: (auth: StoredAuth) => storeAuthToken(auth),
  /** Changes not on the server yet (pending and parked), for the sign-out confirmation. */
  unsyncedCount: () => unsyncedCount(),
  claimMirror: (userId: number) => claimMirror(userId),
}

export type SessionName = keyof typeof SESSION
/** The commands the page may send (src/mirror/commands.ts lists them). */
export type Commands = WriteCommands & typeof SESSION
export type CommandName = keyof Commands

/** What a watched query sends: its answer, or why it failed. */
export type WatchMessage = { value: unknown } | { error: { name: string; message: string } }

export interface MirrorService {
  /** Where answers go: one listener per page (a comlink proxy when the service is in the worker). */
  listen(listener: (id: number, message: WatchMessage) => void): void
  /** Starts answering `query(...args)` under `id`, now and after every change to what it read. */
  watch(id: number, query: QueryName, args: readonly unknown[]): void
  unwatch(id: number): void
  run(command: CommandName, args: readonly unknown[]): Promise<unknown>
}

export function createMirrorService(): MirrorService {
  let listener: ((id: number, message: WatchMessage) => void) | null = null
  const subscriptions = new Map<number, Subscription>()

  return {
    listen(next) {
      listener = next
    },
    watch(id, query, args) {
      subscriptions.get(id)?.unsubscribe()
      const read = QUERIES[query] as (...a: readonly unknown[]) => Promise<unknown>
      const subscription = liveQuery(() => read(...args)).subscribe({
        next: (value) => listener?.(id, { value }),
        error: (error: unknown) => listener?.(id, { error: plainError(error) }),
      })
      subscriptions.set(id, subscription)
    },
    unwatch(id) {
      subscriptions.get(id)?.unsubscribe()
      subscriptions.delete(id)
    },
    async run(command, args) {
      try {
        // A session command runs at once; a write runs its mutator, loaded on the first one.
        if (!Object.hasOwn(SESSION, command))
          return await (await loadMutators()).run(command as WriteName, args)
        const fn = SESSION[command as SessionName] as (...a: readonly unknown[]) => Promise<unknown>
        return await fn(...args)
      } catch (error) {
        // Only an Error's name and message survive postMessage; keep the one the screen needs.
        throw Object.assign(new Error(plainError(error).message), plainError(error))
      }
    },
  }
}

function plainError(error: unknown): { name: string; message: string } {
  if (isQuotaError(error)) return { name: 'QuotaExceededError', message: String(error) }
  if (error instanceof Error) return { name: error.name, message: error.message }
  return { name: 'Error', message: String(error) }
}
