import { parentPort, workerData } from 'node:worker_threads'
import { PGlite, type Transaction } from '@electric-sql/pglite'
import { PreparedStatements } from './pglite-statements.ts'
import type { PgliteRequest, PgliteReply, PgliteStart } from './pglite-thread.ts'

/**
 * The server's PGlite, on a thread of its own (server/db/pglite-thread.ts has the other side and
 * says why). It answers the requests of the server's thread in the order PGlite runs them, and
 * hands on every notification before the answer to the statement that caused it.
 */

const port = parentPort!
const start = workerData as PgliteStart

const lite =
  start.dataDir !== undefined
    ? new PGlite(start.dataDir)
    : start.template
      ? new PGlite({ loadDataDir: new Blob([start.template]) })
      : new PGlite()
// The Blob has its own copy: the dump (tens of MB) need not live as long as the thread's data.
delete start.template
const statements = new PreparedStatements(lite)

/**
 * Open transactions by their id: each with the call that ends it (commit or roll back) and PGlite's
 * promise of how it ended.
 */
const transactions = new Map<
  number,
  { tx: Transaction; end: (commit: boolean) => void; done: Promise<void> }
>()

/** What a transaction ended by the server's thread rolls back with. */
const ROLLED_BACK = new Error('rolled back')

/**
 * PGlite has no checkpointer: left to itself it checkpoints only when its write-ahead log reaches
 * `max_wal_size` (1 GB), and until then keeps every segment of the log, in memory when the
 * database is (100,000 updates of a row wrote 17.7 MB of it: server/README.md,
 * "Throughput, and which engine"). Every `checkpointEveryMs`, when the log has grown since the last
 * checkpoint, the worker runs one: a few milliseconds in memory, queued behind the statements under
 * way like any other, and PostgreSQL then recycles the segments it no longer needs.
 */
const LOG_SINCE_CHECKPOINT =
  'SELECT (pg_current_wal_insert_lsn() - (pg_control_checkpoint()).redo_lsn)::float8 AS bytes'
/** Bytes of log a checkpoint leaves behind it (its own record), and then some. */
const CHECKPOINT_AFTER_BYTES = 64 * 1024
let checkpointing = false
const checkpoints =
  start.checkpointEveryMs > 0
    ? setInterval(() => {
        if (checkpointing) return
        checkpointing = true
        statements
          .query<{ bytes: number }>(LOG_SINCE_CHECKPOINT, [])
          .then(async ([since]) => {
            if (since && since.bytes > CHECKPOINT_AFTER_BYTES) {
              await statements.query('CHECKPOINT', [])
            }
          })
          .catch(() => undefined) // Closed meanwhile, or a failure the next round retries.
          .finally(() => (checkpointing = false))
      }, start.checkpointEveryMs)
    : undefined
checkpoints?.unref()

function reply(message: PgliteReply): void {
  port.postMessage(message)
}

/** An error as plain fields: PostgreSQL's (code, detail, constraint…) survive the crossing. */
function plain(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) }
  const fields: Record<string, unknown> = { message: error.message, name: error.name }
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || ['string', 'number', 'boolean'].includes(typeof value)) {
      fields[key] = value
    }
  }
  return fields
}

function inTransaction(id: number): Transaction {
  const open = transactions.get(id)
  // As PGlite's own transaction does: nothing runs through a transaction that has ended.
  if (!open || open.tx.closed) throw new Error('Transaction is closed')
  return open.tx
}

async function handle(request: PgliteRequest): Promise<unknown> {
  switch (request.op) {
    case 'query':
      if (request.tx === undefined) return statements.query(request.text, request.params)
      inTransaction(request.tx)
      return statements.inTransaction(request.text, request.params)
    case 'exec':
      if (request.tx === undefined) await lite.exec(request.sql)
      else await inTransaction(request.tx).exec(request.sql)
      return undefined
    case 'begin': {
      let began!: (tx: Transaction) => void
      let end!: (commit: boolean) => void
      const begun = new Promise<Transaction>((resolve) => (began = resolve))
      const done = lite.transaction(
        (tx) =>
          new Promise<void>((commit, rollBack) => {
            end = (ok) => (ok ? commit() : rollBack(ROLLED_BACK))
            began(tx)
          }),
      )
      // PGlite may fail to begin one: then `done` settles first, and the caller hears why.
      const tx = await Promise.race([
        begun,
        done.then(() => Promise.reject(new Error('The transaction ended before it began'))),
      ])
      transactions.set(request.tx, { tx, end, done })
      // Who the transaction writes for (server/db/actor.ts), in the same message as its BEGIN.
      if (request.sql) {
        try {
          await tx.exec(request.sql)
        } catch (error) {
          transactions.delete(request.tx)
          end(false)
          await done.catch(() => undefined)
          throw error
        }
      }
      return undefined
    }
    case 'end': {
      const open = transactions.get(request.tx)
      if (!open) throw new Error('Transaction is closed')
      open.end(request.commit)
      try {
        await open.done
      } catch (error) {
        if (error !== ROLLED_BACK) throw error
      } finally {
        transactions.delete(request.tx)
      }
      return undefined
    }
    case 'listen':
      await lite.listen(request.channel, (payload) =>
        reply({ notification: request.channel, payload }),
      )
      return undefined
    case 'dump':
      return new Uint8Array(await (await lite.dumpDataDir('none')).arrayBuffer())
    case 'close':
      clearInterval(checkpoints)
      await lite.close()
      return undefined
  }
}

port.on('message', (request: PgliteRequest) => {
  handle(request).then(
    (value) => reply({ id: request.id, value }),
    (error: unknown) => reply({ id: request.id, error: plain(error) }),
  )
})

await lite.waitReady
await lite.exec(start.settings)
reply({ ready: true })
