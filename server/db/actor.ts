import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * Who a request's writes are made for (docs/API.md, "Conditional writes"): every write
 * transaction begun while a signed-in request is answered tells the database its person
 * (`promo.actor`), which stamps the fields it writes (`written_by`, server/db/migrations.ts), and, when
 * the request is the person's choice after a conflict, the fields they kept over a colleague's
 * (`promo.keeps`), of which the colleague is told.
 */
export interface Actor {
  userId: number
  /** The fields the person kept over someone else's values (`Keep-Mine`); empty otherwise. */
  keeps: readonly string[]
}

const actors = new AsyncLocalStorage<Actor>()

/** Runs `fn` (and everything it awaits) as `actor`. */
export function runAs<T>(actor: Actor, fn: () => T): T {
  return actors.run(actor, fn)
}

/** A field name as the API spells it. */
const FIELD = /^[A-Za-z_]{1,40}$/

/**
 * The `Keep-Mine` header's fields (`name, phone`): at most 50 names as the API spells them; anything
 * else is not a field and is left out (the header only decides who is told).
 */
export function keptFields(header: string | undefined): string[] {
  if (!header) return []
  return header
    .split(',')
    .map((field) => field.trim())
    .filter((field) => FIELD.test(field))
    .slice(0, 50)
}

/**
 * The statements that follow `BEGIN` for the current actor (none outside a signed-in request).
 * Both values are safe to write into the statement: an integer, and names of letters and `_`.
 */
export function actorStatements(): string {
  const actor = actors.getStore()
  if (!actor) return ''
  const id = Math.trunc(actor.userId)
  const keeps = actor.keeps.filter((field) => FIELD.test(field)).join(',')
  return `SELECT set_config('promo.actor', '${id}', true), set_config('promo.keeps', '${keeps}', true)`
}

/** The tables whose rows keep who wrote each field (server/db/migrations.ts, `stamp_writer`). */
const STAMPED =
  /^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(?:workspaces|amo_integrations|bitrix_integrations|departments|locations|specialists|projects|backgrounds|blocks|appeals)\b/i

/**
 * Whether a statement run on its own must run in a transaction of its own to be stamped with the
 * request's person: a write of a stamped table while a signed-in request is answered. (The person
 * is set for a transaction; a lone statement has none to set it in.)
 */
export function needsActor(text: string): boolean {
  return actors.getStore() !== undefined && STAMPED.test(text)
}
