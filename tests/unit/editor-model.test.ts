import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { BLOCK_SCHEMAS, BLOCK_TYPES, type BlockOf } from '../../src/domain/block.ts'
import { boundingBox, halfHeightUnits } from '../../src/domain/geometry.ts'
import type { LocalBlock } from '../../src/features/editor/editor-data.ts'
import {
  blockBox,
  CARD_RATIO,
  defaultBlock,
  estimateTextHeight,
} from '../../src/features/editor/model/block-shape.ts'
import {
  ADD_STEP,
  EditorStore,
  PASTE_OFFSET,
} from '../../src/features/editor/model/editor-store.ts'

const texts = {
  text: 'Новый текст',
  button: 'Кнопка',
  gift: 'Подарок',
  priceButton: 'Купить',
  subscribeAction: 'Записаться',
}

const LANDSCAPE = { id: 10, width: 1600, height: 900, position: 0 }
const PORTRAIT = { id: 11, width: 1080, height: 1920, position: 1 }

function setup(clock = { t: 0 }) {
  const store = new EditorStore({ texts, frameWidth: 1000, now: () => clock.t })
  store.setBackgrounds([LANDSCAPE, PORTRAIT])
  return { store, clock }
}

/** A text block as the data layer holds it: made on the server, so keyed by its id. */
const text = (id: number, patch: Partial<BlockOf<'text'>> = {}): LocalBlock => ({
  ...(defaultBlock('text', LANDSCAPE.id, LANDSCAPE, 0, texts) as BlockOf<'text'>),
  id,
  ck: String(id),
  ...patch,
})

const block = (store: EditorStore, key: string) => store.getState().blocks.get(key)!

describe('defaults', () => {
  it('creates a valid block of every type, centred', () => {
    for (const type of BLOCK_TYPES) {
      const b = defaultBlock(type, 5, LANDSCAPE, 3, texts)
      expect(b.type).toBe(type)
      expect(b).toMatchObject({ bg_id: 5, x: 0, y: 0, zindex: 3, rotation: 0 })
      const result = v.safeParse(BLOCK_SCHEMAS[type], b)
      expect(result.issues).toBeUndefined()
    }
  })

  it('makes blocks relatively larger on portrait slides', () => {
    const wide = defaultBlock('text', 1, LANDSCAPE, 0, texts) as BlockOf<'text'>
    const tall = defaultBlock('text', 1, PORTRAIT, 0, texts) as BlockOf<'text'>
    expect(tall.fontSize).toBeGreaterThan(wide.fontSize)
    expect(tall.width).toBeGreaterThan(wide.width)
  })

  it('sizes buttons, images and videos by the background aspect', () => {
    const image = defaultBlock('image', 1, PORTRAIT, 0, texts) as BlockOf<'image'>
    const box = blockBox(image, PORTRAIT)
    expect(box.height / box.width).toBeCloseTo(0.75, 3)
    const video = defaultBlock('video', 1, LANDSCAPE, 0, texts) as BlockOf<'video'>
    const vbox = blockBox(video, LANDSCAPE)
    expect(vbox.height / vbox.width).toBeCloseTo(9 / 16, 3)
  })

  it('derives the price number from the price text', () => {
    const price = defaultBlock('price', 1, LANDSCAPE, 0, texts) as BlockOf<'price'>
    expect(price.text_price).toBe(1000)
    expect(price.text).toMatch(/1\s000\s₽/)
  })

  it('estimates text and card heights', () => {
    expect(estimateTextHeight('a', 10, 200)).toBe(12.5)
    expect(estimateTextHeight('a\nb', 10, 200)).toBe(25)
    // 40 characters at 5.5 units each in 110 units: two lines.
    expect(estimateTextHeight('x'.repeat(40), 10, 110)).toBe(12.5 * 2)
    const gift = defaultBlock('gift', 1, LANDSCAPE, 0, texts) as BlockOf<'gift'>
    expect(blockBox(gift, LANDSCAPE).height).toBe(gift.width! * 2 * CARD_RATIO)
    expect(blockBox({ ...gift, width: undefined }, LANDSCAPE).width).toBe(80)
  })
})

