import { describe, expect, it } from 'vitest'
import type { LocalBlock } from '../../src/features/editor/editor-data.ts'
import { History, MERGE_WINDOW_MS } from '../../src/features/editor/model/history.ts'
import { gift } from '../support/editor-blocks.ts'

describe('history', () => {
  const setup = (limit?: number) => {
    const clock = { t: 0 }
    const history = new History({ now: () => clock.t, limit })
    const blocks = new Map<string, LocalBlock>()
    const command = (key: string, after: LocalBlock | null, tag?: string) => {
      history.record(
        new Map([[key, after]]),
        (k) => blocks.get(k) ?? null,
        { before: [], after: [key] },
        tag,
      )
      if (after) blocks.set(key, after)
      else blocks.delete(key)
    }
    return { history, blocks, command, clock }
  }

  it('undoes to the value before and redoes to the value after', () => {
    const { history, command } = setup()
    command('a', gift({ x: 1 }))
    command('a', gift({ x: 2 }))
    const undone = history.undo()!
    expect(undone.changes.get('a')).toMatchObject({ before: { x: 1 }, after: { x: 2 } })
    expect(history.canRedo).toBe(true)
    expect(history.redo()).toBe(undone)
    expect(history.canRedo).toBe(false)
  })

  it('merges commands with the same tag within the window, keeping the first before', () => {
    const { history, command, clock } = setup()
    command('a', gift({ x: 0 }))
    command('a', gift({ x: 1 }), 'nudge')
    clock.t = MERGE_WINDOW_MS - 1
    command('a', gift({ x: 2 }), 'nudge')
    clock.t += MERGE_WINDOW_MS
    command('a', gift({ x: 3 }), 'nudge')
    expect(history.undo()!.changes.get('a')).toMatchObject({ before: { x: 2 }, after: { x: 3 } })
    expect(history.undo()!.changes.get('a')).toMatchObject({ before: { x: 0 }, after: { x: 2 } })
    expect(history.undo()!.changes.get('a')).toMatchObject({ before: null, after: { x: 0 } })
    expect(history.canUndo).toBe(false)
  })

  it('does not merge into a step that was undone past', () => {
    const { history, command } = setup()
    command('a', gift({ x: 1 }), 'x')
    command('b', gift(), 'other')
    history.undo()
    command('a', gift({ x: 2 }), 'x')
    expect(history.undo()!.changes.get('a')).toMatchObject({ before: { x: 1 }, after: { x: 2 } })
  })

  it('clears redo on a new command and keeps at most `limit` steps', () => {
    const { history, command } = setup(2)
    command('a', gift({ x: 1 }))
    history.undo()
    command('b', gift())
    expect(history.canRedo).toBe(false)
    command('c', gift())
    command('d', gift())
    expect(history.undo()!.changes.has('d')).toBe(true)
    expect(history.undo()!.changes.has('c')).toBe(true)
    expect(history.undo()).toBeUndefined()
  })

  it('rewrites the blocks its steps hold', () => {
    const { history, command } = setup()
    command('a', gift())
    history.rewrite((b) => (b ? { ...b, bg_id: 99 } : b))
    expect(history.undo()!.changes.get('a')).toMatchObject({ before: null, after: { bg_id: 99 } })
  })
})
