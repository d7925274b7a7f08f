import { describe, expect, it } from 'vitest'
import { localDependencies, remapEntry, remapRow } from '../../src/data/refs.ts'
import type { BlockFields, OutboxEntry } from '../../src/data/entries.ts'

const base: Omit<OutboxEntry, 'table' | 'recordId' | 'op' | 'payload'> = {
  seq: 1,
  key: 'k',
  state: 'pending',
  attempts: 0,
  nextAttemptAt: 0,
  sent: false,
  label: '',
  createdAt: 0,
}

describe('id remapping', () => {
  it('rewrites the record id and every payload reference to the re-keyed record', () => {
    const e: OutboxEntry = {
      ...base,
      table: 'specialist',
      recordId: -3,
      op: 'update',
      payload: { department_id: -1, location_id: -2 },
    }
    expect(remapEntry(e, 'department', -1, 40)!.payload).toEqual({
      department_id: 40,
      location_id: -2,
    })
    expect(remapEntry(e, 'specialist', -3, 9)!.recordId).toBe(9)
    expect(remapEntry(e, 'location', -7, 1)).toBeNull()
  })

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

  it('lists the local ids an entry still waits for', () => {
    const save: OutboxEntry = {
      ...base,
      table: 'blocks',
      recordId: -8,
      op: 'save',
      // Only the reference matters here.
      payload: { bg_id: -2 } as BlockFields,
    }
    expect(localDependencies(save)).toEqual([{ table: 'backgrounds', id: -2 }])
    const update: OutboxEntry = {
      ...base,
      table: 'department',
      recordId: -1,
      op: 'update',
      payload: {},
    }
    expect(localDependencies(update)).toEqual([{ table: 'department', id: -1 }])
    const create: OutboxEntry = { ...update, op: 'create', payload: { workspace_id: 3 } }
    expect(localDependencies(create)).toEqual([])
  })
})