describe('adding, selecting and z-order', () => {
  it('adds on top, centred, selected, as one undo step', () => {
    const { store } = setup()
    const a = store.add('text', LANDSCAPE.id)!
    const b = store.add('button', LANDSCAPE.id)!
    expect(block(store, a).zindex).toBe(0)
    expect(block(store, b).zindex).toBe(1)
    expect(store.getState().selection).toEqual([b])
    expect(store.keysOf(LANDSCAPE.id)).toEqual([a, b])
    store.undo()
    expect(store.getState().blocks.has(b)).toBe(false)
    expect(store.getState().selection).toEqual([a])
    store.redo()
    expect(store.getState().blocks.has(b)).toBe(true)
    expect(store.add('text', 999)).toBeNull()
  })

  it('places a new block where it does not cover the last one, inside the background', () => {
    const { store } = setup()
    const first = block(store, store.add('button', LANDSCAPE.id)!)
    const second = block(store, store.add('button', LANDSCAPE.id)!)
    const third = block(store, store.add('button', LANDSCAPE.id)!)
    expect([second.x - first.x, second.y - first.y]).toEqual([ADD_STEP, ADD_STEP])
    expect([third.x - first.x, third.y - first.y]).toEqual([2 * ADD_STEP, 2 * ADD_STEP])
    // Moved away, the centre is free again.
    const [k1] = store.keysOf(LANDSCAPE.id)
    store.setGeometry([{ key: k1!, patch: { x: -90 } }])
    expect(block(store, store.add('text', LANDSCAPE.id)!).x).toBe(first.x)
    for (let i = 0; i < 30; i += 1) {
      const b = block(store, store.add('text', LANDSCAPE.id)!)
      expect(Math.abs(b.x)).toBeLessThanOrEqual(100)
    }
  })

  it('keeps only the selection on the slide that was opened', () => {
    const { store } = setup()
    const a = store.add('text', LANDSCAPE.id)!
    store.limitSelection(LANDSCAPE.id)
    expect(store.getState().selection).toEqual([a])
    store.limitSelection(PORTRAIT.id)
    expect(store.getState().selection).toEqual([])
  })

  it('selects with Shift (toggle) and with a marquee', () => {
    const { store } = setup()
    const a = store.add('text', LANDSCAPE.id)!
    const b = store.add('image', LANDSCAPE.id)!
    const c = store.add('gift', LANDSCAPE.id)!
    store.setGeometry([
      { key: a, patch: { x: -80, y: -40 } },
      { key: b, patch: { x: 0, y: 0 } },
      { key: c, patch: { x: 80, y: 40 } },
    ])
    store.select([a])
    store.toggleSelect(c)
    expect(store.getState().selection).toEqual([a, c])
    store.toggleSelect(a)
    expect(store.getState().selection).toEqual([c])
    store.selectInRect(LANDSCAPE.id, { left: -100, top: -56, width: 100, height: 50 })
    expect(store.getState().selection).toEqual([a, b])
    store.selectInRect(LANDSCAPE.id, { left: 95, top: 55, width: 5, height: 1 }, true)
    expect(store.getState().selection).toEqual([a, b, c])
    store.clearSelection()
    expect(store.getState().selection).toEqual([])
  })

  it('brings forward and sends backward by one, front and back all the way', () => {
    const { store } = setup()
    const [a, b, c] = ['text', 'text', 'text'].map(() => store.add('text', LANDSCAPE.id)!)
    store.bringForward([a!])
    expect(store.keysOf(LANDSCAPE.id)).toEqual([b, a, c])
    store.sendBackward([c!])
    expect(store.keysOf(LANDSCAPE.id)).toEqual([b, c, a])
    store.bringToFront([b!])
    expect(store.keysOf(LANDSCAPE.id)).toEqual([c, a, b])
    store.sendToBack([b!])
    expect(store.keysOf(LANDSCAPE.id)).toEqual([b, c, a])
    // Only the two swapped blocks change their z value.
    const before = store.keysOf(LANDSCAPE.id).map((k) => block(store, k).zindex)
    expect(new Set(before).size).toBe(3)
    store.undo()
    expect(store.keysOf(LANDSCAPE.id)).toEqual([c, a, b])
  })

  it('sets a background’s order from a list of keys in one step, saving only moved blocks', () => {
    const { store } = setup()
    store.syncFromData([
      ...[1, 2, 3, 4].map((id) => text(id, { zindex: id * 10 })),
      text(9, { bg_id: PORTRAIT.id, zindex: 5 }),
    ])
    expect(store.getState().unsaved).toBe(0)
    const history = store.getState().canUndo
    // Block 4 dragged from the front to just above block 1; a key of another slide is ignored.
    store.setOrder(LANDSCAPE.id, ['1', '4', '2', '3', '9'])
    expect(store.keysOf(LANDSCAPE.id)).toEqual(['1', '4', '2', '3'])
    expect(store.keysOf(LANDSCAPE.id).map((k) => block(store, k).zindex)).toEqual([10, 20, 30, 40])
    // Block 1 kept its place and its z value: only the three that moved wait to be saved.
    expect(store.takeChanges().keys.sort()).toEqual(['2', '3', '4'])
    expect(block(store, '9').zindex).toBe(5)
    expect(history).toBe(false)
    store.undo()
    expect(store.keysOf(LANDSCAPE.id)).toEqual(['1', '2', '3', '4'])
    expect(store.getState().canUndo).toBe(false)
    store.redo()
    expect(store.keysOf(LANDSCAPE.id)).toEqual(['1', '4', '2', '3'])
  })

  it('keeps a block missing from the list in its place, and does nothing for the same order', () => {
    const { store } = setup()
    store.syncFromData([1, 2, 3].map((id) => text(id, { zindex: id })))
    store.setOrder(LANDSCAPE.id, ['1', '2', '3'])
    expect(store.getState().canUndo).toBe(false)
    // Block 2 arrived while the list showed only 1 and 3: it stays in the middle.
    store.setOrder(LANDSCAPE.id, ['3', '1'])
    expect(store.keysOf(LANDSCAPE.id)).toEqual(['3', '2', '1'])
    expect(store.getState().canUndo).toBe(true)
  })

  it('renumbers when z values repeat', () => {
    const { store } = setup()
    store.syncFromData([text(1, { zindex: 0 }), text(2, { zindex: 0 }), text(3, { zindex: 0 })])
    const [k1] = store.keysOf(LANDSCAPE.id)
    store.bringForward([k1!])
    const zs = store.keysOf(LANDSCAPE.id).map((k) => block(store, k).zindex)
    expect(zs).toEqual([0, 1, 2])
    expect(block(store, store.keysOf(LANDSCAPE.id)[1]!).id).toBe(1)
  })
})

