import type { Queryable } from '../db/database.ts'

/**
 * Runs a SELECT and returns its rows, aggregated to one JSON text in the database. For lists this
 * is several times faster than row-by-row decoding (notably on PGlite), and the JSON numbers keep
 * their exact values. The inner query's ORDER BY gives the order.
 */
export async function selectJsonRows<T>(
  db: Queryable,
  sql: string,
  params: readonly unknown[],
): Promise<T[]> {
  const { rows } = await db.query<{ j: string }>(
    `SELECT COALESCE(json_agg(t), '[]')::text AS j FROM (${sql}) t`,
    params,
  )
  return JSON.parse(rows[0]!.j) as T[]
}
