import { act, fireEvent, screen, within } from '@testing-library/react'
import { useSyncExternalStore } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LayersPanel } from '../../src/features/editor/layers-panel.tsx'
import { EditorStore } from '../../src/features/editor/model/editor-store.ts'
import { textBlock as block } from './helpers/editor-data.ts'
import { renderInApp } from './helpers/render-app.tsx'

const texts = { text: 'Т', button: 'К', gift: 'П', priceButton: 'К', subscribeAction: 'З' }

/** Rows are 44 px high with a 2 px gap, from the list's top at 100 px on the page. */
const LIST_TOP = 100
const ROW = 46

beforeEach(() => {
  // jsdom lays nothing out: each row reports its place in the list.
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (
    this: HTMLElement,
  ) {
    const row = this.closest('[data-layer-key]')
    const list = this.closest('[role="list"]') ?? this.querySelector('[role="list"]')
    let top = LIST_TOP
    let height = 400
    if (row) {
      top = LIST_TOP + [...row.parentElement!.children].indexOf(row) * ROW
      height = 44
    } else if (!list) top = 0
    return {
      top,
      bottom: top + height,
      height,
      left: 0,
      right: 200,
      width: 200,
      x: 0,
      y: top,
      toJSON: () => ({}),
    } as DOMRect
  })
})
afterEach(() => vi.restoreAllMocks())

async function setup() {
  const store = new EditorStore({ texts, frameWidth: 1200 })
  store.setBackgrounds([{ id: 10, width: 1600, height: 900, position: 0 }])
  // Front first the list shows Четыре, Три, Два, Один.
  store.syncFromData([block(1, 'Один'), block(2, 'Два'), block(3, 'Три'), block(4, 'Четыре')])
  await renderInApp(() => <LayersPanel store={store} state={store.getState()} bgId={10} />)
  const handle = (name: string) => screen.getByRole('img', { name: `Перетащить слой «${name}»` })
  return { store, handle }
}

const rowY = (index: number) => LIST_TOP + index * ROW + 22

