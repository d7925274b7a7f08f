import { createHash } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { actorStatements, needsActor } from './actor.ts'
import { MIGRATIONS, migrate } from './migrations.ts'
import { inlinable, inlineParams, literal, parameterTypesOf } from './one-trip.ts'
import { openPgliteThread, type PgliteStart } from './pglite-thread.ts'

/**
 * One SQL dialect, two engines: PGlite (embedded, files under DATA_DIR or in memory, on a thread
 * of its own: pglite-thread.ts) and PostgreSQL (`pg`). Both answer `query(text, params) ->
 * {rows}`; the adapters add transactions and nothing else, so the storage layer is written once.
 */
export interface Queryable {
  query<T = Record<string, unknown>>(
    text: string,
    params?: readonly unknown[],
  ): Promise<{ rows: T[] }>
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>
}

/** A subscription that is listening (Database.listen, Database.subscribe). */
export interface Listening {
  /**
   * Resolves once every notification of a transaction that committed before this call has been
   * handed to `onMessage`. PostgreSQL: a committing transaction signals the listening connections
   * before its commit is acknowledged, and a listening connection sends the notifications it has
   * before the answer to its next statement, so one round trip on the listening connection (shared
   * by the calls made while one is under way) is enough. Rejects when the connection failed.
   */
  fence(): Promise<void>
}

export interface Database extends Queryable {
  /** Runs `fn` in one transaction; rolls back when it throws. Use only `tx` inside. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>
  readonly engine: 'pglite' | 'postgres'
  /**
   * PostgreSQL only: calls `onMessage` with each notification on `channel` (of this schema) from
   * any process, and `onLost` when that can no longer be promised (the listening connection
   * failed). Resolves once listening. Null on PGlite, which only one process can open.
   */
  listen:
    | ((
        channel: string,
        onMessage: (payload: string) => void,
        onLost: () => void,
      ) => Promise<Listening>)
    | null
  /**
   * Both engines: calls `onMessage` with each notification on `channel` (of this schema), whether
   * sent by `notify` or by a trigger (`pg_notify(left(channel || '__' || current_schema(), 63),
   * …)`), and `onLost` when that can no longer be promised (PostgreSQL's listening connection
   * failed). Resolves once listening.
   */
  subscribe(
    channel: string,
    onMessage: (payload: string) => void,
    onLost: () => void,
  ): Promise<Listening>
  /** Sends `payload` to every listener of `channel` (of this schema) once the statement commits. */
  notify(channel: string, payload: string): Promise<void>
  close(): Promise<void>
}

export interface DatabaseOptions {
  /** A directory for PGlite files, or 'memory'. Ignored when `databaseUrl` is set. */
  dataDir?: string
  /** PostgreSQL connection string; when set, PostgreSQL is used. */
  databaseUrl?: string
  /** PostgreSQL schema to use (created if missing); tests give each file its own. */
  schema?: string
  /** Pool size for PostgreSQL. */
  maxConnections?: number
  /** PGlite: how often it checkpoints when its log has grown (default 30 s; pglite-worker.ts). */
  checkpointEveryMs?: number
  /**
   * PGlite: called if its thread stops while open (a WebAssembly trap, memory exhausted). Every
   * statement is refused from then on; `npm start` exits so that a supervisor starts it again.
   */
  onFailure?: (error: Error) => void
}

function postgresAdapter(pool: pg.Pool, connectionString: string, schema: string): Database {
  const listeners: pg.Client[] = []
  /** The parameters' types of each statement sent in one round trip (one-trip.ts). */
  const typesOf = parameterTypesOf(pool)
  // Channels are per database: the schema's name keeps instances of other schemas out.
  const channelName = (channel: string) => `${channel}__${schema}`.slice(0, 63)
  const adapter: Database = {
    engine: 'postgres',
    subscribe: (channel, onMessage, onLost) => adapter.listen!(channel, onMessage, onLost),
    async listen(channel, onMessage, onLost) {
      // Named, so an operator (and a test) can tell the listening connections of a schema apart.
      const client = new pg.Client({ connectionString, application_name: `listen ${schema}` })
      let lost = false
      const lose = () => {
        if (lost) return
        lost = true
        onLost()
      }
      client.on('error', lose)
      client.on('end', lose)
      client.on('notification', (message) => {
        if (message.channel === channelName(channel)) onMessage(message.payload ?? '')
      })
      await client.connect()
      await client.query(`LISTEN ${channelName(channel)}`)
      listeners.push(client)
      // The round trip under way, and the one that follows it for calls made meanwhile (the one
      // under way was sent before them, so it proves nothing about what committed since).
      let current: Promise<void> | undefined
      let next: Promise<void> | undefined
      const send = (): Promise<void> => {
        const sent = client.query('SELECT 1').then(
          () => {
            if (current === sent) current = undefined
          },
          (error: unknown) => {
            if (current === sent) current = undefined
            throw error
          },
        )
        current = sent
        return sent
      }
      return {
        fence() {
          if (lost) return Promise.reject(new Error('not listening'))
          if (!current) return send()
          next ??= current
            .catch(() => undefined)
            .then(() => {
              next = undefined
              if (lost) throw new Error('not listening')
              return send()
            })
          return next
        },
      }
    },
    async notify(channel, payload) {
      await pool.query('SELECT pg_notify($1, $2)', [channelName(channel), payload])
    },
    async query<T>(text: string, params?: readonly unknown[]): Promise<{ rows: T[] }> {
      if (needsActor(text)) {
        // One round trip: the person and the statement, committed by PostgreSQL (one-trip.ts).
        if (params && !inlinable(params)) {
          return adapter.transaction((tx) => tx.query<T>(text, params))
        }
        // Types PostgreSQL would not say (a statement it cannot prepare): the three trips, which
        // give the write its own answer or error.
        const kinds = await typesOf(text)
        if (!kinds || kinds.length !== (params?.length ?? 0)) {
          return adapter.transaction((tx) => tx.query<T>(text, params))
        }
        const literals = (params ?? []).map((value, i) => literal(value, kinds[i]!))
        const results = (await pool.query(
          `${actorStatements()}; ${inlineParams(text, literals)}`,
        )) as unknown as pg.QueryResult[]
        return { rows: results[results.length - 1]!.rows as T[] }
      }
      const result = await pool.query(text, params ? [...params] : undefined)
      return { rows: result.rows as T[] }
    },
    async transaction(fn) {
      const client = await pool.connect()
      try {
        const actor = actorStatements()
        await client.query(actor ? `BEGIN; ${actor}` : 'BEGIN')
        const result = await fn({
          async query<T>(text: string, params?: readonly unknown[]) {
            const r = await client.query(text, params ? [...params] : undefined)
            return { rows: r.rows as T[] }
          },
          async exec(sql: string) {
            await client.query(sql)
          },
        })
        await client.query('COMMIT')
        return result
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined)
        throw error
      } finally {
        client.release()
      }
    },
    exec: async (sql) => {
      await pool.query(sql)
    },
    async close() {
      for (const client of listeners.splice(0)) {
        client.removeAllListeners('end')
        await client.end().catch(() => undefined)
      }
      await pool.end()
    },
  }
  return adapter
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/

