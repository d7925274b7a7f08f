import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { openDatabase, type Database } from '../../server/db/database.ts'
import { PreparedStatements } from '../../server/db/pglite-statements.ts'

/**
 * PGlite's statements run prepared, one call into PGlite each (server/db/pglite-statements.ts):
 * values must come back exactly as PGlite's own `query` gives them, errors as they were, and
 * transactions must hold as before.
 */
let lite: PGlite
let statements: PreparedStatements

beforeAll(async () => {
  lite = new PGlite()
  await lite.exec(`CREATE TABLE t (
    id serial PRIMARY KEY, n integer, big bigint, ratio numeric, flag boolean, name text UNIQUE,
    data jsonb, at timestamptz, tags integer[], bytes bytea)`)
  statements = new PreparedStatements(lite)
}, 60_000)

afterAll(() => lite?.close())

const INSERT = `INSERT INTO t (n, big, ratio, flag, name, data, at, tags, bytes)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`

describe('prepared statements on PGlite', () => {
  it('take and give values as PGlite’s own query does', async () => {
    const rows = [
      [
        7,
        9007199254740993n,
        '1.50',
        true,
        'Отделение «один»',
        { a: [1, 'два'] },
        new Date('2026-11-28T05:00:00.123Z'),
        [1, 2, 3],
        new Uint8Array([0, 255, 10]),
      ],
      [null, null, null, false, "O'Brien \\ \u0000-less", [], new Date(0), [], new Uint8Array()],
    ]
    for (const [i, params] of rows.entries()) {
      const withNul = params.map((p) => (typeof p === 'string' ? p.replace('\u0000', '') : p))
      const ours = await statements.query<Record<string, unknown>>(INSERT, withNul)
      const theirs = await lite.query<Record<string, unknown>>(
        INSERT,
        withNul.map((p, k) => (k === 4 ? `${String(p)} ${i}` : p)),
      )
      const { id: a, name: na, ...restOurs } = ours[0]!
      const { id: b, name: nb, ...restTheirs } = theirs.rows[0]!
      expect(restOurs).toEqual(restTheirs)
      expect(`${String(na)} ${i}`).toBe(nb)
      expect(a).not.toBe(b)
    }
  })

  it('prepares a statement once, then makes one call into PGlite for it', async () => {
    const calls = vi.spyOn(lite, 'execProtocol')
    const text = 'SELECT count(*)::int AS c FROM t WHERE n = $1 OR $1 IS NULL'
    expect(await statements.query(text, [7])).toEqual([{ c: 2 }])
    expect(calls).toHaveBeenCalledTimes(2)
    expect(await statements.query(text, [null])).toEqual([{ c: 4 }])
    expect(await statements.query(text, [8])).toEqual([{ c: 0 }])
    expect(calls).toHaveBeenCalledTimes(4)
    calls.mockRestore()
  })

  it('goes on past the number of statements it keeps prepared', async () => {
    for (let k = 0; k < 1010; k += 1) {
      expect(await statements.query(`SELECT $1::int + ${k} AS v`, [1])).toEqual([{ v: k + 1 }])
    }
    const calls = vi.spyOn(lite, 'execProtocol')
    expect(await statements.query('SELECT $1::int + 5 AS v', [2])).toEqual([{ v: 7 }])
    expect(await statements.query('SELECT $1::int + 1009 AS v', [2])).toEqual([{ v: 1011 }])
    // The first is kept prepared; the last came past the limit and is parsed again.
    expect(calls).toHaveBeenCalledTimes(3)
    calls.mockRestore()
  })

  it('keeps PostgreSQL’s error, and goes on after it', async () => {
    const text = 'INSERT INTO t (name) VALUES ($1)'
    await statements.query(text, ['единственное'])
    await expect(statements.query(text, ['единственное'])).rejects.toMatchObject({ code: '23505' })
    await expect(statements.query('SELECT nope FROM t', [])).rejects.toMatchObject({
      code: '42703',
    })
    expect(
      await statements.query('SELECT count(*)::int AS c FROM t WHERE name = $1', ['единственное']),
    ).toEqual([{ c: 1 }])
  })

  it('answers with the table as it is after the table changed under a prepared statement', async () => {
    await lite.exec('CREATE TABLE s (id integer)')
    await statements.query('INSERT INTO s VALUES ($1)', [1])
    expect(await statements.query('SELECT * FROM s', [])).toEqual([{ id: 1 }])
    await lite.exec("ALTER TABLE s ADD COLUMN label text NOT NULL DEFAULT 'метка'")
    expect(await statements.query('SELECT * FROM s', [])).toEqual([{ id: 1, label: 'метка' }])
    expect(await statements.query('SELECT * FROM s', [])).toEqual([{ id: 1, label: 'метка' }])
  })
})

