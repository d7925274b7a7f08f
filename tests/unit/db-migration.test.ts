import { Dexie } from 'dexie'
import { describe, expect, it } from 'vitest'
import { MirrorDb, SCHEMA_VERSIONS } from '../../src/data/db.ts'

/**
 * Migrations: for every earlier schema version, build a database exactly as that version left it
 * (its stores and upgrades only), put sample rows in, then open it with the current MirrorDb and
 * check the rows survived and the upgrades ran. A new version adds its sample rows to SAMPLES and
 * its expectations below.
 */
type Sample = { table: string; row: Record<string, unknown> }

/** Rows every version can hold (version 2 changed indexes only, not rows). */
const COMMON: Sample[] = [
  { table: 'workspaces', row: { id: 1, name: 'Клиника' } },
  {
    table: 'specialist',
    row: { id: -1, workspace_id: 1, name: 'Анна', department_id: 7, location_id: null },
  },
  { table: 'blocks', row: { id: 3, bg_id: 2, type: 'subscribe', specialist_id: -1 } },
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
]

/** A background and a block made on this device, still under local ids (before client keys). */
const UNKEYED: Sample[] = [
  {
    table: 'backgrounds',
    row: { id: -4, project_id: 9, image_url: 'local-file:1', width: 9, height: 16, position: 0 },
  },
  { table: 'blocks', row: { id: -5, bg_id: -4, type: 'text', specialist_id: null } },
  {
    table: 'outbox',
    row: {
      key: 'b',
      table: 'blocks',
      recordId: -5,
      op: 'save',
      state: 'pending',
      payload: { bg_id: -4 },
    },
  },
]

/** A specialist made here as -9 and re-keyed to 44 before version 4, followed by a redirect. */
const REKEYED: Sample[] = [
  { table: 'specialist', row: { id: 44, workspace_id: 2, name: 'Ольга' } },
  { table: 'meta', row: { key: 'redirect:specialist:-9', value: 44 } },
]

const SAMPLES: Record<number, Sample[]> = {
  1: [
    ...COMMON,
    ...UNKEYED,
    ...REKEYED,
    { table: 'meta', row: { key: 'localIdCounter', value: -1 } },
  ],
  2: [...COMMON, ...UNKEYED, ...REKEYED],
  3: [...COMMON, ...UNKEYED, ...REKEYED],
  4: [
    ...COMMON.map((s) => (s.table === 'blocks' ? { ...s, row: { ...s.row, ck: 'c-1' } } : s)),
    // A specialist re-keyed from -9 to 44, and a subscribe block referring to it by id.
    { table: 'specialist', row: { id: 44, ck: '-9', workspace_id: 2, name: 'Ольга' } },
    {
      table: 'outbox',
      row: {
        key: 's',
        table: 'blocks',
        recordId: 3,
        op: 'save',
        state: 'pending',
        payload: { bg_id: 2, specialist_id: 44 },
      },
    },
    {
      table: 'outbox',
      row: {
        key: 'c',
        table: 'backgrounds',
        recordId: 2,
        op: 'complete',
        state: 'pending',
        payload: { bg_id: 2 },
      },
    },
  ],
  5: [
    { table: 'workspaces', row: { id: 1, ck: '1', name: 'Клиника' } },
    {
      table: 'specialist',
      row: {
        id: -1,
        ck: '-1',
        workspace_id: 1,
        name: 'Анна',
        department_id: 7,
        location_id: null,
      },
    },
    { table: 'blocks', row: { id: 3, ck: 'c-1', bg_id: 2, type: 'subscribe', specialist_id: -1 } },
    {
      table: 'outbox',
      row: { key: 'k', table: 'specialist', ck: '-1', op: 'create', state: 'pending', payload: {} },
    },
  ],
  6: [
    { table: 'workspaces', row: { id: 1, ck: '1', name: 'Клиника' } },
    {
      table: 'specialist',
      row: {
        id: -1,
        ck: '-1',
        workspace_id: 1,
        name: 'Анна',
        department_id: 7,
        location_id: null,
      },
    },
    { table: 'blocks', row: { id: 3, ck: 'c-1', bg_id: 2, type: 'subscribe', specialist_id: -1 } },
    {
      table: 'outbox',
      row: { key: 'k', table: 'specialist', ck: '-1', op: 'create', state: 'pending', payload: {} },
    },
    {
      table: 'appeal',
      row: { id: 31, ck: '31', workspace_id: 1, status: 'new', name: 'Мария', version: 1 },
    },
  ],
}

const latest = Math.max(...SCHEMA_VERSIONS.map((v) => v.version))

describe('mirror schema migrations', () => {
  it('has sample rows for every version', () => {
    expect(Object.keys(SAMPLES).map(Number)).toEqual(SCHEMA_VERSIONS.map((v) => v.version))
  })

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
      expect(await db.workspaces.get(1)).toMatchObject({ id: 1, name: 'Клиника' })
      expect((await db.specialist.get(-1))?.name).toBe('Анна')
      expect(await db.outbox.where('[table+ck]').equals(['specialist', '-1']).count()).toBe(1)
      const queued = (SAMPLES[version] ?? []).filter((s) => s.table === 'outbox').length
      expect(await db.outbox.where('state').equals('pending').count()).toBe(queued)
      // Version 2's reference indexes cover rows written before them.
      expect(await db.specialist.where('department_id').equals(7).primaryKeys()).toEqual([-1])
      expect(await db.blocks.where('specialist_id').equals(-1).primaryKeys()).toEqual([3])
      // Version 3's name order covers them too.
      expect(
        await db.specialist
          .where('[workspace_id+name]')
          .between([1, Dexie.minKey], [1, Dexie.maxKey])
          .primaryKeys(),
      ).toEqual([-1])
      // Version 4 keys every row: rows made before it by their ids.
      if (version < 4) {
        expect(await db.workspaces.where('ck').equals('1').primaryKeys()).toEqual([1])
        expect(await db.specialist.where('ck').equals('-1').primaryKeys()).toEqual([-1])
        expect(await db.blocks.where('ck').equals('3').primaryKeys()).toEqual([3])
        expect(await db.blocks.where('ck').equals('-5').primaryKeys()).toEqual([-5])
        expect(await db.backgrounds.where('ck').equals('-4').primaryKeys()).toEqual([-4])
        // Version 5 names queued entries' records and references by key.
        const save = await db.outbox.where('[table+ck]').equals(['blocks', '-5']).first()
        expect(save).toMatchObject({ payload: { bg_id: '-4' } })
        expect(save).not.toHaveProperty('recordId')
        // A row re-keyed before: its old local id is its key, and the redirect entry is gone.
        expect(await db.specialist.where('ck').equals('-9').primaryKeys()).toEqual([44])
        expect(await db.meta.get('redirect:specialist:-9')).toBeUndefined()
      } else {
        expect(await db.blocks.where('ck').equals('c-1').primaryKeys()).toEqual([3])
      }
      if (version === 4) {
        // The block by its key, the specialist it refers to by the key of its row (-9, not 44);
        // a completion step carries nothing but its background's key.
        const save = await db.outbox.where('[table+ck]').equals(['blocks', 'c-1']).first()
        expect(save).toMatchObject({ payload: { bg_id: '2', specialist_id: '-9' } })
        const complete = await db.outbox.where('[table+ck]').equals(['backgrounds', '2']).first()
        expect(complete).toMatchObject({ op: 'complete', payload: {} })
      }
      db.close()
    })
  }
})
