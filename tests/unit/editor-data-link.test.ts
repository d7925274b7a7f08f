import { describe, expect, it } from 'vitest'
import type { LocalBlock } from '../../src/features/editor/editor-data.ts'
import { DataLink } from '../../src/features/editor/model/data-link.ts'
import { gift } from '../support/editor-blocks.ts'

describe('the link to the data layer', () => {
  it('merges by client key: clean blocks follow the data layer, dirty ones keep the editor’s', () => {
    const link = new DataLink()
    const blocks = new Map<string, LocalBlock>()
    expect(link.merge(blocks, [gift({ id: 1, ck: 'a' }), gift({ id: 2, ck: 'b' })]).changed).toBe(
      true,
    )
    blocks.set('a', gift({ id: 1, ck: 'a', x: 5 }))
    link.written('a')
    const { changed } = link.merge(blocks, [
      gift({ id: 1, ck: 'a', x: 9 }),
      gift({ id: 7, ck: 'b', x: 3 }),
    ])
    expect(changed).toBe(true)
    expect(blocks.get('a')!.x).toBe(5)
    // The id changed under the same key: the same block.
    expect(blocks.get('b')).toMatchObject({ id: 7, x: 3 })
    expect(
      link.merge(blocks, [gift({ id: 1, ck: 'a' }), gift({ id: 7, ck: 'b', x: 3 })]).changed,
    ).toBe(false)
  })

  it('lets blocks the data layer no longer has leave, but not unsaved or unseen ones', () => {
    const link = new DataLink()
    const blocks = new Map<string, LocalBlock>()
    link.merge(blocks, [gift({ id: 1, ck: 'a' }), gift({ id: 2, ck: 'b' })])
    blocks.set('new', gift())
    link.written('new')
    blocks.set('b', gift({ id: 2, ck: 'b', x: 1 }))
    link.written('b')
    const { left } = link.merge(blocks, [])
    expect([...left]).toEqual(['a'])
    expect([...blocks.keys()]).toEqual(['b', 'new'])
  })

  it('batches unsaved blocks with their key, and keeps those changed since the batch', () => {
    const link = new DataLink()
    const blocks = new Map<string, LocalBlock>([
      ['a', gift()],
      ['b', gift()],
    ])
    link.written('a')
    link.written('b')
    const batch = link.takeChanges(blocks)
    expect(batch.blocks.map((b) => b.ck)).toEqual(['a', 'b'])
    link.written('b')
    link.markSaved(batch)
    expect(link.unsaved).toBe(1)
    expect(link.takeChanges(blocks).keys).toEqual(['b'])
  })

  it('deletes in the data layer only what it may hold, and ignores a stale copy of a deleted block', () => {
    const link = new DataLink()
    const blocks = new Map<string, LocalBlock>([['local', gift()]])
    link.written('local')
    blocks.delete('local')
    link.removed('local')
    expect(link.takeChanges(blocks).deleteKeys).toEqual([])
    link.merge(blocks, [gift({ id: 1, ck: 'a' })])
    blocks.delete('a')
    link.removed('a')
    expect(link.takeChanges(blocks).deleteKeys).toEqual(['a'])
    link.markDeleted(['a'])
    expect(link.unsaved).toBe(0)
    link.merge(blocks, [gift({ id: 1, ck: 'a' })])
    expect(blocks.has('a')).toBe(false)
  })
})
