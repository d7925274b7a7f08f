import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from '../../server/db/database.ts'
import { MIGRATIONS } from '../../server/db/migrations.ts'

// The records counter keeps, beside each workspace's version of a kind of record, how many there
// are (server/db/migrations.ts); a kept list learns from it whether a row left it. Run on PGlite,
// and on PostgreSQL when DATABASE_URL is set.
const databaseUrl = process.env.DATABASE_URL

let db: Database | null = null
afterEach(async () => {
  await db?.close()
  db = null
})

/** A migrated database, in a schema of its own on PostgreSQL. */
async function migrated(): Promise<Database> {
  db = databaseUrl
    ? await openDatabase({
        databaseUrl,
        schema: `counts_${Math.random().toString(36).slice(2, 10)}`,
      })
    : await openDatabase({ dataDir: 'memory' })
  return db
}

const KINDS = {
  department: 'departments',
  location: 'locations',
  specialist: 'specialists',
} as const

/** Each workspace's counters against its rows, for every kind above. */
async function countsAgree(db: Database) {
  for (const [kind, table] of Object.entries(KINDS)) {
    const { rows } = await db.query<{ workspace_id: number; kept: number; counted: number }>(
      `SELECT w.id AS workspace_id,
         COALESCE((SELECT row_count FROM record_versions WHERE workspace_id = w.id AND kind = $1), 0) AS kept,
         (SELECT count(*)::int FROM ${table} WHERE workspace_id = w.id) AS counted
       FROM workspaces w ORDER BY w.id`,
      [kind],
    )
    for (const row of rows) expect({ kind, ...row, kept: row.counted }).toEqual({ kind, ...row })
  }
}

async function twoWorkspaces(db: Database) {
  await db.exec(`INSERT INTO workspaces (name) VALUES ('Первое'), ('Второе')`)
  await db.exec(`
    INSERT INTO departments (workspace_id, name) SELECT 1, 'Отделение ' || n FROM generate_series(1, 7) n;
    INSERT INTO departments (workspace_id, name) SELECT 2, 'Отделение ' || n FROM generate_series(1, 3) n;
    INSERT INTO locations (workspace_id, name, address, phone) VALUES (2, 'Филиал', 'Улица', '');`)
}

describe('the records counter', () => {
  it('is filled in for the records that were there before it', async () => {
    const db = await migrated()
    // Rows written with the triggers off, as the rows from before the counter were written: a
    // kind with no counter row at all, and counters left behind.
    await db.exec(`
      SET session_replication_role = replica;
      INSERT INTO workspaces (name) VALUES ('Первое'), ('Второе');
      INSERT INTO departments (workspace_id, name) SELECT 1, 'Отделение ' || n FROM generate_series(1, 7) n;
      INSERT INTO specialists (workspace_id, name) VALUES (2, 'Иванова'), (2, 'Петрова');
      SET session_replication_role = DEFAULT;`)
    await db.exec(`INSERT INTO departments (workspace_id, name) VALUES (1, 'Ещё одно')`)
    const { rows } = await db.query<{ row_count: number }>(
      `SELECT row_count FROM record_versions WHERE workspace_id = 1 AND kind = 'department'`,
    )
    expect(rows.map((r) => r.row_count)).toEqual([1])
    // The migration that fills the counters in.
    await db.exec(MIGRATIONS[MIGRATIONS.length - 1]!)
    await countsAgree(db)
  })

  it('follows adds, deletes, moves between workspaces and cascades, as plain SQL makes them', async () => {
    const db = await migrated()
    await twoWorkspaces(db)
    await countsAgree(db)
    await db.exec(`DELETE FROM departments WHERE id IN (1, 2)`)
    await db.exec(`UPDATE departments SET workspace_id = 2 WHERE id = 3`)
    await db.exec(`UPDATE departments SET name = 'Терапия' WHERE id = 4`)
    await db.exec(
      `INSERT INTO specialists (workspace_id, name, department_id) VALUES (2, 'Сидорова', 3)`,
    )
    await countsAgree(db)
    // A version moves with every write; the count only when a row comes or goes.
    const { rows } = await db.query<{ version: string; row_count: number }>(
      `SELECT version::text, row_count FROM record_versions WHERE workspace_id = 1 AND kind = 'department'`,
    )
    expect(rows[0]).toEqual({ version: String(7 + 2 + 1 + 1), row_count: 4 })
    await db.exec(`DELETE FROM workspaces WHERE id = 2`)
    await countsAgree(db)
    const gone = await db.query<{ row_count: number }>(
      `SELECT row_count FROM record_versions WHERE workspace_id = 2 AND kind = 'department'`,
    )
    expect(gone.rows.map((r) => r.row_count)).toEqual([0])
  })
})
