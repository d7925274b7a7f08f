import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readSyncMeta } from '../../src/data/sync-state.ts'
import { createRecord, updateRecord } from '../../src/sync/mutators/records.ts'
import { json, startHarness, type Harness } from './harness.ts'

/**
 * A workspace that stops being the person's (docs/SYNC.md, "Live changes"): its mirror goes, and
 * so does every change still queued or refused for it — listed in the notice, never left to retry.
 */
let h: Harness
beforeEach(async () => {
  h = await startHarness()
})
afterEach(async () => {
  await h.close()
})

async function secondWorkspace(name: string): Promise<number> {
  const ws = await json<{ id: number }>(await h.call('POST', '/api/workspace/add', { name }))
  await h.engine.refresh({ kind: 'workspaces' })
  return ws.id
}

describe('a workspace lost', () => {
  it('removed: its mirror and its queued and refused changes go, listed; the others stay', async () => {
    const lost = await secondWorkspace('Филиал')
    const dep = await json<{ id: number }>(
      await h.call('POST', '/api/department/add', { workspace_id: lost, name: 'Терапия' }),
    )
    await h.engine.refresh({ kind: 'department', workspaceId: lost })
    // Refused by the server (parked, with «Повторить»), then two still queued.
    await updateRecord('department', dep.id, { name: '   ' })
    expect(await h.engine.replay()).toBe('idle')
    expect(await h.db.outbox.where('state').equals('parked').count()).toBe(1)
    await createRecord('location', lost, { name: 'Запад', address: '', phone: '' })
    await updateRecord('department', dep.id, { description: 'Взрослые' })
    // One of the workspace that stays.
    await createRecord('location', h.workspaceId, { name: 'Восток', address: '', phone: '' })

    await h.engine.forgetWorkspace(lost, 'removed')

    expect(await h.db.workspaces.get(lost)).toBeUndefined()
    expect(await h.db.department.where('workspace_id').equals(lost).count()).toBe(0)
    const left = await h.db.outbox.toArray()
    expect(left.map((e) => [e.table, e.label])).toEqual([['location', 'Восток']])
    const { workspaceLoss } = await readSyncMeta(h.db)
    expect(workspaceLoss).toMatchObject({ workspaceId: lost, name: 'Филиал', reason: 'removed' })
    expect(workspaceLoss!.discarded.map((c) => [c.table, c.op, c.label]).sort()).toEqual(
      [
        ['department', 'update', '   '],
        // Labelled with the record's name when the change was made (here, still the refused one).
        ['department', 'update', '   '],
        ['location', 'create', 'Запад'],
      ].sort(),
    )
    // Read: the notice goes.
    await h.engine.dismissWorkspaceLoss()
    expect((await readSyncMeta(h.db)).workspaceLoss).toBeNull()
  })

  it('gone from the list at a refresh: the changes queued for it are listed too', async () => {
    const lost = await secondWorkspace('Склад')
    await createRecord('location', lost, { name: 'Север', address: '', phone: '' })
    // Deleted elsewhere meanwhile.
    await h.call('POST', '/api/workspace/delete', { id: lost })
    await h.engine.refresh({ kind: 'workspaces' })
    expect(await h.db.workspaces.get(lost)).toBeUndefined()
    expect(await h.db.outbox.count()).toBe(0)
    const { workspaceLoss } = await readSyncMeta(h.db)
    expect(workspaceLoss).toMatchObject({ workspaceId: lost, name: 'Склад', reason: 'gone' })
    expect(workspaceLoss!.discarded).toEqual([{ table: 'location', op: 'create', label: 'Север' }])
    // The server then says it was a removal: the notice says so.
    await h.engine.forgetWorkspace(lost, 'removed')
    expect((await readSyncMeta(h.db)).workspaceLoss?.reason).toBe('removed')
  })

  it('left, or deleted (its delete came on the stream), with nothing queued: no notice', async () => {
    const lost = await secondWorkspace('Архив')
    await h.engine.forgetWorkspace(lost, 'left')
    expect(await h.db.workspaces.get(lost)).toBeUndefined()
    expect((await readSyncMeta(h.db)).workspaceLoss).toBeNull()
    const deleted = await secondWorkspace('Старое')
    await h.engine.forgetWorkspace(deleted, 'gone')
    expect(await h.db.workspaces.get(deleted)).toBeUndefined()
    expect((await readSyncMeta(h.db)).workspaceLoss).toBeNull()
  })
})