describe('moving, resizing, rotating', () => {
  it('commits a drag of several blocks as one step, rounded to the stored precision', () => {
    const { store } = setup()
    const a = store.add('text', LANDSCAPE.id)!
    const b = store.add('image', LANDSCAPE.id)!
    store.setGeometry([
      { key: a, patch: { x: 10.123456, y: -3.33333 } },
      { key: b, patch: { x: 20, width: 55.55555, height: 12.000049 } },
    ])
    expect(block(store, a)).toMatchObject({ x: 10.1235, y: -3.3333 })
    expect(block(store, b)).toMatchObject({ x: 20, width: 55.5556, height: 12 })
    store.undo()
    expect(block(store, a)).toMatchObject({ x: 0, y: 0 })
    expect(block(store, b)).toMatchObject({ x: ADD_STEP, width: 40 })
  })

  it('rotates about the centre and normalises the angle', () => {
    const { store } = setup()
    const a = store.add('button', LANDSCAPE.id)!
    store.rotateTo(a, 370)
    expect(block(store, a)).toMatchObject({ x: 0, y: 0, rotation: 10 })
  })

  it('nudges by one px or ten (Shift), repeated nudges undo together', () => {
    const { store, clock } = setup()
    const a = store.add('text', LANDSCAPE.id)!
    // frameWidth 1000: one px = 0.2 units.
    store.nudge(1, 0)
    clock.t += 100
    store.nudge(10, 0)
    clock.t += 100
    store.nudge(0, -1)
    expect(block(store, a)).toMatchObject({ x: 2.2, y: -0.2 })
    store.undo()
    expect(block(store, a)).toMatchObject({ x: 0, y: 0 })
    store.redo()
    clock.t += 5000
    store.nudge(1, 0)
    store.undo()
    expect(block(store, a)).toMatchObject({ x: 2.2, y: -0.2 })
  })

  it('merges typing in one field into one step, but not across fields', () => {
    const { store, clock } = setup()
    const a = store.add('text', LANDSCAPE.id)!
    store.update(a, { text: 'П' }, 'text')
    clock.t += 200
    store.update(a, { text: 'Пр' }, 'text')
    clock.t += 200
    store.update(a, { text: 'При' }, 'text')
    store.update(a, { color: '#ff0000' }, 'color')
    store.undo()
    expect(block(store, a)).toMatchObject({ text: 'При', color: '#212529' })
    store.undo()
    expect(block(store, a)).toMatchObject({ text: 'Новый текст' })
    store.undo()
    expect(store.getState().blocks.has(a)).toBe(false)
    expect(store.getState().canUndo).toBe(false)
  })

  it('ignores edits that change nothing', () => {
    const { store } = setup()
    const a = store.add('text', LANDSCAPE.id)!
    store.update(a, { text: 'Новый текст' })
    store.setGeometry([{ key: a, patch: { x: 0 } }])
    store.undo()
    expect(store.getState().blocks.size).toBe(0)
  })
})

