import { Dexie } from 'dexie'
import { describe, expect, it } from 'vitest'
import { MirrorDb, SCHEMA_VERSIONS } from '../../src/data/db.ts'

/**
 * Migrations: for every earlier schema version, build a database exactly as that version left it
 * (its stores and upgrades only), put sample rows in, then open it with the current MirrorDb and
 * check the rows survived and the upgrades ran. With only version 1 this opens v1 data with v1; when
 * version 2 arrives, add its sample rows and expectations to SAMPLES and this loop tests 1 → 2.
 */
const SAMPLES: Record<number, { table: string; row: Record<string, unknown> }[]> = {
  1: [
    { table: 'workspaces', row: { id: 1, name: 'Клиника' } },
    { table: 'specialist', row: { id: -1, workspace_id: 1, name: 'Анна', department_id: null } },
    {
      table: 'outbox',
      row: {
        key: 'k',
        table: 'specialist',
        recordId: -1,
        op: 'create',
        state: 'pending',
        payload: {},
      },
    },
    { table: 'meta', row: { key: 'localIdCounter', value: -1 } },
  ],
}

const latest = Math.max(...SCHEMA_VERSIONS.map((v) => v.version))

describe('mirror schema migrations', () => {
  for (const { version } of SCHEMA_VERSIONS) {
    it(`opens data written by version ${version} with version ${latest}`, async () => {
      const name = `migration-from-${version}-${Math.random()}`
      const old = new Dexie(name)
      for (const step of SCHEMA_VERSIONS.filter((v) => v.version <= version)) {
        const v = old.version(step.version).stores(step.stores)
        if (step.upgrade) v.upgrade(step.upgrade)
      }
      await old.open()
      for (const { table, row } of SAMPLES[version] ?? []) await old.table(table).add(row)
      old.close()

      const db = new MirrorDb(name)
      await db.open()
      expect(db.verno).toBe(latest)
      expect(await db.workspaces.get(1)).toEqual({ id: 1, name: 'Клиника' })
      expect((await db.specialist.get(-1))?.name).toBe('Анна')
      expect(await db.outbox.where('[table+recordId]').equals(['specialist', -1]).count()).toBe(1)
      expect(await db.outbox.where('state').equals('pending').count()).toBe(1)
      db.close()
    })
  }
})
