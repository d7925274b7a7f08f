import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Queryable } from '../../../server/db/database.ts'
import { testServer, type TestServer } from '../helpers.ts'
import { fixtures, raceProblems } from '../write-cases.ts'

/**
 * A mutant of the server (docs/SYNC.md "Tests"): the version check of a conditional write without
 * its row lock (server/services/versions.ts `expectVersion` reading the version without
 * `FOR UPDATE`). Two writes from one version then both read the old version before either
 * commits, and both pass. The race of tests/server/conditional-writes.test.ts must name it.
 *
 * PGlite has one connection: two transactions never interleave there, so the bug cannot show. The
 * server project takes this folder's files only with a PostgreSQL (`DATABASE_URL`, set by
 * scripts/with-postgres.sh in `npm test`'s second stage), where each request has a connection of
 * its own.
 */
vi.mock('../../../server/services/versions.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../server/services/versions.ts')>()
  return {
    ...real,
    async expectVersion(
      tx: Queryable,
      table: Parameters<typeof real.expectVersion>[1],
      id: number,
      expected: number | undefined,
      current: (tx: Queryable) => Promise<unknown>,
    ) {
      if (expected === undefined) return
      const { rows } = await tx.query<{ version: number }>(
        `SELECT version FROM ${table} WHERE id = $1`,
        [id],
      )
      // The rest as the real check: the same answers when the writes do not interleave.
      if (rows[0]?.version === expected) return
      return real.expectVersion(tx, table, id, expected, current)
    },
  }
})

describe('on PostgreSQL: the version check without its row lock', () => {
  let s: TestServer
  beforeAll(async () => {
    s = await testServer()
  })
  afterAll(() => s.close())

  it('lets two writes from one version through, and the race of conditional writes says so', async () => {
    const f = fixtures(s, (await s.signUp()).token)
    // A race may fall out one at a time by chance: a few rounds, until one shows it.
    const seen: string[] = []
    for (let round = 0; round < 5 && seen.length === 0; round += 1)
      seen.push(...(await raceProblems(f)))
    expect(seen.join('\n')).toMatch(/\d+ .* at once: ([2-9]|\d\d) passed, exactly one may/)
  })
})