describe('delete, duplicate, copy and paste', () => {
  it('deletes the selection and brings it back with undo', () => {
    const { store } = setup()
    const a = store.add('text', LANDSCAPE.id)!
    store.remove()
    expect(store.getState().blocks.size).toBe(0)
    expect(store.getState().selection).toEqual([])
    store.undo()
    expect(store.getState().blocks.get(a)).toBeDefined()
    expect(store.getState().selection).toEqual([a])
  })

  it('duplicates with an offset, in front, without the id, and selects the copies', () => {
    const { store } = setup()
    store.syncFromData([text(7, { x: 10, y: 5, zindex: 4 })])
    const [k] = store.keysOf(LANDSCAPE.id)
    store.duplicate([k!])
    const [copyKey] = store.getState().selection
    expect(copyKey).not.toBe(k)
    const copy = block(store, copyKey!)
    expect(copy.id).toBeUndefined()
    expect(copy).toMatchObject({ x: 10 + PASTE_OFFSET, y: 5 + PASTE_OFFSET, zindex: 5 })
  })

  it('pastes onto another background at the same place, and offsets on its own', () => {
    const { store } = setup()
    const a = store.add('price', LANDSCAPE.id)!
    store.setGeometry([{ key: a, patch: { x: 30, y: -20 } }])
    store.copy([a])
    expect(store.hasClipboard()).toBe(true)
    store.paste(PORTRAIT.id)
    const [onPortrait] = store.getState().selection
    expect(block(store, onPortrait!)).toMatchObject({
      bg_id: PORTRAIT.id,
      x: 30,
      y: -20,
      zindex: 0,
    })
    store.paste(LANDSCAPE.id)
    store.paste(LANDSCAPE.id)
    const [second] = store.getState().selection
    expect(block(store, second!)).toMatchObject({
      x: 30 + 2 * PASTE_OFFSET,
      y: -20 + 2 * PASTE_OFFSET,
      zindex: 2,
    })
    // Edits after copying do not change the clipboard.
    store.update(a, { text: '5 ₽' })
    store.paste(PORTRAIT.id)
    expect((block(store, store.getState().selection[0]!) as BlockOf<'price'>).text).not.toBe('5 ₽')
  })

  it('keeps pasted blocks inside a smaller background', () => {
    const { store } = setup()
    const tall = store.add('text', PORTRAIT.id)!
    store.setGeometry([{ key: tall, patch: { y: 150 } }])
    store.copy([tall])
    store.paste(LANDSCAPE.id)
    const pasted = block(store, store.getState().selection[0]!)
    expect(pasted.y).toBe(halfHeightUnits(LANDSCAPE))
  })
})

describe('align and distribute', () => {
  it('aligns several blocks to their union and one block to the background', () => {
    const { store } = setup()
    const a = store.add('gift', LANDSCAPE.id)!
    const b = store.add('gift', LANDSCAPE.id)!
    store.setGeometry([
      { key: a, patch: { x: -50, width: 20 } },
      { key: b, patch: { x: 30, width: 40 } },
    ])
    store.select([a, b])
    store.align('left')
    // a spans -70..-30, b spans -10..70: both start at -70.
    expect(block(store, a).x).toBe(-50)
    expect(block(store, b).x).toBe(-30)
    store.select([b])
    store.align('right')
    expect(block(store, b).x).toBe(60)
    store.align('top')
    const r = boundingBox(blockBox(block(store, b), LANDSCAPE))
    expect(r.top).toBeCloseTo(-halfHeightUnits(LANDSCAPE), 4)
  })

  it('distributes three blocks evenly as one step', () => {
    const { store } = setup()
    const keys = ['gift', 'gift', 'gift'].map(() => store.add('gift', LANDSCAPE.id)!)
    store.setGeometry(keys.map((key, i) => ({ key, patch: { width: 10, x: [-80, -60, 80][i]! } })))
    store.select(keys)
    store.distribute('h')
    expect(keys.map((k) => block(store, k).x)).toEqual([-80, 0, 80])
    store.undo()
    expect(keys.map((k) => block(store, k).x)).toEqual([-80, -60, 80])
  })
})

