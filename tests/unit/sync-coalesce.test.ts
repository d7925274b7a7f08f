import { describe, expect, it } from 'vitest'
import type { EntryState, OutboxEntry, OutboxOp, OutboxTable } from '../../src/data/entries.ts'
import { coalesce } from '../../src/sync/coalesce.ts'

let seq = 0
/** A test entry: the payloads here are sketches of what commands queue, not whole records. */
type Sketch = Partial<EntryState> & {
  table: OutboxTable
  op: OutboxOp
  ck: string
  payload?: Record<string, unknown>
}
function entry(partial: Sketch): OutboxEntry {
  seq += 1
  const sketch = {
    seq,
    key: `k${seq}`,
    payload: {},
    state: 'pending',
    attempts: 0,
    nextAttemptAt: 0,
    sent: false,
    label: '',
    createdAt: 0,
    ...partial,
  }
  return sketch as OutboxEntry
}

/** Applies a plan: what would be sent, in order, as "op table:id payload". */
function apply(entries: OutboxEntry[]) {
  // Blocks made here and never saved: keyed by their local ids in these sketches.
  const local = new Set(entries.filter((e) => e.table === 'blocks' && e.ck.startsWith('-')))
  const plan = coalesce(entries, new Set([...local].map((e) => e.ck)))
  const changed = new Map(plan.changed.map((e) => [e.seq, e]))
  const dropped = new Set(plan.dropped)
  return entries
    .filter((e) => !dropped.has(e.seq!))
    .map((e) => changed.get(e.seq) ?? e)
    .map((e) => ({ what: `${e.op} ${e.table}:${e.ck}`, payload: e.payload }))
}

