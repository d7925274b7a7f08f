import { act, cleanup, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { i18n } from '../../src/app/i18n.ts'
import type { LocalBlock } from '../../src/features/editor/editor-data.ts'
import { EditorStore } from '../../src/features/editor/model/editor-store.ts'
import { readDrafts } from '../../src/features/editor/draft.ts'
import { AUTOSAVE_DELAY_MS, useAutosave } from '../../src/features/editor/use-autosave.ts'
import { fakeEditorData } from './helpers/editor-data.ts'

const texts = { text: 'Т', button: 'К', gift: 'П', priceButton: 'К', subscribeAction: 'З' }
const BG = { id: 10, width: 1600, height: 900, position: 0 }

function setup(data = fakeEditorData()) {
  const store = new EditorStore({ texts, frameWidth: 1200 })
  store.setBackgrounds([BG])
  const hook = renderHook(() => useAutosave(store, data, 1))
  return { store, data, hook }
}

beforeEach(() => {
  act(() => i18n.activate('ru'))
  vi.useFakeTimers()
})
afterEach(async () => {
  // Closing an editor saves what is left; its last draft write follows that save.
  cleanup()
  await vi.runAllTimersAsync()
  vi.useRealTimers()
  localStorage.clear()
})

/** Hides the page as a reload, a tab switch or the system taking the app away does. */
function hidePage() {
  Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true })
  document.dispatchEvent(new Event('visibilitychange'))
  Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true })
}

describe('autosave', () => {
  it('saves the changed blocks once, after a pause, and reports it', async () => {
    const { store, data, hook } = setup()
    act(() => {
      store.add('text', BG.id)
      store.add('button', BG.id)
    })
    expect(hook.result.current.status).toBe('pending')
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS - 50))
    expect(data.saved).toHaveLength(0)
    const key = store.getState().selection[0]!
    act(() => store.setGeometry([{ key, patch: { x: 10 } }]))
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS + 10))
    expect(data.saved).toHaveLength(1)
    expect(data.saved[0]!.map((b) => b.type)).toEqual(['text', 'button'])
    expect(data.saved[0]![1]!.x).toBe(10)
    expect(hook.result.current.status).toBe('saved')
    expect(store.getState().unsaved).toBe(0)
    // The next change of the same block is saved under the same key: an update, not a new block.
    act(() => store.setGeometry([{ key, patch: { x: 20 } }]))
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS + 10))
    expect(data.saved[1]).toEqual([expect.objectContaining({ ck: data.saved[0]![1]!.ck, x: 20 })])
  })

  it('deletes removed blocks and saves on demand', async () => {
    const blocks: LocalBlock[] = [
      {
        id: 7,
        bg_id: BG.id,
        type: 'gift',
        x: 0,
        y: 0,
        zindex: 0,
        rotation: 0,
        color: '#000000',
        text: '',
        name: '',
        button_url: '',
        button_hook_url: '',
      },
    ]
    const { store, data, hook } = setup(fakeEditorData({ blocks }))
    act(() => store.syncFromData(blocks))
    act(() => store.remove(store.keysOf(BG.id)))
    await act(() => hook.result.current.saveNow())
    expect(data.deleted).toEqual([['7']])
    expect(data.saved).toEqual([])
    expect(hook.result.current.status).toBe('saved')
  })

  it('keeps the changes and says so when saving fails', async () => {
    const data = fakeEditorData()
    data.saveBlocks = vi.fn(async () => {
      throw new Error('disk full')
    })
    const { store, hook } = setup(data)
    act(() => {
      store.add('text', BG.id)
    })
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS + 10))
    expect(hook.result.current.status).toBe('error')
    expect(store.getState().unsaved).toBe(1)
    expect(store.takeChanges().blocks).toHaveLength(1)
  })

  it('keeps what the data layer may not have yet as a draft the moment the page is hidden, and drops it once saved', async () => {
    let finish: () => void = () => {}
    const data = fakeEditorData()
    const save = data.saveBlocks.bind(data)
    // The data layer takes its time (the worker writing), as when the page goes away meanwhile.
    data.saveBlocks = (blocks) =>
      new Promise((resolve) => {
        finish = () => resolve(save(blocks))
      })
    const { store } = setup(data)
    act(() => {
      store.add('text', BG.id)
    })
    expect(readDrafts(localStorage)).toEqual([])
    act(hidePage)
    const drafts = readDrafts(localStorage)
    expect(drafts).toHaveLength(1)
    expect(drafts[0]!.draft).toEqual({
      user: 1,
      blocks: [expect.objectContaining({ type: 'text', bg_id: BG.id, ck: expect.any(String) })],
      deleteKeys: [],
    })
    await act(async () => finish())
    expect(store.getState().unsaved).toBe(0)
    expect(readDrafts(localStorage)).toEqual([])
  })

  it('keeps the draft when the save fails, with the latest values', async () => {
    const data = fakeEditorData()
    data.saveBlocks = vi.fn(async () => {
      throw new Error('disk full')
    })
    const { store } = setup(data)
    act(() => {
      store.add('text', BG.id)
    })
    const key = store.getState().selection[0]!
    await act(() => vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS + 10))
    act(() => store.setGeometry([{ key, patch: { x: 42 } }]))
    act(hidePage)
    const [kept] = readDrafts(localStorage)
    expect(kept!.draft!.blocks).toEqual([expect.objectContaining({ ck: key, x: 42 })])
  })
})