describe('the server’s PGlite database', () => {
  let db: Database
  beforeAll(async () => {
    db = await openDatabase({ dataDir: 'memory' })
    await db.exec('CREATE TABLE kept (id integer PRIMARY KEY, name text)')
  }, 60_000)
  afterAll(() => db?.close())

  it('commits a transaction whole, rolls back a failed one whole, and waits for it', async () => {
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO kept VALUES ($1, $2)', [1, 'один'])
      await tx.query('INSERT INTO kept VALUES ($1, $2)', [2, 'два'])
    })
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO kept VALUES ($1, $2)', [3, 'три'])
        await tx.query('INSERT INTO kept VALUES ($1, $2)', [1, 'снова один'])
      }),
    ).rejects.toMatchObject({ code: '23505' })
    // A statement outside waits for the transaction under way and does not see into it.
    let outside: unknown
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO kept VALUES ($1, $2)', [4, 'четыре'])
      const pending = db.query('SELECT count(*)::int AS c FROM kept', [])
      void pending.then((r) => (outside = r.rows))
      await tx.query('DELETE FROM kept WHERE id = $1', [4])
      expect(outside).toBeUndefined()
    })
    await vi.waitFor(() => expect(outside).toEqual([{ c: 2 }]))
    const { rows } = await db.query('SELECT id, name FROM kept ORDER BY id', [])
    expect(rows).toEqual([
      { id: 1, name: 'один' },
      { id: 2, name: 'два' },
    ])
  })

  it('runs a statement off the server’s thread, which goes on with other work meanwhile', async () => {
    let ticks = 0
    const timer = setInterval(() => (ticks += 1), 2)
    const started = performance.now()
    try {
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM generate_series(1, 1000000)',
        [],
      )
      expect(rows).toEqual([{ n: 1_000_000 }])
    } finally {
      clearInterval(timer)
    }
    // On the server's thread, the timer could not fire until the statement's answer was read.
    expect(performance.now() - started).toBeGreaterThan(40)
    expect(ticks).toBeGreaterThanOrEqual(3)
  })

  it('hands on a notification before the answer of the statement that sent it', async () => {
    const heard: string[] = []
    await db.subscribe(
      'kept_changes',
      (payload) => heard.push(payload),
      () => undefined,
    )
    await db.query("SELECT pg_notify('kept_changes__public', $1)", ['первое'])
    expect(heard).toEqual(['первое'])
    await db.transaction(async (tx) => {
      await tx.query("SELECT pg_notify('kept_changes__public', $1)", ['второе'])
      expect(heard).toEqual(['первое'])
    })
    expect(heard).toEqual(['первое', 'второе'])
  })

  it('refuses a statement through a transaction that has ended', async () => {
    let kept: Parameters<Parameters<Database['transaction']>[0]>[0] | undefined
    await db.transaction(async (tx) => {
      kept = tx
      await tx.query('SELECT 1', [])
    })
    await expect(kept!.query('SELECT 1', [])).rejects.toThrow('Transaction is closed')
  })
})

describe('the server’s PGlite log', () => {
  it('is checkpointed once it has grown, so it does not keep every segment until 1 GB', async () => {
    const db = await openDatabase({ dataDir: 'memory', checkpointEveryMs: 100 })
    try {
      await db.exec('CREATE TABLE filler (id integer PRIMARY KEY, body text)')
      await db.query(
        "INSERT INTO filler SELECT g, repeat('ж', 200) FROM generate_series(1, 20000) g",
        [],
      )
      // The insert wrote megabytes of log; a checkpoint after it leaves less than 64 KB since.
      // Left to itself PGlite checkpoints only at max_wal_size: this waits in vain without it.
      await vi.waitFor(
        async () => {
          const { rows } = await db.query<{ since: number }>(
            `SELECT (pg_current_wal_insert_lsn() - (pg_control_checkpoint()).redo_lsn)::float8
                      AS since`,
            [],
          )
          expect(rows[0]!.since).toBeLessThan(64 * 1024)
        },
        { timeout: 15_000, interval: 50 },
      )
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM filler', [])
      expect(rows).toEqual([{ n: 20_000 }])
    } finally {
      await db.close()
    }
  }, 60_000)
})

describe('the server’s PGlite settings', () => {
  it('do not zero-fill new write-ahead log segments, in memory and on disk', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const dir = await mkdtemp(join(tmpdir(), 'pglite-settings-'))
    try {
      for (const dataDir of ['memory', dir]) {
        const db = await openDatabase({ dataDir })
        try {
          // A filled segment's zeroing held the server's only thread for 160–220 ms.
          const { rows } = await db.query<{ wal_init_zero: string }>('SHOW wal_init_zero', [])
          expect(rows).toEqual([{ wal_init_zero: 'off' }])
        } finally {
          await db.close()
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
