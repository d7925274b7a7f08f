import { beforeEach, describe, expect, it } from 'vitest'
import { MirrorDb } from '../../src/data/db.ts'
import { queued, resolveEntry, keyOfId, idOfKey } from '../../src/data/keyed.ts'
import { remapRow } from '../../src/data/refs.ts'
import type { OutboxEntry } from '../../src/data/entries.ts'
import { applyCreated } from '../../src/sync/mutators/apply.ts'

const base = {
  key: 'k',
  state: 'pending',
  attempts: 0,
  nextAttemptAt: 0,
  sent: false,
  label: '',
  createdAt: 0,
} as const

let db: MirrorDb
let n = 0
beforeEach(() => {
  n += 1
  db = new MirrorDb(`refs-${n}`)
})

describe('mirror references', () => {
  it('rewrites blocks of a background and subscribe blocks of a specialist', () => {
    const block = { id: -5, bg_id: -2, specialist_id: -3, type: 'subscribe' }
    expect(remapRow('blocks', block, 'backgrounds', -2, 11)).toMatchObject({
      bg_id: 11,
      specialist_id: -3,
    })
    expect(remapRow('blocks', block, 'specialist', -3, 12)).toMatchObject({
      bg_id: -2,
      specialist_id: 12,
    })
    expect(remapRow('blocks', block, 'projects', -2, 1)).toBeNull()
  })
})

describe('entries by client key', () => {
  it('queues a command’s entry with its record and references by key', async () => {
    await db
      .mirror('department')
      .add({ id: -1, ck: '-1', workspace_id: 3, name: 'Д', description: '' })
    await db
      .mirror('location')
      .add({ id: 12, ck: '-2', workspace_id: 3, name: 'Л', address: '', phone: '' })
    const entry = await queued(db, {
      table: 'specialist',
      recordId: -3,
      op: 'update',
      payload: { department_id: -1, location_id: 12, phone: '1' },
    })
    // -3 has no row: its id as a key; 12 was re-keyed from -2 and keeps that key.
    expect(entry).toMatchObject({
      ck: '-3',
      payload: { department_id: '-1', location_id: '-2', phone: '1' },
    })
    expect(entry).not.toHaveProperty('recordId')
  })

  it('sends with the ids the keys name now, and waits while one is still local', async () => {
    await db
      .mirror('department')
      .add({ id: -1, ck: '-1', workspace_id: 3, name: 'Д', description: '' })
    await db.mirror('specialist').add({ id: 40, ck: '-3', workspace_id: 3, name: 'С', version: 2 })
    const entry: OutboxEntry = {
      ...base,
      seq: 1,
      ck: '-3',
      table: 'specialist',
      op: 'update',
      payload: { department_id: '-1', location_id: null },
    }
    const waiting = await resolveEntry(db, entry)
    expect(waiting.waits).toBe(true)
    expect(waiting.entry).toMatchObject({ recordId: 40, payload: { department_id: -1 } })
    // Made before its create was answered (no version then): it starts from the row's version.
    expect(waiting.entry.baseVersion).toBe(2)
    await db.department.delete(-1)
    await db
      .mirror('department')
      .add({ id: 41, ck: '-1', workspace_id: 3, name: 'Д', description: '' })
    const ready = await resolveEntry(db, entry)
    expect(ready.waits).toBe(false)
    expect(ready.entry.payload).toEqual({ department_id: 41, location_id: null })
    // A create of a local record does not wait on its own record.
    const create: OutboxEntry = {
      ...base,
      seq: 2,
      ck: '-9',
      table: 'department',
      op: 'create',
      payload: { workspace_id: '3', name: 'Н' },
    }
    expect(await resolveEntry(db, create)).toMatchObject({
      waits: false,
      entry: { recordId: -9, payload: { workspace_id: 3 } },
    })
  })

  it('a re-key writes no queued entry; a row deleted since is still found by its key', async () => {
    await db
      .mirror('department')
      .add({ id: -1, ck: '-1', workspace_id: 3, name: 'Д', description: '' })
    await db.outbox.bulkAdd([
      { ...base, ck: '-1', table: 'department', op: 'create', payload: { workspace_id: '3' } },
      { ...base, ck: '-1', table: 'department', op: 'update', payload: { name: 'Е' } },
      {
        ...base,
        ck: '-2',
        table: 'specialist',
        op: 'create',
        payload: { workspace_id: '3', department_id: '-1' },
      },
      { ...base, ck: '-1', table: 'department', op: 'delete', payload: {} },
    ])
    const [create] = await db.outbox.toArray()
    const { entry } = await resolveEntry(db, create!)
    let writes = 0
    const count = () => {
      writes += 1
    }
    db.outbox.hook('creating', count)
    db.outbox.hook('updating', count)
    await db.department.delete(-1)
    await applyCreated(db, entry, 'department', { id: 77, workspace_id: 3, name: 'Д', version: 1 })
    db.outbox.hook('creating').unsubscribe(count)
    db.outbox.hook('updating').unsubscribe(count)
    expect(writes).toBe(0)
    const rest = await db.outbox.orderBy('seq').toArray()
    expect(rest.map((e) => e.ck)).toEqual(['-1', '-2', '-1'])
    // The row is gone (deleted here): its delete still finds the server id, and the version.
    expect(await idOfKey(db, 'department', '-1')).toBe(77)
    expect(await keyOfId(db, 'department', 77)).toBe('-1')
    const del = await resolveEntry(db, rest[2]!)
    expect(del).toMatchObject({ waits: false, entry: { recordId: 77, baseVersion: 1 } })
    expect((await resolveEntry(db, rest[1]!)).entry.payload).toMatchObject({ department_id: 77 })
  })
})
