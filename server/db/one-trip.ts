import pg from 'pg'

/** How `pg` turns a parameter into the text it sends (dates, arrays, JSON): the same text here. */
const { prepareValue } = (pg as unknown as { utils: { prepareValue(value: unknown): unknown } })
  .utils

/**
 * A write of a stamped table, made on its own while a signed-in request is answered, runs with the
 * request's person set for its transaction (server/db/actor.ts). On PostgreSQL that was three round
 * trips: `BEGIN` and the person, the statement, `COMMIT`. The statement's trigger takes the row of
 * its list's version (`record_versions`) and holds it until the commit, so every other write to
 * that list waited for the `COMMIT` to come back from the server's event loop: under load, writes
 * to one workspace queued behind each other's round trips (server/README.md, "Throughput, and which
 * engine": One round trip per write).
 *
 * Sent instead as one simple query (`SELECT set_config(…); <statement>`), which PostgreSQL runs as
 * one transaction and commits as soon as the statement is done. The simple protocol takes no
 * parameters, so each one is written into the statement as a literal cast to the type PostgreSQL
 * gives the parameter (asked once per statement text with `PREPARE`), which keeps the statement's
 * meaning as it was with parameters.
 */

/** Parameters that cannot be written as a literal here (bytes): such a write keeps its 3 trips. */
export function inlinable(params: readonly unknown[]): boolean {
  return params.every((value) => !(value instanceof Uint8Array))
}

/**
 * `text` with each `$n` outside quotes, comments and dollar-quoted strings replaced by
 * `literals[n - 1]`. Throws when a placeholder has no literal.
 */
export function inlineParams(text: string, literals: readonly string[]): string {
  let out = ''
  let i = 0
  const n = text.length
  while (i < n) {
    const c = text[i]!
    const next = text[i + 1]
    // A quoted string or identifier, with its doubled quotes; E'' strings also take \'.
    if (c === "'" || c === '"') {
      const escapes = c === "'" && /[eE]$/.test(out) && !/\w[eE]$/.test(out)
      let j = i + 1
      while (j < n) {
        if (escapes && text[j] === '\\') j += 2
        else if (text[j] === c && text[j + 1] === c) j += 2
        else if (text[j] === c) break
        else j++
      }
      out += text.slice(i, j + 1)
      i = j + 1
      continue
    }
    if (c === '-' && next === '-') {
      const end = text.indexOf('\n', i)
      const stop = end === -1 ? n : end
      out += text.slice(i, stop)
      i = stop
      continue
    }
    if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2)
      const stop = end === -1 ? n : end + 2
      out += text.slice(i, stop)
      i = stop
      continue
    }
    if (c === '$') {
      const number = /^\$(\d+)/.exec(text.slice(i, i + 12))
      if (number && !/[\w$]$/.test(out)) {
        const index = Number(number[1]) - 1
        const literal = literals[index]
        if (literal === undefined) throw new Error(`no value for $${index + 1}`)
        out += literal
        i += number[0].length
        continue
      }
      const tag = /^\$([A-Za-z_]\w*)?\$/.exec(text.slice(i))
      if (tag && !/[\w$]$/.test(out)) {
        const end = text.indexOf(tag[0], i + tag[0].length)
        const stop = end === -1 ? n : end + tag[0].length
        out += text.slice(i, stop)
        i = stop
        continue
      }
    }
    out += c
    i++
  }
  return out
}

/** `value` as a literal of `type`, as PostgreSQL would have read it as that parameter. */
export function literal(value: unknown, type: string): string {
  const prepared = prepareValue(value) as unknown
  if (prepared === null || prepared === undefined) return `NULL::${type}`
  return `${pg.escapeLiteral(String(prepared))}::${type}`
}

let probes = 0

/** The type PostgreSQL gives each parameter of `text` (`integer`, `text`, `jsonb`…). */
async function parameterTypes(pool: pg.Pool, text: string): Promise<string[]> {
  const name = `promo_types_${process.pid}_${++probes}`
  const session = await pool.connect()
  try {
    await session.query(`PREPARE ${name} AS ${text}`)
    try {
      const { rows } = await session.query<{ types: string[] }>(
        'SELECT parameter_types::text[] AS types FROM pg_prepared_statements WHERE name = $1',
        [name],
      )
      return rows[0]?.types ?? []
    } finally {
      await session.query(`DEALLOCATE ${name}`)
    }
  } finally {
    session.release()
  }
}

/**
 * The parameters' types of each statement text, asked of `pool` once (the texts come from the
 * code: an update's columns vary, so the bound is never reached). Resolves to null when PostgreSQL
 * will not prepare the statement, which is then asked again next time.
 */
export function parameterTypesOf(pool: pg.Pool): (text: string) => Promise<string[] | null> {
  const known = new Map<string, Promise<string[] | null>>()
  return (text) => {
    let types = known.get(text)
    if (!types) {
      if (known.size >= 1000) known.clear()
      types = parameterTypes(pool, text).catch(() => {
        known.delete(text)
        return null
      })
      known.set(text, types)
    }
    return types
  }
}
