import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runAs } from '../../server/db/actor.ts'
import { inlinable, inlineParams, literal } from '../../server/db/one-trip.ts'
import { testServer, type TestServer, type TestUser } from './helpers.ts'

/**
 * A signed-in write of a stamped table goes to PostgreSQL as one simple query with its parameters
 * written in as typed literals (server/db/one-trip.ts). The placeholders must be found where
 * PostgreSQL would read them and nowhere else, and the values must arrive as they were sent.
 */
describe('placeholders written in', () => {
  const values = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K']

  it('replaces each $n, $10 as itself, not $1 followed by 0', () => {
    expect(inlineParams('SELECT $1, $2 FROM t WHERE a = $10 AND b=$11', values)).toBe(
      'SELECT A, B FROM t WHERE a = J AND b=K',
    )
  })

  it('leaves strings, quoted names, comments and dollar-quoted bodies alone', () => {
    const text = [
      "SELECT '$1', 'it''s $2', E'\\'$3', \"col$4\", $5",
      '-- $6 in a comment',
      '/* $7 */ $$ body $8 $$, $tag$ $9 $tag$, $1',
    ].join('\n')
    expect(inlineParams(text, values)).toBe(
      [
        "SELECT '$1', 'it''s $2', E'\\'$3', \"col$4\", E",
        '-- $6 in a comment',
        '/* $7 */ $$ body $8 $$, $tag$ $9 $tag$, A',
      ].join('\n'),
    )
  })

  it('refuses a placeholder it has no value for', () => {
    expect(() => inlineParams('SELECT $3', ['A'])).toThrow('no value for $3')
  })

  it('writes values as literals of the parameter type', () => {
    expect(literal(null, 'integer')).toBe('NULL::integer')
    expect(literal(undefined, 'text')).toBe('NULL::text')
    expect(literal(7, 'integer')).toBe("'7'::integer")
    expect(literal("O'Brien", 'text')).toBe("'O''Brien'::text")
    expect(literal('a\\b', 'text')).toBe(" E'a\\\\b'::text")
    expect(literal({ a: 1 }, 'jsonb')).toBe('\'{"a":1}\'::jsonb')
    expect(literal([1, 2], 'integer[]')).toBe('\'{"1","2"}\'::integer[]')
    expect(inlinable([1, 'a', null, { a: 1 }])).toBe(true)
    expect(inlinable([Buffer.from('x')])).toBe(false)
  })
})

describe('a signed-in write, as the database keeps it', () => {
  let s: TestServer
  let user: TestUser

  beforeAll(async () => {
    s = await testServer()
    user = await s.signUp()
  })

  afterAll(async () => {
    await s.close()
  })

  it('stores every value as sent and stamps the person on the fields written', async () => {
    const { db } = (await s.app.ready()).services
    const tricky = ['O\'Brien \\ "кавычки" $1 -- /* */ $$', "E'\\'", '😀 𝄞 ẞ', '']
    for (const name of tricky) {
      const description = `${name} (описание)`
      const { rows } = await runAs({ userId: user.id, keeps: [] }, () =>
        db.query<{ id: number; name: string; description: string; written_by: unknown }>(
          `INSERT INTO departments (workspace_id, name, description) VALUES ($1, $2, $3)
           RETURNING id, name, description, written_by`,
          [user.workspaceId, name, description],
        ),
      )
      expect(rows).toHaveLength(1)
      expect(rows[0]).toMatchObject({ name, description, written_by: { '*': user.id } })
      const updated = await runAs({ userId: user.id, keeps: [] }, () =>
        db.query<{ description: string; written_by: Record<string, unknown> }>(
          'UPDATE departments SET description = $2 WHERE id = $1 RETURNING description, written_by',
          [rows[0]!.id, `${name}'`],
        ),
      )
      expect(updated.rows[0]).toEqual({
        description: `${name}'`,
        written_by: { '*': user.id, description: user.id },
      })
    }
  })

  it('is one round trip on PostgreSQL: no connection held across a transaction', async () => {
    const { db } = (await s.app.ready()).services
    const write = (name: string) =>
      runAs({ userId: user.id, keeps: [] }, () =>
        db.query('INSERT INTO departments (workspace_id, name, description) VALUES ($1, $2, $3)', [
          user.workspaceId,
          name,
          '',
        ]),
      )
    // The statement's parameter types are asked once, by the first write.
    await write('Первое')
    // What reaches PostgreSQL's connections (a pool's query is a connection's query).
    const sent: string[] = []
    const { query } = pg.Client.prototype
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      sent.push(String(typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text))
      return (query as (...a: unknown[]) => unknown).apply(this, args)
    } as typeof query
    try {
      await write('Второе')
    } finally {
      pg.Client.prototype.query = query
    }
    expect(sent).toHaveLength(db.engine === 'postgres' ? 1 : 0)
    if (db.engine === 'postgres')
      expect(sent[0]).toMatch(/^SELECT set_config.*; INSERT INTO departments/s)
  })

  it('refuses a write the database refuses, and keeps nothing of it', async () => {
    const { db } = (await s.app.ready()).services
    const before = await db.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM departments WHERE workspace_id = $1',
      [user.workspaceId],
    )
    await expect(
      runAs({ userId: user.id, keeps: [] }, () =>
        db.query('INSERT INTO departments (workspace_id, name) VALUES ($1, $2)', [
          user.workspaceId,
          null,
        ]),
      ),
    ).rejects.toThrow(/null value|not-null/)
    const after = await db.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM departments WHERE workspace_id = $1',
      [user.workspaceId],
    )
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n)
  })
})
