import { Worker } from 'node:worker_threads'
import type { Database, Queryable } from './database.ts'
import { actorStatements, needsActor } from './actor.ts'

/**
 * PGlite on a thread of its own. PGlite is PostgreSQL compiled to WebAssembly: it runs every
 * statement on the thread that calls it. On the server's thread, a statement held up everything
 * else the server does (reading requests, kept lists, gzip, answers) for as long as it ran: in the
 * team's mix, statements were a third of that thread's time (server/README.md,
 * "Throughput, and which engine"). Here they run on a worker thread (server/db/pglite-worker.ts),
 * and the server's thread goes on with other requests meanwhile; each statement costs it one
 * message each way.
 *
 * The worker is the same PGlite with the same prepared statements (pglite-statements.ts), so
 * statements give the same rows, transactions and errors as before. Notifications keep their
 * promise (Database.subscribe): the worker hands one on before the answer of the statement that
 * committed it, and messages arrive in the order they were sent.
 */

/**
 * What the worker is started with: a directory for PGlite's files, or a dump to load in memory, or
 * neither for a fresh database in memory (initdb: seconds).
 */
export interface PgliteStart {
  dataDir?: string
  template?: Uint8Array<ArrayBuffer>
  /** SQL run once the database is ready, before any request (database.ts, PGLITE_SETTINGS). */
  settings: string
  /** How often the worker checkpoints when the log has grown (pglite-worker.ts); 0: never. */
  checkpointEveryMs: number
}

/** What the server's thread asks of the worker; `tx` names an open transaction. */
export type PgliteOp =
  | { op: 'query'; text: string; params: readonly unknown[]; tx?: number }
  | { op: 'exec'; sql: string; tx?: number }
  | { op: 'begin'; tx: number; sql: string }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'listen'; channel: string }
  | { op: 'dump' }
  | { op: 'close' }

/** A request: its id comes back with the answer. */
export type PgliteRequest = PgliteOp & { id: number }

export type PgliteReply =
  | { id: number; value: unknown; error?: undefined }
  | { id: number; error: Record<string, unknown> }
  | { notification: string; payload: string }
  | { ready: true }

/** An error as the worker sent it, with PostgreSQL's fields (code, detail, constraint…). */
function revive(fields: Record<string, unknown>): Error {
  const error = new Error(String(fields.message ?? 'PGlite failed'))
  Object.assign(error, fields)
  return error
}

/**
 * Starts the worker and resolves once its PGlite is ready. The adapter has the Database shape the
 * storage layer is written against (database.ts).
 */
export async function openPgliteThread(
  start: PgliteStart,
  /** Called once if the thread stops other than by `close` (every call is refused from then). */
  onFailure?: (error: Error) => void,
): Promise<Database & { dump(): Promise<Uint8Array<ArrayBuffer>> }> {
  // The worker is TypeScript: loaded through tsx, which the server runs on, in a namespace of its
  // own, so it works the same under tsx and under the test runner.
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
    workerData: start,
  })
  const pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (e: Error) => void }
  >()
  const listeners = new Map<string, ((payload: string) => void)[]>()
  /** The worker's LISTEN for each channel, once asked. */
  const listening = new Map<string, Promise<unknown>>()
  let nextId = 0
  let nextTx = 0
  let broken: Error | undefined
  let closing = false

  const fail = (error: Error) => {
    broken ??= error
    for (const call of pending.values()) call.reject(error)
    pending.clear()
  }

  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: PgliteReply) => {
      if ('notification' in message) {
        for (const listener of listeners.get(message.notification) ?? []) listener(message.payload)
      } else if ('id' in message) {
        const call = pending.get(message.id)
        pending.delete(message.id)
        if (message.error) call?.reject(revive(message.error))
        else call?.resolve(message.value)
      } else {
        resolve()
      }
    })
    worker.on('error', (error) => {
      fail(error)
      reject(error)
    })
    worker.on('exit', (code) => {
      const error = new Error(`The database thread stopped (exit ${code})`, { cause: broken })
      fail(error)
      reject(error)
      if (closing) return
      if (onFailure) onFailure(error)
      else console.error(error)
    })
  })

  const call = <T>(request: PgliteOp): Promise<T> => {
    if (broken) return Promise.reject(broken)
    const id = ++nextId
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      worker.postMessage({ ...request, id } satisfies PgliteRequest)
    })
  }

  const queryable = (tx?: number): Queryable => ({
    async query<T>(text: string, params?: readonly unknown[]) {
      return { rows: await call<T[]>({ op: 'query', text, params: params ?? [], tx }) }
    },
    async exec(sql: string) {
      await call({ op: 'exec', sql, tx })
    },
  })

  await ready
  const base = queryable()
  const db: Database & { dump(): Promise<Uint8Array<ArrayBuffer>> } = {
    engine: 'pglite',
    query(text, params) {
      // A stamped write of a signed-in request runs in a transaction of its own (server/db/actor.ts).
      if (needsActor(text)) return db.transaction((tx) => tx.query(text, params))
      return base.query(text, params)
    },
    exec: base.exec,
    async transaction(fn) {
      const tx = ++nextTx
      await call({ op: 'begin', tx, sql: actorStatements() })
      let result
      try {
        result = await fn(queryable(tx))
      } catch (error) {
        await call({ op: 'end', tx, commit: false }).catch(() => undefined)
        throw error
      }
      await call({ op: 'end', tx, commit: true })
      return result
    },
    listen: null,
    async subscribe(channel, onMessage) {
      // PGlite's channels are of the one schema it has (see database.ts, subscribe).
      const name = `${channel}__public`
      listeners.set(name, [...(listeners.get(name) ?? []), onMessage])
      if (!listening.has(name)) listening.set(name, call({ op: 'listen', channel: name }))
      await listening.get(name)
      return { fence: () => Promise.resolve() }
    },
    notify: () => Promise.resolve(),
    /** The database's files, as a tarball to start another from (PGlite's dumpDataDir). */
    dump: () => call<Uint8Array<ArrayBuffer>>({ op: 'dump' }),
    async close() {
      if (closing) return
      closing = true
      await call({ op: 'close' }).catch(() => undefined)
      await worker.terminate()
    },
  }
  return db
}
