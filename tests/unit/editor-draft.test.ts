import { describe, expect, it } from 'vitest'
import type { LocalBlock } from '../../src/features/editor/editor-data.ts'
import {
  newDraftKey,
  readDrafts,
  restoreDrafts,
  writeDraft,
  type DraftSink,
} from '../../src/features/editor/draft.ts'

/** localStorage as the browser has it, in memory. */
class MemoryStorage implements Storage {
  private items = new Map<string, string>()
  get length() {
    return this.items.size
  }
  clear() {
    this.items.clear()
  }
  getItem(key: string) {
    return this.items.get(key) ?? null
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null
  }
  removeItem(key: string) {
    this.items.delete(key)
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value))
  }
}

const block = (ck: string, x = 0): LocalBlock => ({
  ck,
  id: -3,
  bg_id: -1,
  type: 'text',
  x,
  y: 0,
  zindex: 0,
  rotation: 0,
  width: 50,
  fontSize: 16,
  font: 'Roboto',
  align: 'left',
  color: '#000000',
  text: 'Скидка',
  background: 'transparent',
  name: '',
})

function recordingSink(fail = false): DraftSink & { calls: string[] } {
  const calls: string[] = []
  return {
    calls,
    async saveBlocks(blocks) {
      if (fail) throw new Error('disk full')
      calls.push(`save ${blocks.map((b) => `${b.ck}@${b.x}`).join(',')}`)
    },
    async deleteBlocks(keys) {
      if (fail) throw new Error('disk full')
      calls.push(`delete ${keys.join(',')}`)
    },
  }
}

/** A key as another page (the one before a reload) would have written. */
const otherPageKey = (n: number) => `promo-builder:editor-draft:other-${n}`

describe('editor drafts', () => {
  it('are written only while something is unsaved, and read back as written', () => {
    const storage = new MemoryStorage()
    const key = newDraftKey()
    writeDraft(storage, key, { user: 5, blocks: [block('a', 12)], deleteKeys: ['b'] })
    expect(readDrafts(storage)).toEqual([
      { key, draft: { user: 5, blocks: [block('a', 12)], deleteKeys: ['b'] } },
    ])
    writeDraft(storage, key, { user: 5, blocks: [], deleteKeys: [] })
    expect(storage.length).toBe(0)
  })

  it("a start gives the person's drafts from an earlier page to the data layer, deletions first, and removes them", async () => {
    const storage = new MemoryStorage()
    writeDraft(storage, otherPageKey(1), { user: 5, blocks: [block('a', 7)], deleteKeys: ['b'] })
    storage.setItem('locale', 'ru')
    const sink = recordingSink()
    expect(await restoreDrafts(storage, 5, sink)).toBe(1)
    expect(sink.calls).toEqual(['delete b', 'save a@7'])
    expect(readDrafts(storage)).toEqual([])
    expect(storage.getItem('locale')).toBe('ru')
  })

  it("never sends another person's draft, and drops damaged ones", async () => {
    const storage = new MemoryStorage()
    writeDraft(storage, otherPageKey(1), { user: 9, blocks: [block('a')], deleteKeys: [] })
    storage.setItem(otherPageKey(2), '{"user":5,"blocks":[{"type":"rocket"}],"deleteKeys":[]}')
    storage.setItem(otherPageKey(3), 'not json')
    const sink = recordingSink()
    expect(await restoreDrafts(storage, 5, sink)).toBe(0)
    expect(sink.calls).toEqual([])
    expect(storage.length).toBe(0)
  })

  it('keeps a draft the data layer could not store, for the next start', async () => {
    const storage = new MemoryStorage()
    writeDraft(storage, otherPageKey(1), { user: 5, blocks: [block('a')], deleteKeys: [] })
    const quiet = console.error
    console.error = () => {}
    try {
      expect(await restoreDrafts(storage, 5, recordingSink(true))).toBe(0)
    } finally {
      console.error = quiet
    }
    expect(readDrafts(storage)).toHaveLength(1)
  })

  it("leaves this page's own open editors' drafts to them", async () => {
    const storage = new MemoryStorage()
    const own = newDraftKey()
    writeDraft(storage, own, { user: 5, blocks: [block('a')], deleteKeys: [] })
    const sink = recordingSink()
    expect(await restoreDrafts(storage, 5, sink)).toBe(0)
    expect(sink.calls).toEqual([])
    expect(readDrafts(storage).map((d) => d.key)).toEqual([own])
  })
})