/** Opens the configured engine and brings its schema up to date. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const schema = options.schema
    if (schema !== undefined && !SCHEMA_NAME.test(schema)) throw new Error('bad schema name')
    if (schema) {
      const admin = new pg.Client({ connectionString: options.databaseUrl })
      await admin.connect()
      try {
        await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
      } finally {
        await admin.end()
      }
    }
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.maxConnections ?? 10,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    })
    // An idle client losing its connection must not crash the process.
    pool.on('error', () => undefined)
    const db = postgresAdapter(pool, options.databaseUrl, schema ?? 'public')
    await migrate(db)
    return db
  }
  const dataDir = options.dataDir ?? './data'
  const checkpointEveryMs = options.checkpointEveryMs ?? 30_000
  let start: PgliteStart
  if (dataDir === 'memory') {
    start = { template: await memoryTemplate(), settings: PGLITE_SETTINGS, checkpointEveryMs }
  } else {
    const dir = join(dataDir, 'pglite')
    await mkdir(dir, { recursive: true })
    start = { dataDir: dir, settings: PGLITE_SETTINGS, checkpointEveryMs }
  }
  // On a thread of its own, so statements do not hold up the server's thread (pglite-thread.ts).
  const db = await openPgliteThread(start, options.onFailure)
  try {
    await migrate(db)
  } catch (error) {
    await db.close()
    throw error
  }
  return db
}

/**
 * PGlite's settings for the server's one session. `wal_init_zero = off`: PostgreSQL fills each
 * new 16 MB segment of its write-ahead log with zeroes before writing to it, to reserve the space
 * on disk. In PGlite that is done by the write that fills a segment (one in some 9,000 updates of
 * a department) and held up PGlite for 160–220 ms (then on the server's only thread, every
 * request waiting behind it): at half the server's capacity, in an open loop, p99 of 276 ms
 * against a p50 of 1.7 ms (server/README.md, "Throughput, and which engine"). PostgreSQL offers the
 * setting for file systems where reserving brings nothing; without it a disk that fills up fails
 * the write that needs the space, rather than the one that would have reserved it.
 */
export const PGLITE_SETTINGS = 'SET wal_init_zero = off'

/**
 * A fresh PGlite runs initdb, which takes seconds; loading a dump of an already migrated database
 * takes a fraction of that. The dump (some 40 MB) is kept on disk, keyed by the migrations, and
 * read from there for each database opened in memory, so a server does not hold it for its whole
 * life; in memory only while it is being built, or when it cannot be written to disk.
 */
let building: Promise<{ bytes: Uint8Array<ArrayBuffer>; written: boolean }> | undefined

async function memoryTemplate(): Promise<Uint8Array<ArrayBuffer>> {
  const hash = createHash('sha256').update(MIGRATIONS.join('\n')).digest('hex').slice(0, 16)
  const file = join(tmpdir(), `promo-server-pglite-${hash}.tar`)
  try {
    const bytes = await readFile(file)
    // A view of what was read, not a copy: copying doubled the read (0.45 s against 0.23 s).
    return new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength)
  } catch {
    // Not on disk yet: built below, once for the calls that come meanwhile.
  }
  const build = (building ??= buildTemplate(file))
  try {
    const { bytes, written } = await build
    if (written && building === build) building = undefined
    return bytes
  } catch (error) {
    if (building === build) building = undefined
    throw error
  }
}

async function buildTemplate(
  file: string,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; written: boolean }> {
  const fresh = await openPgliteThread({ settings: PGLITE_SETTINGS, checkpointEveryMs: 0 })
  let bytes: Uint8Array<ArrayBuffer>
  try {
    await migrate(fresh)
    bytes = await fresh.dump()
  } finally {
    await fresh.close()
  }
  const partial = `${file}.${process.pid}.${Date.now()}.tmp`
  const written = await writeFile(partial, bytes)
    .then(() => rename(partial, file))
    .then(
      () => true,
      () => false,
    )
  return { bytes, written }
}
