import { parse, protocol, type PGlite } from '@electric-sql/pglite'

/**
 * PGlite's `query` makes six calls into its WebAssembly module for each statement (parse,
 * describe, bind, describe, execute, sync) and plans the statement afresh every time. Here each
 * statement text is prepared once, as a named statement whose parameter types the database
 * describes, and every call after that is one message: bind, describe, execute, sync. Measured on
 * the server's get and update of a department: a third of the CPU of `query` (server/README.md,
 * "Throughput, and which engine"). Parameters go through PGlite's own serializers for the types the
 * database described, and rows through its own parsers, so values come back exactly as `query`
 * gives them.
 *
 * A prepared statement stays right when its tables change (a migration): PostgreSQL analyses and
 * plans it again, and its rows come with their description each time.
 */

const { serialize } = protocol

interface Prepared {
  name: string
  types: number[]
}

/** At most this many statements are kept prepared; others are parsed each time, as `query` does. */
const MAX_STATEMENTS = 1000

export class PreparedStatements {
  readonly #statements = new Map<string, Prepared>()
  #next = 0

  constructor(private readonly db: PGlite) {}

  /** A statement outside any transaction: waits for a running transaction, as `query` does. */
  async query<T>(text: string, params: readonly unknown[]): Promise<T[]> {
    await this.db._checkReady()
    return this.db._runExclusiveTransaction(() =>
      this.db._runExclusiveQuery(() => this.#run<T>(text, params, false)),
    )
  }

  /** A statement inside the transaction that holds PGlite's transaction lock. */
  inTransaction<T>(text: string, params: readonly unknown[]): Promise<T[]> {
    return this.db._runExclusiveQuery(() => this.#run<T>(text, params, true))
  }

  async #run<T>(text: string, params: readonly unknown[], inTransaction: boolean): Promise<T[]> {
    let prepared = this.#statements.get(text)
    if (!prepared) {
      // Past the limit, the unnamed statement: described and used once, as `query` does.
      const keep = this.#statements.size < MAX_STATEMENTS
      prepared = await this.#describe(keep ? `s${++this.#next}` : '', text)
      if (keep) this.#statements.set(text, prepared)
    }
    return this.#execute<T>(prepared, params, inTransaction)
  }

  /** Parses `text` as the statement `name` ('' for the unnamed one) and reads its parameter types. */
  async #describe(name: string, text: string): Promise<Prepared> {
    const { messages } = await this.db.execProtocol(
      Buffer.concat([
        serialize.parse({ name, text }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    )
    const described = messages.find((m) => m.name === 'parameterDescription') as
      { dataTypeIDs: number[] } | undefined
    return { name, types: described?.dataTypeIDs ?? [] }
  }

  async #execute<T>(
    prepared: Prepared,
    params: readonly unknown[],
    inTransaction: boolean,
  ): Promise<T[]> {
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null
      const serializer = this.db.serializers[prepared.types[i]!]
      return serializer ? serializer(value) : (value as { toString(): string }).toString()
    })
    const { messages } = await this.db.execProtocol(
      Buffer.concat([
        serialize.bind({ statement: prepared.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: !inTransaction },
    )
    return (parse.parseResults(messages, this.db.parsers)[0]?.rows ?? []) as T[]
  }
}