describe('dragging a layer by its handle', () => {
  it('moves the block to where the line shows, as one undo step', async () => {
    const { store, handle } = await setup()
    const grip = handle('Четыре')
    expect(grip.style.touchAction).toBe('none')
    expect(grip).toHaveStyle({ width: '44px', height: '44px' })
    fireEvent.pointerDown(grip, { pointerId: 1, pointerType: 'touch', clientY: rowY(0) })
    // Past the middle of «Два» (the third row): the line goes between «Два» and «Один».
    fireEvent.pointerMove(grip, { pointerId: 1, pointerType: 'touch', clientY: rowY(2) + 10 })
    const line = await screen.findByTestId('layer-drop-line')
    expect(line).toHaveStyle({ top: `${3 * ROW - 1 - 1.5}px` })
    // Nothing changes while the finger moves.
    expect(store.keysOf(10)).toEqual(['ck-1', 'ck-2', 'ck-3', 'ck-4'])
    fireEvent.pointerUp(grip, { pointerId: 1, pointerType: 'touch', clientY: rowY(2) + 10 })
    expect(screen.queryByTestId('layer-drop-line')).toBeNull()
    expect(store.keysOf(10)).toEqual(['ck-1', 'ck-4', 'ck-2', 'ck-3'])
    // Only the blocks whose z value changed are saved.
    expect(store.takeChanges().keys.sort()).toEqual(['ck-2', 'ck-3', 'ck-4'])
    store.undo()
    expect(store.keysOf(10)).toEqual(['ck-1', 'ck-2', 'ck-3', 'ck-4'])
    expect(store.getState().canUndo).toBe(false)
  })

  it('drags to the front with a mouse', async () => {
    const { store, handle } = await setup()
    const grip = handle('Один')
    fireEvent.pointerDown(grip, { pointerId: 7, pointerType: 'mouse', button: 0, clientY: rowY(3) })
    fireEvent.pointerMove(grip, { pointerId: 7, pointerType: 'mouse', clientY: LIST_TOP + 5 })
    expect(screen.getByTestId('layer-drop-line')).toHaveStyle({ top: `${-1 - 1.5}px` })
    fireEvent.pointerUp(grip, { pointerId: 7, pointerType: 'mouse', clientY: LIST_TOP + 5 })
    expect(store.keysOf(10)).toEqual(['ck-2', 'ck-3', 'ck-4', 'ck-1'])
  })

  it('changes nothing on a release in place, a cancel or another pointer', async () => {
    const { store, handle } = await setup()
    const grip = handle('Три')
    fireEvent.pointerDown(grip, { pointerId: 1, pointerType: 'touch', clientY: rowY(1) })
    fireEvent.pointerMove(grip, { pointerId: 1, pointerType: 'touch', clientY: rowY(1) + 5 })
    fireEvent.pointerUp(grip, { pointerId: 1, pointerType: 'touch', clientY: rowY(1) + 5 })
    expect(store.getState().canUndo).toBe(false)

    fireEvent.pointerDown(grip, { pointerId: 2, pointerType: 'touch', clientY: rowY(1) })
    fireEvent.pointerMove(grip, { pointerId: 2, pointerType: 'touch', clientY: rowY(3) })
    // A second finger lifting elsewhere is not the drag's.
    fireEvent.pointerUp(grip, { pointerId: 3, pointerType: 'touch', clientY: rowY(3) })
    expect(screen.getByTestId('layer-drop-line')).toBeInTheDocument()
    fireEvent.pointerCancel(grip, { pointerId: 2, pointerType: 'touch' })
    expect(screen.queryByTestId('layer-drop-line')).toBeNull()
    expect(store.keysOf(10)).toEqual(['ck-1', 'ck-2', 'ck-3', 'ck-4'])
    expect(store.getState().canUndo).toBe(false)
  })

  it('scrolls a long list while the finger stays near its bottom edge', async () => {
    const { store, handle } = await setup()
    const list = screen.getByRole('list', { name: 'Слои' })
    const scroller = list.parentElement!
    // The scrolling box shows 100 px from the list's top; the list itself moves as it scrolls.
    let scrollTop = 0
    Object.defineProperty(scroller, 'scrollTop', {
      get: () => scrollTop,
      set: (v: number) => {
        scrollTop = Math.max(0, Math.min(84, v))
      },
    })
    const boxRect = { top: LIST_TOP, bottom: LIST_TOP + 100, height: 100 }
    vi.mocked(HTMLElement.prototype.getBoundingClientRect).mockImplementation(function (
      this: HTMLElement,
    ) {
      const row = this.closest('[data-layer-key]')
      let top = LIST_TOP - scrollTop
      let height = 4 * ROW
      if (this === scroller) ({ top, height } = boxRect)
      else if (row) {
        top += [...row.parentElement!.children].indexOf(row) * ROW
        height = 44
      }
      return { top, bottom: top + height, height } as DOMRect
    })
    const frames: FrameRequestCallback[] = []
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => frames.push(cb))
    const grip = handle('Четыре')
    fireEvent.pointerDown(grip, { pointerId: 1, pointerType: 'touch', clientY: rowY(0) })
    fireEvent.pointerMove(grip, { pointerId: 1, pointerType: 'touch', clientY: boxRect.bottom - 5 })
    expect(scrollTop).toBeGreaterThan(0)
    // The finger holds still: the list goes on scrolling, one step a frame, to its end.
    act(() => {
      while (frames.length > 0) frames.shift()!(0)
    })
    expect(scrollTop).toBe(84)
    // The rows moved up under the finger: it is now past «Один», the last row (unscrolled it
    // would be between «Три» and «Два»).
    expect(screen.getByTestId('layer-drop-line')).toHaveStyle({ top: `${4 * ROW - 1 - 1.5}px` })
    fireEvent.pointerUp(grip, { pointerId: 1, pointerType: 'touch', clientY: boxRect.bottom - 5 })
    expect(store.keysOf(10)).toEqual(['ck-4', 'ck-1', 'ck-2', 'ck-3'])
  })
})

