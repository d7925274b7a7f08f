import type { Queryable } from '../db/database.ts'
import { AppError } from './errors.ts'

/** Tables whose rows carry a version (server/db/migrations.ts). Never from a request. */
export type VersionedTable =
  | 'workspaces'
  | 'amo_integrations'
  | 'bitrix_integrations'
  | 'departments'
  | 'locations'
  | 'specialists'
  | 'projects'
  | 'backgrounds'
  | 'blocks'
  | 'appeals'

/**
 * The check of a conditional write (docs/API.md, "Conditional writes"), inside the transaction
 * that then writes: the row is locked until that transaction ends, so of two writes made from the
 * same version only the first passes; the second finds the version it raised. A row gone is a 404;
 * another version a 409 with the row as `current` reads it now.
 */
export async function expectVersion(
  tx: Queryable,
  table: VersionedTable,
  id: number,
  expected: number | undefined,
  current: (tx: Queryable) => Promise<unknown>,
): Promise<void> {
  if (expected === undefined) return
  const { rows } = await tx.query<{ version: number }>(
    `SELECT version FROM ${table} WHERE id = $1 FOR UPDATE`,
    [id],
  )
  const row = rows[0]
  if (!row) throw AppError.notFound()
  if (row.version !== expected) throw AppError.versionConflict(await current(tx))
}
