import { Dexie } from 'dexie'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MirrorDb, SCHEMA_VERSIONS, setDb } from '../../src/data/db.ts'
import { storeAuthToken } from '../../src/data/sync-state.ts'
import { createSyncEngine } from '../../src/sync/engine.ts'
import { json, startHarness, type Harness } from './harness.ts'

/**
 * Mirror version 5 (docs/SYNC.md "Tables (schema version 6)"): queued entries written by version 4
 * named their record and references by id; opened with the current code they name them by client
 * key, and replaying them against the real server writes exactly what was queued. Beside
 * migration.test.ts: a queued delete whose row is already gone (its id as a key) and a refused
 * create that another record's create waits on until «Повторить».
 */

let h: Harness
beforeEach(async () => {
  h = await startHarness()
})
afterEach(async () => {
  await h.close()
})

type Row = { id: number; version?: number } & Record<string, unknown>

const branch = { name: 'Филиал', address: 'ул. Ленина, 1', phone: '' }

const person = (name: string, department_id: number | null, location_id: number | null) => ({
  name,
  position: 'Терапевт',
  department_id,
  location_id,
  phone: '+7 900 000-00-00',
  email: 'anna@example.ru',
  photo_url: '',
  description: '',
})

async function serverList(kind: string): Promise<Row[]> {
  return json<Row[]>(
    await h.call('GET', `/api/${kind}/list`, undefined, { workspace_id: h.workspaceId }),
  )
}

async function add(kind: string, fields: Record<string, unknown>): Promise<Row> {
  return json<Row>(
    await h.call('POST', `/api/${kind}/add`, { workspace_id: h.workspaceId, ...fields }),
  )
}

/** A database exactly as version 4 left it (its stores and upgrades only). */
async function openVersion4(name: string): Promise<Dexie> {
  const old = new Dexie(name)
  for (const step of SCHEMA_VERSIONS.filter((v) => v.version <= 4)) {
    const v = old.version(step.version).stores(step.stores)
    if (step.upgrade) v.upgrade(step.upgrade)
  }
  await old.open()
  return old
}

let seq = 0
/** An outbox entry as version 4 wrote it: the record and its references by id. */
function entry(
  table: string,
  recordId: number,
  op: string,
  payload: Record<string, unknown>,
  more: Record<string, unknown> = {},
) {
  seq += 1
  return {
    key: `v4-${seq}-${Math.random()}`,
    table,
    recordId,
    op,
    payload,
    state: 'pending',
    attempts: 0,
    nextAttemptAt: 0,
    sent: false,
    label: String(payload.name ?? table),
    createdAt: seq,
    ...more,
  }
}

describe('queued entries written by mirror version 4', () => {
  it('a delete of a row gone and a refused create with a record waiting on it replay by key', async () => {
    const w = h.workspaceId
    // On the server: a department deleted here before the upgrade (its row is gone).
    const gone = await add('department', { name: 'Архив', description: '' })

    const name = `migration-replay-${Math.random()}`
    const old = await openVersion4(name)
    const put = (table: string, row: Record<string, unknown>) => old.table(table).put(row)
    await put('workspaces', { id: w, name: 'Клиника', ck: String(w) })
    // Made offline: department -1, a location -5 whose add was refused (parked), and a
    // specialist -6 in both, waiting on the location.
    await put('department', {
      id: -1,
      workspace_id: w,
      name: 'Неврология',
      description: '',
      ck: '-1',
    })
    await put('location', { id: -5, workspace_id: w, ...branch, ck: '-5' })
    await put('specialist', { id: -6, workspace_id: w, ...person('Пётр', -1, -5), ck: '-6' })
    const outbox = old.table('outbox')
    await outbox.add(
      entry('department', -1, 'create', { workspace_id: w, name: 'Неврология', description: '' }),
    )
    await outbox.add(entry('department', gone.id, 'delete', {}, { baseVersion: gone.version }))
    await outbox.add(
      entry(
        'location',
        -5,
        'create',
        { workspace_id: w, ...branch },
        { state: 'parked', sent: true, code: 'forbidden', message: 'Недостаточно прав' },
      ),
    )
    await outbox.add(
      entry('specialist', -6, 'create', { workspace_id: w, ...person('Пётр', -1, -5) }),
    )
    old.close()

    const db = new MirrorDb(name)
    await db.open()
    // The row gone is named by its id as a key; the others by their rows' keys.
    const queued = await db.outbox.orderBy('seq').toArray()
    expect(queued.map((e) => `${e.op} ${e.table} ${e.ck}`)).toEqual([
      'create department -1',
      `delete department ${gone.id}`,
      'create location -5',
      'create specialist -6',
    ])
    expect(queued[3]!.payload).toMatchObject({ department_id: '-1', location_id: '-5' })

    setDb(db)
    await storeAuthToken({ token: h.token, expiry: null }, db)
    const engine = createSyncEngine({ db, locks: null, schedule: () => undefined })
    try {
      expect(await engine.replay()).toBe('idle')
      // The refused create and the specialist waiting on it stay; the rest landed.
      expect((await db.outbox.orderBy('seq').toArray()).map((e) => `${e.state} ${e.ck}`)).toEqual([
        'parked -5',
        'pending -6',
      ])
      expect((await serverList('department')).map((d) => d.name)).toEqual(['Неврология'])
      expect(await serverList('specialist')).toEqual([])

      // «Повторить»: the location goes, then the specialist with both server ids.
      const [parked] = await db.outbox.where('state').equals('parked').toArray()
      await engine.retryEntry(parked!.seq!)
      expect(await engine.replay()).toBe('idle')
      expect(await db.outbox.count()).toBe(0)
      const [neurology] = await serverList('department')
      const [location] = await serverList('location')
      expect(location).toMatchObject(branch)
      expect(await serverList('specialist')).toEqual([
        expect.objectContaining({
          name: 'Пётр',
          department_id: neurology!.id,
          location_id: location!.id,
        }),
      ])
      expect(h.delivered.filter((s) => s.path.endsWith('/add')).map((s) => s.path)).toEqual([
        '/api/department/add',
        '/api/location/add',
        '/api/specialist/add',
      ])
    } finally {
      db.close()
    }
  })
})