describe('coalesce', () => {
  it('merges updates of one record into one update with the latest values, at the last edit', () => {
    const out = apply([
      entry({ table: 'department', ck: '5', op: 'update', payload: { name: 'А' } }),
      entry({ table: 'location', ck: '7', op: 'update', payload: { name: 'Л' } }),
      entry({ table: 'department', ck: '5', op: 'update', payload: { description: 'о' } }),
      entry({ table: 'department', ck: '5', op: 'update', payload: { name: 'Б' } }),
    ])
    expect(out).toEqual([
      { what: 'update location:7', payload: { name: 'Л' } },
      { what: 'update department:5', payload: { name: 'Б', description: 'о' } },
    ])
  })

  it('create + updates → the create with the merged fields, in the create’s place', () => {
    const out = apply([
      entry({
        table: 'department',
        ck: '-1',
        op: 'create',
        payload: { workspace_id: '1', name: 'А' },
      }),
      entry({ table: 'specialist', ck: '-2', op: 'create', payload: { department_id: '-1' } }),
      entry({ table: 'department', ck: '-1', op: 'update', payload: { name: 'Б' } }),
    ])
    expect(out.map((o) => o.what)).toEqual(['create department:-1', 'create specialist:-2'])
    expect(out[0]!.payload).toEqual({ workspace_id: '1', name: 'Б' })
  })

  it('does not merge an update that refers to a record created after the create', () => {
    const out = apply([
      entry({
        table: 'specialist',
        ck: '-1',
        op: 'create',
        payload: { name: 'И', department_id: null },
      }),
      entry({ table: 'department', ck: '-2', op: 'create', payload: { name: 'Д' } }),
      entry({ table: 'specialist', ck: '-1', op: 'update', payload: { department_id: '-2' } }),
    ])
    expect(out.map((o) => o.what)).toEqual([
      'create specialist:-1',
      'create department:-2',
      'update specialist:-1',
    ])
  })

  it('create + delete → nothing at all, toggles included', () => {
    const out = apply([
      entry({ table: 'specialist', ck: '-1', op: 'create', payload: { name: 'И' } }),
      entry({ table: 'specialist', ck: '-1', op: 'toggle', payload: { enabled: false } }),
      entry({ table: 'specialist', ck: '-1', op: 'update', payload: { name: 'Й' } }),
      entry({ table: 'specialist', ck: '-1', op: 'delete' }),
    ])
    expect(out).toEqual([])
  })

  it('update + delete → the delete only', () => {
    const out = apply([
      entry({ table: 'location', ck: '3', op: 'update', payload: { name: 'Л' } }),
      entry({ table: 'location', ck: '3', op: 'toggle', payload: { enabled: true } }),
      entry({ table: 'location', ck: '3', op: 'delete' }),
    ])
    expect(out.map((o) => o.what)).toEqual(['delete location:3'])
  })

  it('keeps the last toggle and the last completion step of a background', () => {
    const out = apply([
      entry({ table: 'amo', ck: '3', op: 'toggle', payload: { enabled: false } }),
      entry({ table: 'blocks', ck: '10', op: 'save', payload: { x: 1 } }),
      entry({ table: 'backgrounds', ck: '4', op: 'complete' }),
      entry({ table: 'amo', ck: '3', op: 'toggle', payload: { enabled: true } }),
      entry({ table: 'blocks', ck: '10', op: 'save', payload: { x: 2 } }),
      entry({ table: 'backgrounds', ck: '4', op: 'complete' }),
    ])
    expect(out).toEqual([
      { what: 'toggle amo:3', payload: { enabled: true } },
      { what: 'save blocks:10', payload: { x: 2 } },
      { what: 'complete backgrounds:4', payload: {} },
    ])
  })

  it('a local block saved many times and then deleted sends nothing', () => {
    const out = apply([
      entry({ table: 'blocks', ck: '-4', op: 'save', payload: { x: 1 } }),
      entry({ table: 'blocks', ck: '-4', op: 'save', payload: { x: 2 } }),
      entry({ table: 'blocks', ck: '-4', op: 'delete', payload: { type: 'text' } }),
    ])
    expect(out).toEqual([])
  })

  it('never merges into an entry already sent (its key may have reached the server)', () => {
    const out = apply([
      entry({
        table: 'department',
        ck: '-1',
        op: 'create',
        payload: { name: 'А' },
        sent: true,
      }),
      entry({ table: 'department', ck: '-1', op: 'update', payload: { name: 'Б' } }),
      entry({ table: 'department', ck: '-1', op: 'delete' }),
    ])
    expect(out.map((o) => o.what)).toEqual(['create department:-1', 'delete department:-1'])
    expect(out[0]!.payload).toEqual({ name: 'А' })
  })

  it('a parked create of a record deleted since is dropped with the delete', () => {
    const out = apply([
      entry({ table: 'department', ck: '-1', op: 'create', state: 'parked', sent: true }),
      entry({ table: 'department', ck: '-1', op: 'delete' }),
    ])
    expect(out).toEqual([])
  })

  it('never merges across a project copy: the copy sees the project as it was when copied', () => {
    const out = apply([
      entry({ table: 'projects', ck: '-1', op: 'create', payload: { name: 'Акция' } }),
      entry({ table: 'blocks', ck: '9', op: 'save', payload: { text: 'до' } }),
      entry({ table: 'blocks', ck: '-3', op: 'save', payload: { text: 'новый' } }),
      entry({ table: 'projects', ck: '-2', op: 'copy', payload: { source_id: '-1' } }),
      entry({ table: 'projects', ck: '-1', op: 'update', payload: { name: 'Весна' } }),
      entry({ table: 'blocks', ck: '9', op: 'save', payload: { text: 'после' } }),
      entry({ table: 'blocks', ck: '-3', op: 'delete', payload: { type: 'text' } }),
    ])
    expect(out).toEqual([
      { what: 'create projects:-1', payload: { name: 'Акция' } },
      { what: 'save blocks:9', payload: { text: 'до' } },
      { what: 'save blocks:-3', payload: { text: 'новый' } },
      { what: 'copy projects:-2', payload: { source_id: '-1' } },
      { what: 'update projects:-1', payload: { name: 'Весна' } },
      { what: 'save blocks:9', payload: { text: 'после' } },
      { what: 'delete blocks:-3', payload: { type: 'text' } },
    ])
  })

  it('a new block whose first save was already sent is deleted on the server, not forgotten', () => {
    const out = apply([
      entry({ table: 'blocks', ck: '-5', op: 'save', payload: { text: 'а' }, sent: true }),
      entry({ table: 'blocks', ck: '-5', op: 'save', payload: { text: 'б' } }),
      entry({ table: 'blocks', ck: '-5', op: 'delete', payload: { type: 'text' } }),
    ])
    expect(out.map((o) => o.what)).toEqual(['save blocks:-5', 'delete blocks:-5'])
  })

  it('a new block saved before a copy and deleted after it is created, copied, then deleted', () => {
    const out = apply([
      entry({ table: 'blocks', ck: '-5', op: 'save', payload: { text: 'а' } }),
      entry({ table: 'projects', ck: '-2', op: 'copy', payload: { source_id: '1' } }),
      entry({ table: 'blocks', ck: '-5', op: 'save', payload: { text: 'б' } }),
      entry({ table: 'blocks', ck: '-5', op: 'delete', payload: { type: 'text' } }),
    ])
    expect(out.map((o) => o.what)).toEqual([
      'save blocks:-5',
      'copy projects:-2',
      'delete blocks:-5',
    ])
  })

  it('leaves uploads alone', () => {
    const entries = [
      entry({ table: 'files', ck: '1', op: 'upload' }),
      entry({ table: 'files', ck: '1', op: 'upload' }),
    ]
    expect(coalesce(entries, new Set())).toEqual({ changed: [], dropped: [] })
  })
})