describe('dirty tracking and saving', () => {
  it('yields changed blocks with their keys and deleted keys, and clears them when saved', () => {
    const { store } = setup()
    store.syncFromData([text(1), text(2, { x: 5 })])
    expect(store.getState().unsaved).toBe(0)
    const [k1, k2] = store.keysOf(LANDSCAPE.id)
    expect([k1, k2]).toEqual(['1', '2'])
    store.update(k1!, { text: 'Изменено' })
    store.remove([k2!])
    const added = store.add('button', LANDSCAPE.id)!
    const batch = store.takeChanges()
    expect(batch.blocks.map((b) => [b.ck, b.id])).toEqual([
      ['1', 1],
      [added, undefined],
    ])
    expect(batch.deleteKeys).toEqual(['2'])
    expect(store.getState().unsaved).toBe(3)
    store.markSaved(batch)
    store.markDeleted(batch.deleteKeys)
    expect(store.getState().unsaved).toBe(0)
    expect(store.takeChanges()).toMatchObject({ blocks: [], deleteKeys: [] })
  })

  it('gives every new block a key of its own, unlike any other editor’s', () => {
    const first = setup().store
    const second = setup().store
    const a = first.add('text', LANDSCAPE.id)!
    const b = second.add('text', LANDSCAPE.id)!
    const c = first.add('text', LANDSCAPE.id)!
    expect(new Set([a, b, c]).size).toBe(3)
  })

  it('keeps a block dirty when it changed while its save was on the way', () => {
    const { store } = setup()
    const a = store.add('text', LANDSCAPE.id)!
    const batch = store.takeChanges()
    store.update(a, { text: 'позже' })
    store.markSaved(batch)
    const next = store.takeChanges()
    expect(next.blocks).toEqual([expect.objectContaining({ ck: a, text: 'позже' })])
  })

  it('deletes a block removed after it was handed to the data layer, and only such a block', () => {
    const { store } = setup()
    const never = store.add('text', LANDSCAPE.id)!
    store.remove([never])
    expect(store.takeChanges().deleteKeys).toEqual([])
    const a = store.add('text', LANDSCAPE.id)!
    store.takeChanges()
    store.remove([a])
    expect(store.takeChanges().deleteKeys).toEqual([a])
  })

  it('undo of a delete before it is saved cancels the deletion; after, it saves the block again', () => {
    const { store } = setup()
    store.syncFromData([text(1), text(2)])
    const [k1, k2] = store.keysOf(LANDSCAPE.id)
    store.remove([k1!])
    store.undo()
    expect(store.takeChanges().deleteKeys).toEqual([])
    store.remove([k2!])
    const batch = store.takeChanges()
    expect(batch.deleteKeys).toEqual([k2])
    store.markDeleted(batch.deleteKeys)
    store.undo()
    const again = store.takeChanges()
    expect(again.deleteKeys).toEqual([])
    expect(again.blocks.map((b) => b.ck)).toContain(k2)
    // The data layer shows it again under its key: it is the same block, not a second one.
    store.syncFromData([text(1), { ...text(2), id: -7 }])
    expect(store.getState().blocks.size).toBe(2)
  })

  it('undo and redo of a saved block keep its key, so they keep updating it', () => {
    const { store } = setup()
    const a = store.add('text', LANDSCAPE.id)!
    store.update(a, { text: 'один' })
    store.markSaved(store.takeChanges())
    store.undo()
    store.undo()
    expect(store.takeChanges().deleteKeys).toEqual([a])
    store.redo()
    expect(store.takeChanges()).toMatchObject({
      deleteKeys: [],
      blocks: [expect.objectContaining({ ck: a })],
    })
  })
})

