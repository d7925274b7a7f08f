import { Dexie } from 'dexie'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MirrorDb, SCHEMA_VERSIONS, setDb } from '../../src/data/db.ts'
import { storeAuthToken } from '../../src/data/sync-state.ts'
import { createSyncEngine } from '../../src/sync/engine.ts'
import { json, startHarness, type Harness } from './harness.ts'

/**
 * Schema version 5 names queued entries' records by client key (docs/SYNC.md "Ids"). A mirror
 * written by version 4 — entries naming records by id, a chain of creates under local ids, a row
 * already re-keyed, a parked change — is opened with the current code and replayed against the
 * real server, which must end up holding exactly what was queued.
 */
let h: Harness
beforeEach(async () => {
  h = await startHarness()
}, 60_000)
afterEach(async () => {
  await h.close()
})

const entry = (seq: number, row: Record<string, unknown>) => ({
  seq,
  key: `migrated-${seq}-${Math.random()}`,
  state: 'pending',
  attempts: 0,
  nextAttemptAt: 0,
  sent: false,
  label: '',
  createdAt: 0,
  ...row,
})

async function list<T>(kind: string): Promise<T[]> {
  return json<T[]>(
    await h.call('GET', `/api/${kind}/list`, undefined, { workspace_id: h.workspaceId }),
  )
}

describe('queued entries written by schema version 4', () => {
  it('replay by key after the upgrade: the server holds exactly what was queued', async () => {
    const ws = h.workspaceId
    const kept = await json<{ id: number; name: string; version: number }>(
      await h.call('POST', '/api/department/add', { workspace_id: ws, name: 'Терапия' }),
    )
    // A location made on the device as -3 whose add was answered before the upgrade (id L).
    const location = await json<{ id: number; version: number }>(
      await h.call('POST', '/api/location/add', { workspace_id: ws, name: 'Центр' }),
    )

    const name = `migration-v4-${Date.now()}`
    const old = new Dexie(name)
    for (const step of SCHEMA_VERSIONS.filter((v) => v.version <= 4)) {
      const v = old.version(step.version).stores(step.stores)
      if (step.upgrade) v.upgrade(step.upgrade)
    }
    await old.open()
    await old.table('workspaces').add({ id: ws, ck: String(ws), name: 'Клиника' })
    await old.table('department').bulkAdd([
      { id: kept.id, ck: String(kept.id), workspace_id: ws, name: '   ', version: kept.version },
      { id: -1, ck: '-1', workspace_id: ws, name: 'Кардиология', description: 'Этаж 2' },
    ])
    await old.table('location').add({
      id: location.id,
      ck: '-3',
      workspace_id: ws,
      name: 'Центр',
      address: '',
      phone: '+7 900 111-22-33',
      version: location.version,
    })
    const specialist = {
      name: 'Анна Смирнова',
      position: 'Терапевт',
      phone: '',
      email: '',
      photo_url: '',
      description: '',
    }
    await old.table('specialist').add({
      ...specialist,
      id: -2,
      ck: '-2',
      workspace_id: ws,
      department_id: -1,
      location_id: location.id,
      enabled: true,
    })
    await old.table('meta').add({ key: 'localIdCounter', value: -3 })
    await old.table('outbox').bulkAdd([
      // A change the server refused before the upgrade: it stays parked.
      entry(1, {
        table: 'department',
        recordId: kept.id,
        op: 'update',
        payload: { name: '   ' },
        state: 'parked',
        sent: true,
        code: 'validation_error',
        message: 'Проверьте введённые данные',
        baseVersion: kept.version,
        base: { name: 'Терапия' },
      }),
      // A department, a specialist in it, then an edit of each: a chain under local ids.
      entry(2, {
        table: 'department',
        recordId: -1,
        op: 'create',
        payload: { workspace_id: ws, name: 'Кардиология', description: '' },
      }),
      entry(3, {
        table: 'specialist',
        recordId: -2,
        op: 'create',
        payload: { ...specialist, workspace_id: ws, department_id: -1, location_id: null },
      }),
      entry(4, {
        table: 'department',
        recordId: -1,
        op: 'update',
        payload: { description: 'Этаж 2' },
        base: { description: '' },
      }),
      // The re-keyed location, by its server id (version 4 rewrote queued ids on a re-key).
      entry(5, {
        table: 'specialist',
        recordId: -2,
        op: 'update',
        payload: { location_id: location.id },
        base: { location_id: null },
      }),
      entry(6, {
        table: 'location',
        recordId: location.id,
        op: 'update',
        payload: { phone: '+7 900 111-22-33' },
        baseVersion: location.version,
        base: { phone: '' },
      }),
    ])
    old.close()

    const db = new MirrorDb(name)
    await db.open()
    setDb(db)
    await storeAuthToken({ token: h.token, expiry: null }, db)
    const engine = createSyncEngine({ db, locks: null, schedule: () => undefined })
    expect(await engine.replay()).toBe('idle')

    const departments = await list<{ id: number; name: string; description: string }>('department')
    const cardiology = departments.find((d) => d.name === 'Кардиология')
    expect(departments.map((d) => d.name).sort()).toEqual(['Кардиология', 'Терапия'])
    expect(cardiology?.description).toBe('Этаж 2')
    const specialists = await list<{ name: string; department_id: number; location_id: number }>(
      'specialist',
    )
    expect(specialists).toHaveLength(1)
    expect(specialists[0]).toMatchObject({
      name: 'Анна Смирнова',
      department_id: cardiology!.id,
      location_id: location.id,
    })
    const locations = await list<{ id: number; phone: string }>('location')
    expect(locations).toEqual([
      expect.objectContaining({ id: location.id, phone: '+7 900 111-22-33' }),
    ])

    // Only the refused change waits, as it did; «Отменить изменение» brings the server's name back.
    const left = await db.outbox.toArray()
    expect(left).toEqual([
      expect.objectContaining({ ck: String(kept.id), state: 'parked', payload: { name: '   ' } }),
    ])
    await engine.discardEntry(left[0]!.seq!)
    expect(await db.outbox.count()).toBe(0)
    expect((await db.department.get(kept.id))?.name).toBe('Терапия')
    // The local rows now have the server ids and keep their keys.
    expect(await db.department.where('ck').equals('-1').primaryKeys()).toEqual([cardiology!.id])
    db.close()
  })
})