describe('a long layers list', () => {
  async function longList(count: number) {
    const store = new EditorStore({ texts, frameWidth: 1200 })
    store.setBackgrounds([{ id: 10, width: 1600, height: 900, position: 0 }])
    store.syncFromData(Array.from({ length: count }, (_, i) => block(i + 1, `Блок ${i + 1}`)))
    // The panel follows the store, as the editor's page renders it.
    function Live() {
      const state = useSyncExternalStore(store.subscribe, store.getState)
      return <LayersPanel store={store} state={state} bgId={10} />
    }
    await renderInApp(() => <Live />)
    const list = screen.getByRole('list', { name: 'Слои' })
    const scroller = list.parentElement!
    // The panel's scrolling box shows 10 rows (jsdom lays nothing out).
    Object.defineProperty(scroller, 'clientHeight', { configurable: true, value: 10 * ROW })
    let scrollTop = 0
    Object.defineProperty(scroller, 'scrollTop', {
      configurable: true,
      get: () => scrollTop,
      set: (v: number) => {
        scrollTop = v
      },
    })
    const scrollTo = (top: number) =>
      act(() => {
        scroller.scrollTop = top
        scroller.dispatchEvent(new Event('scroll'))
      })
    const names = () => screen.getAllByRole('listitem').map((row) => row.textContent ?? '')
    return { store, list, scrollTo, names, scrolled: () => scrollTop }
  }

  it('draws the rows in view, each in its place, and the others as it scrolls to them', async () => {
    const { list, scrollTo, names } = await longList(200)
    scrollTo(0)
    // Front first: «Блок 200» leads; 10 rows in view and 8 more below.
    expect(names()).toHaveLength(18)
    expect(names()[0]).toBe('Блок 200')
    expect(list).toHaveStyle({ height: `${200 * ROW - 2}px` })
    scrollTo(100 * ROW)
    const rows = screen.getAllByRole('listitem')
    // Rows 92 to 117 (front first, from 0): 8 above the view, 10 in it, 8 below.
    expect(rows).toHaveLength(26)
    expect(rows[0]).toHaveTextContent('Блок 108')
    expect(rows[0]).toHaveAttribute('aria-posinset', '93')
    expect(rows[0]).toHaveAttribute('aria-setsize', '200')
    expect(rows[0]).toHaveStyle({ top: `${92 * ROW}px` })
    scrollTo(200 * ROW - 10 * ROW)
    expect(names().at(-1)).toBe('Блок 1')
  })

  it('shows the row of a block selected on the canvas, scrolling the least it takes', async () => {
    const { store, scrollTo, names, scrolled } = await longList(200)
    scrollTo(0)
    // «Блок 50» is row 150 (front first), far below the 10 rows in view.
    act(() => store.select(['ck-50']))
    expect(scrolled()).toBe(150 * ROW + 44 - 10 * ROW)
    // The browser then says the box scrolled: the row is drawn.
    scrollTo(scrolled())
    expect(names()).toContain('Блок 50')
    // A row already in view moves nothing; one above the view comes to its top.
    act(() => store.select(['ck-52']))
    expect(scrolled()).toBe(150 * ROW + 44 - 10 * ROW)
    act(() => store.select(['ck-190']))
    expect(scrolled()).toBe(10 * ROW)
    // Several selected (a marquee, Shift) move nothing.
    act(() => store.select(['ck-1', 'ck-2']))
    expect(scrolled()).toBe(10 * ROW)
  })

  it('drops a row past rows it never drew', async () => {
    const { store, scrollTo } = await longList(200)
    scrollTo(0)
    const grip = screen.getByRole('img', { name: 'Перетащить слой «Блок 200»' })
    fireEvent.pointerDown(grip, { pointerId: 1, pointerType: 'mouse', button: 0, clientY: rowY(0) })
    // Just past the middle of row 150 (front first): the rows from 18 on are not drawn.
    const y = LIST_TOP + 150 * ROW + 23
    fireEvent.pointerMove(grip, { pointerId: 1, pointerType: 'mouse', clientY: y })
    expect(screen.getByTestId('layer-drop-line')).toHaveStyle({ top: `${151 * ROW - 1 - 1.5}px` })
    fireEvent.pointerUp(grip, { pointerId: 1, pointerType: 'mouse', clientY: y })
    // Back first, «Блок 200» now sits behind the 150 rows it passed: after «Блок 49».
    const order = store.keysOf(10)
    expect(order.indexOf('ck-200')).toBe(order.indexOf('ck-49') + 1)
  })

  it('keeps the dragged row in the page when the list scrolls far from it, so the drag ends', async () => {
    const { store, scrollTo } = await longList(200)
    scrollTo(0)
    const grip = screen.getByRole('img', { name: 'Перетащить слой «Блок 200»' })
    fireEvent.pointerDown(grip, { pointerId: 1, pointerType: 'touch', clientY: rowY(0) })
    // The list scrolls (the finger at its edge) far past the overscan of the dragged row.
    scrollTo(150 * ROW)
    // The grip that holds the pointer is still the same element in the page.
    expect(grip.isConnected).toBe(true)
    expect(screen.getByRole('img', { name: 'Перетащить слой «Блок 200»' })).toBe(grip)
    const y = LIST_TOP + 150 * ROW + 23
    fireEvent.pointerMove(grip, { pointerId: 1, pointerType: 'touch', clientY: y })
    fireEvent.pointerUp(grip, { pointerId: 1, pointerType: 'touch', clientY: y })
    expect(screen.queryByTestId('layer-drop-line')).toBeNull()
    const order = store.keysOf(10)
    expect(order.indexOf('ck-200')).toBe(order.indexOf('ck-49') + 1)
    // Once dropped it is a row like the others: out of view, out of the page.
    scrollTo(0)
    expect(screen.queryByRole('img', { name: 'Перетащить слой «Блок 200»' })).toBeNull()
  })

  it('offers «Выше» and «Ниже» on the selected rows only', async () => {
    const { store, scrollTo } = await longList(200)
    scrollTo(0)
    const arrows = (name: string) =>
      within(screen.getByRole('button', { name }).closest('[role="listitem"]') as HTMLElement)
        .queryAllByRole('button', { name: /^(Выше|Ниже)$/ })
        .map((b) => b.getAttribute('aria-label'))
    // Nothing selected: each row gives its name the room.
    expect(screen.queryAllByRole('button', { name: /^(Выше|Ниже)$/ })).toHaveLength(0)
    act(() => store.select(['ck-198']))
    expect(arrows('Блок 198')).toEqual(['Выше', 'Ниже'])
    expect(arrows('Блок 199')).toEqual([])
    // Focus alone moves nothing into the row (a mouse focuses the name it presses); the name's
    // click, as Enter gives it, selects the row and brings them in.
    const name = screen.getByRole('button', { name: 'Блок 199' })
    act(() => name.focus())
    expect(arrows('Блок 199')).toEqual([])
    fireEvent.click(name)
    expect(arrows('Блок 199')).toEqual(['Выше', 'Ниже'])
    expect(arrows('Блок 198')).toEqual([])
    act(() => store.select(['ck-198', 'ck-199']))
    expect(screen.getAllByRole('button', { name: 'Выше' })).toHaveLength(2)
    // They move their own row: «Блок 198» one step back.
    fireEvent.click(
      within(
        screen
          .getByRole('button', { name: 'Блок 198' })
          .closest('[role="listitem"]') as HTMLElement,
      ).getByRole('button', { name: 'Ниже' }),
    )
    const order = store.keysOf(10)
    expect(order.indexOf('ck-198')).toBe(order.indexOf('ck-197') - 1)
  })

  it('keeps the focused row in the page and its focus while the list scrolls away', async () => {
    const { scrollTo, names } = await longList(200)
    scrollTo(0)
    const up = screen.getByRole('button', { name: 'Блок 199' })
    act(() => up.focus())
    expect(document.activeElement).toBe(up)
    scrollTo(100 * ROW)
    // Rows 92 to 117, and the focused second row above them.
    expect(names()).toHaveLength(27)
    expect(names()[0]).toBe('Блок 199')
    expect(up.isConnected).toBe(true)
    expect(document.activeElement).toBe(up)
    // The focus leaves the list: the row goes with the others out of view.
    act(() => up.blur())
    scrollTo(99 * ROW)
    expect(names()).toHaveLength(26)
    expect(names()).not.toContain('Блок 199')
  })
})