describe('following the data layer (merged by client key)', () => {
  it('loads, updates clean blocks, keeps dirty ones, adds new ones and drops deleted ones', () => {
    const { store } = setup()
    store.syncFromData([text(1), text(2)])
    const [k1, k2] = store.keysOf(LANDSCAPE.id)
    store.update(k2!, { text: 'моё' })
    store.syncFromData([text(1, { text: 'с сервера' }), text(2, { text: 'чужое' }), text(3)])
    expect((block(store, k1!) as BlockOf<'text'>).text).toBe('с сервера')
    expect((block(store, k2!) as BlockOf<'text'>).text).toBe('моё')
    expect(store.getState().blocks.size).toBe(3)
    store.syncFromData([text(2), text(3)])
    expect(store.getState().blocks.has(k1!)).toBe(false)
    // Syncing is not an edit.
    expect(store.getState().unsaved).toBe(1)
  })

  it('does not drop a just-saved block the data layer has not shown yet', () => {
    const { store } = setup()
    store.syncFromData([text(1)])
    const a = store.add('text', LANDSCAPE.id)!
    store.markSaved(store.takeChanges())
    store.syncFromData([text(1)])
    expect(store.getState().blocks.has(a)).toBe(true)
  })

  it('takes a new block the mirror shows before its save resolves as the same block', () => {
    const { store } = setup()
    const a = store.add('price', LANDSCAPE.id)!
    const batch = store.takeChanges()
    store.syncFromData([{ ...block(store, a), id: -4, ck: a }])
    expect(store.getState().blocks.size).toBe(1)
    store.markSaved(batch)
    store.syncFromData([{ ...block(store, a), id: -4, ck: a }])
    expect(store.getState().blocks.size).toBe(1)
    expect(block(store, a).id).toBe(-4)
  })

  it('follows the server id under the same key, whatever else the sync rewrote', () => {
    const { store } = setup()
    const a = store.add('image', LANDSCAPE.id)!
    store.update(a, { image_url: 'local-file:3' })
    store.markSaved(store.takeChanges())
    store.syncFromData([{ ...block(store, a), id: -6, ck: a }])
    store.syncFromData([
      { ...block(store, a), id: 88, ck: a, image_url: '/uploads/a.png' } as LocalBlock,
    ])
    expect(store.getState().blocks.size).toBe(1)
    expect(block(store, a)).toMatchObject({ id: 88, image_url: '/uploads/a.png' })
    store.remove([a])
    expect(store.takeChanges().deleteKeys).toEqual([a])
  })

  it('keeps the edits of a block edited again while its id changed', () => {
    const { store } = setup()
    const a = store.add('price', LANDSCAPE.id)!
    const batch = store.takeChanges()
    store.markSaved(batch)
    store.setGeometry([{ key: a, patch: { x: 54, y: 30 } }])
    store.syncFromData([{ ...batch.blocks[0]!, id: 16 }])
    expect(store.getState().blocks.size).toBe(1)
    expect(store.takeChanges().blocks).toEqual([expect.objectContaining({ ck: a, x: 54, y: 30 })])
  })

  it('adds an identical block someone else made: it has a key of its own', () => {
    const { store } = setup()
    const a = store.add('price', LANDSCAPE.id)!
    store.markSaved(store.takeChanges())
    store.syncFromData([
      { ...block(store, a), id: -1, ck: a },
      { ...block(store, a), id: 50, ck: '50' },
    ])
    expect(store.getState().blocks.size).toBe(2)
  })

  it('moves blocks to the server id of a synced background, by its key, not its position', () => {
    const { store } = setup()
    store.setBackgrounds([LANDSCAPE, { ...PORTRAIT, id: -2, ck: '-2' }])
    const a = store.add('text', -2)!
    store.setBackgrounds([LANDSCAPE, { ...PORTRAIT, id: 44, ck: '-2' }])
    expect(block(store, a).bg_id).toBe(44)
    store.undo()
    store.redo()
    expect(block(store, a).bg_id).toBe(44)
    // Another background at the same place is another background.
    const b = store.add('text', 44)!
    store.setBackgrounds([LANDSCAPE, { ...PORTRAIT, id: 45, ck: '45' }])
    expect(block(store, b).bg_id).toBe(44)
  })

  it('does not bring back a block being deleted', () => {
    const { store } = setup()
    store.syncFromData([text(1)])
    const [k1] = store.keysOf(LANDSCAPE.id)
    store.remove([k1!])
    store.syncFromData([text(1)])
    expect(store.getState().blocks.size).toBe(0)
    store.markDeleted([k1!])
    store.syncFromData([text(1)])
    expect(store.getState().blocks.size).toBe(0)
  })

  it('notifies subscribers with a new state object', () => {
    const { store } = setup()
    let calls = 0
    const off = store.subscribe(() => (calls += 1))
    const before = store.getState()
    store.add('text', LANDSCAPE.id)
    expect(calls).toBe(1)
    expect(store.getState()).not.toBe(before)
    off()
    store.add('text', LANDSCAPE.id)
    expect(calls).toBe(1)
  })
})
