// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest'
import type { Rect, Viewport } from '../../src/domain/geometry.ts'
import {
  CanvasInteraction,
  MeasuredSizes,
  worldBox,
  type InteractionHost,
  type OverlayState,
} from '../../src/features/editor/canvas/interaction.ts'
import { EditorStore } from '../../src/features/editor/model/editor-store.ts'

const texts = { text: 'Т', button: 'К', gift: 'П', priceButton: 'К', subscribeAction: 'З' }
const BG = { id: 10, width: 1600, height: 900, position: 0 }
const FRAME: Rect = { left: 0, top: 0, width: 1200, height: 675 }

/** A display object as far as the interaction touches it. */
function fakeContainer() {
  const c = {
    x: 0,
    y: 0,
    sx: 1,
    sy: 1,
    rotation: 0,
    moves: 0,
    position: { set: (x: number, y: number) => ((c.x = x), (c.y = y), (c.moves += 1)) },
    scale: { set: (x: number, y: number) => ((c.sx = x), (c.sy = y)) },
  }
  return c
}

function setup(grid = { enabled: false, size: 20 }) {
  const store = new EditorStore({ texts, frameWidth: 1200 })
  store.setBackgrounds([BG])
  const el = document.createElement('div')
  document.body.append(el)
  const view: Viewport = { zoom: 1, panX: 0, panY: 0 }
  const containers = new Map<string, ReturnType<typeof fakeContainer>>()
  const overlays: OverlayState[] = []
  const menus: (string | null)[] = []
  /**
   * What the host heard of gestures, in order: 'begin:move:a,b' (the kind, the keys) and 'end',
   * 'view' and 'view-end'.
   */
  const gestures: string[] = []
  const host: InteractionHost = {
    store,
    view,
    containers: containers as never,
    measuredPx: new MeasuredSizes(),
    frames: () => new Map([[BG.id, FRAME]]),
    grid: () => grid,
    applyView: () => undefined,
    drawOverlay: (o) => overlays.push({ ...o, previews: new Map(o.previews) }),
    onContextMenu: (_p, key) => menus.push(key),
    onActiveBackground: () => undefined,
    setCursor: () => undefined,
    beginGesture: (keys, kind) => gestures.push(`begin:${kind}:${keys.join(',')}`),
    endGesture: () => gestures.push('end'),
    beginViewGesture: () => gestures.push('view'),
    endViewGesture: () => gestures.push('view-end'),
  }
  const interaction = new CanvasInteraction(el, host)
  const detach = interaction.attach()
  const add = (type: 'image' | 'text' | 'gift') => {
    const key = store.add(type, BG.id)!
    containers.set(key, fakeContainer())
    return key
  }
  const pointer = (type: string, x: number, y: number, extra: Partial<PointerEvent> = {}) => {
    const event = new MouseEvent(type, {
      clientX: x,
      clientY: y,
      bubbles: true,
      cancelable: true,
      ...extra,
    })
    Object.assign(event, {
      pointerId: extra.pointerId ?? 1,
      pointerType: extra.pointerType ?? 'mouse',
    })
    el.dispatchEvent(event)
  }
  const drag = (from: [number, number], to: [number, number], steps = 5) => {
    pointer('pointerdown', ...from)
    for (let i = 1; i <= steps; i += 1)
      pointer(
        'pointermove',
        from[0] + ((to[0] - from[0]) * i) / steps,
        from[1] + ((to[1] - from[1]) * i) / steps,
      )
    pointer('pointerup', ...to)
  }
  return {
    store,
    el,
    view,
    containers,
    overlays,
    menus,
    gestures,
    add,
    pointer,
    drag,
    detach,
    host,
  }
}

describe('canvas interaction', () => {
  it('drags a block through its display object and commits once on release', () => {
    const t = setup()
    const key = t.add('image')
    t.store.clearSelection()
    const before = t.store.getState()
    t.drag([600, 337], [720, 397])
    const c = t.containers.get(key)!
    // Moved during the drag, then put back for React to apply the committed state.
    expect(c.moves).toBeGreaterThan(3)
    expect(t.store.getState().blocks.get(key)).toMatchObject({ x: 20, y: 10 })
    expect(t.store.getState().selection).toEqual([key])
    t.store.undo()
    expect(t.store.getState().blocks.get(key)).toMatchObject({ x: 0, y: 0 })
    expect(before.canUndo).toBe(true)
  })

  it('snaps the dragged block to the grid and shows guides to the background centre', () => {
    const t = setup({ enabled: true, size: 20 })
    const key = t.add('image')
    t.drag([600, 337], [607, 349])
    const box = worldBox(t.host, key)!
    expect((box.cx - box.width / 2) % 20).toBeCloseTo(0, 6)
    const during = t.overlays.find((o) => o.guides.length > 0)
    expect(during?.guides.some((g) => g.axis === 'v' && g.pos === 600)).toBe(true)
  })

  it('resizes with the east handle and keeps the west edge', () => {
    const t = setup()
    const key = t.add('image')
    const before = worldBox(t.host, key)!
    const east = before.cx + before.width / 2
    t.drag([east, before.cy], [east + 60, before.cy])
    const after = worldBox(t.host, key)!
    expect(after.width).toBeCloseTo(before.width + 60, 3)
    expect(after.cx - after.width / 2).toBeCloseTo(before.cx - before.width / 2, 3)
    expect(t.containers.get(key)!.sx).toBe(1)
  })

  it('keeps a picture’s proportions at a corner unless the person frees them (or holds Shift)', () => {
    const t = setup()
    const key = t.add('image')
    const before = worldBox(t.host, key)!
    const ratio = before.width / before.height
    const corner = (b: typeof before): [number, number] => [b.cx + b.width / 2, b.cy + b.height / 2]
    const [x, y] = corner(before)
    t.drag([x, y], [x + 90, y + 10])
    const kept = worldBox(t.host, key)!
    expect(kept.width / kept.height).toBeCloseTo(ratio, 3)
    t.store.setKeepAspect(false)
    const [x2, y2] = corner(kept)
    t.drag([x2, y2], [x2 + 90, y2 + 10])
    const freed = worldBox(t.host, key)!
    expect(freed.width / freed.height).not.toBeCloseTo(ratio, 1)
  })

  it('rotates with the handle above the block', () => {
    const t = setup()
    const key = t.add('image')
    const box = worldBox(t.host, key)!
    const handle: [number, number] = [box.cx, box.cy - box.height / 2 - 30]
    t.drag(handle, [box.cx + 300, box.cy])
    expect(t.store.getState().blocks.get(key)!.rotation).toBe(90)
  })

  it('selects with a marquee and clears on a click on empty space', () => {
    const t = setup()
    const a = t.add('gift')
    const b = t.add('gift')
    t.store.setGeometry([
      { key: a, patch: { x: -80, y: -40 } },
      { key: b, patch: { x: 80, y: 40 } },
    ])
    t.store.clearSelection()
    t.drag([0, 0], [200, 200])
    expect(t.store.getState().selection).toEqual([a])
    t.pointer('pointerdown', 5, 660)
    t.pointer('pointerup', 5, 660)
    expect(t.store.getState().selection).toEqual([])
  })

  it('adds with Shift-click and zooms with Ctrl + wheel about the pointer', () => {
    const t = setup()
    const a = t.add('gift')
    const b = t.add('gift')
    t.store.setGeometry([{ key: b, patch: { x: 60 } }])
    t.store.select([a])
    const bx = worldBox(t.host, b)!
    t.pointer('pointerdown', bx.cx, bx.cy, { shiftKey: true })
    t.pointer('pointerup', bx.cx, bx.cy, { shiftKey: true })
    expect(t.store.getState().selection).toEqual([a, b])
    const wheel = new WheelEvent('wheel', {
      deltaY: -100,
      ctrlKey: true,
      clientX: 300,
      clientY: 200,
      cancelable: true,
    })
    t.el.dispatchEvent(wheel)
    expect(t.view.zoom).toBeGreaterThan(1)
    // The world point under the pointer stays under it.
    expect((300 - t.view.panX) / t.view.zoom).toBeCloseTo(300, 6)
    t.detach()
  })

  it('adds and removes blocks with taps of a finger in the selection mode', () => {
    const t = setup()
    const a = t.add('gift')
    const b = t.add('gift')
    t.store.setGeometry([{ key: b, patch: { x: 60 } }])
    t.store.select([a])
    t.store.setMultiSelect(true)
    const touch = { pointerType: 'touch' } as Partial<PointerEvent>
    const tap = (key: string) => {
      const box = worldBox(t.host, key)!
      t.pointer('pointerdown', box.cx, box.cy, touch)
      t.pointer('pointerup', box.cx, box.cy, touch)
    }
    tap(b)
    expect(t.store.getState().selection).toEqual([a, b])
    tap(a)
    expect(t.store.getState().selection).toEqual([b])
    // Out of the mode a tap selects that block alone again.
    t.store.setMultiSelect(false)
    tap(a)
    expect(t.store.getState().selection).toEqual([a])
    t.detach()
  })

  it('opens the menu on a long touch press without moving the block', async () => {
    const t = setup()
    const key = t.add('image')
    t.pointer('pointerdown', 600, 337, { pointerType: 'touch' } as Partial<PointerEvent>)
    await new Promise((r) => setTimeout(r, 600))
    t.pointer('pointerup', 600, 337, { pointerType: 'touch' } as Partial<PointerEvent>)
    expect(t.menus).toEqual([key])
    expect(t.store.getState().blocks.get(key)).toMatchObject({ x: 0, y: 0 })
  })

  it('adds a long-pressed block to the selection instead of replacing it', async () => {
    const t = setup()
    const a = t.add('image')
    const b = t.add('image')
    t.store.setGeometry([{ key: b, patch: { x: 60 } }])
    t.store.select([a])
    const box = worldBox(t.host, b)!
    t.pointer('pointerdown', box.cx, box.cy, { pointerType: 'touch' } as Partial<PointerEvent>)
    await new Promise((r) => setTimeout(r, 600))
    t.pointer('pointerup', box.cx, box.cy, { pointerType: 'touch' } as Partial<PointerEvent>)
    expect(t.menus).toEqual([b])
    expect(t.store.getState().selection).toEqual([a, b])
    // A long press on a block already selected keeps the selection as it is.
    t.pointer('pointerdown', box.cx, box.cy, { pointerType: 'touch' } as Partial<PointerEvent>)
    await new Promise((r) => setTimeout(r, 600))
    t.pointer('pointerup', box.cx, box.cy, { pointerType: 'touch' } as Partial<PointerEvent>)
    expect(t.store.getState().selection).toEqual([a, b])
    t.detach()
  })

  it('tells the host once when a drag of the selection starts and once when it ends', () => {
    const t = setup()
    const a = t.add('gift')
    const b = t.add('gift')
    t.store.setGeometry([{ key: b, patch: { x: 60 } }])
    t.store.select([a, b])
    const box = worldBox(t.host, a)!
    // The gesture starts with the first move past the slop and ends with the commit.
    t.pointer('pointerdown', box.cx, box.cy)
    expect(t.gestures).toEqual([])
    t.drag([box.cx, box.cy], [box.cx + 40, box.cy + 20], 6)
    expect(t.gestures).toEqual([`begin:move:${a},${b}`, 'end'])
    expect(t.store.getState().blocks.get(a)!.x).not.toBe(0)
  })

  it('starts a resize or rotate gesture on the first move, not on a tap of the handle', () => {
    const t = setup()
    const key = t.add('image')
    const box = worldBox(t.host, key)!
    const east: [number, number] = [box.cx + box.width / 2, box.cy]
    t.pointer('pointerdown', ...east)
    t.pointer('pointerup', ...east)
    expect(t.gestures).toEqual([])
    t.drag(east, [east[0] + 50, east[1]])
    expect(t.gestures).toEqual([`begin:resize:${key}`, 'end'])
    const resized = worldBox(t.host, key)!
    const handle: [number, number] = [resized.cx, resized.cy - resized.height / 2 - 30]
    t.gestures.length = 0
    t.drag(handle, [resized.cx + 300, resized.cy])
    expect(t.gestures).toEqual([`begin:rotate:${key}`, 'end'])
  })

  it('ends the gesture when a second finger turns a drag into a pinch', () => {
    const t = setup()
    const key = t.add('image')
    const touch = { pointerType: 'touch' } as Partial<PointerEvent>
    t.pointer('pointerdown', 600, 337, touch)
    t.pointer('pointermove', 640, 357, touch)
    expect(t.gestures).toEqual([`begin:move:${key}`])
    t.pointer('pointerdown', 300, 300, { ...touch, pointerId: 2 } as Partial<PointerEvent>)
    expect(t.gestures).toEqual([`begin:move:${key}`, 'end'])
    // Nothing was committed: the block is where it was.
    expect(t.store.getState().blocks.get(key)).toMatchObject({ x: 0, y: 0 })
  })
})

describe('pans and pinches as one view gesture', () => {
  const touch = { pointerType: 'touch' } as Partial<PointerEvent>
  const finger = (id: number) => ({ ...touch, pointerId: id }) as Partial<PointerEvent>
  const wheel = (init: WheelEventInit) =>
    new WheelEvent('wheel', { clientX: 300, clientY: 200, cancelable: true, ...init })

  it('tells the host once when a finger pan starts moving the view and once when it lifts', () => {
    const t = setup()
    t.add('image')
    t.pointer('pointerdown', 50, 600, touch)
    t.pointer('pointerup', 50, 600, touch)
    // A tap on empty canvas moves nothing.
    expect(t.gestures).toEqual([])
    t.pointer('pointerdown', 50, 600, touch)
    for (let i = 1; i <= 4; i += 1) t.pointer('pointermove', 50 + i * 10, 600 - i * 5, touch)
    expect(t.gestures).toEqual(['view'])
    expect(t.view.panX).toBeCloseTo(40)
    t.pointer('pointerup', 90, 580, touch)
    expect(t.gestures).toEqual(['view', 'view-end'])
  })

  it('keeps one view gesture from a pan into a pinch, until the fingers lift', () => {
    const t = setup()
    t.pointer('pointerdown', 50, 600, finger(1))
    t.pointer('pointermove', 80, 600, finger(1))
    t.pointer('pointerdown', 300, 600, finger(2))
    t.pointer('pointermove', 400, 600, finger(2))
    expect(t.view.zoom).toBeGreaterThan(1)
    expect(t.gestures).toEqual(['view'])
    t.pointer('pointerup', 400, 600, finger(2))
    // One finger left: the view holds still, so the live scene comes back.
    expect(t.gestures).toEqual(['view', 'view-end'])
    t.pointer('pointerup', 80, 600, finger(1))
    expect(t.gestures).toEqual(['view', 'view-end'])
  })

  it('pans with the middle button as one view gesture', () => {
    const t = setup()
    const key = t.add('image')
    // Over a block too: the middle button never drags it.
    t.pointer('pointerdown', 600, 337, { button: 1 })
    t.pointer('pointermove', 620, 337, { button: 1 })
    t.pointer('pointermove', 640, 337, { button: 1 })
    t.pointer('pointerup', 640, 337, { button: 1 })
    expect(t.gestures).toEqual(['view', 'view-end'])
    expect(t.store.getState().blocks.get(key)).toMatchObject({ x: 0, y: 0 })
  })

  it('treats a run of wheel events as one scroll that ends when the wheel rests', () => {
    vi.useFakeTimers()
    try {
      const t = setup()
      t.el.dispatchEvent(wheel({ deltaY: 40 }))
      vi.advanceTimersByTime(100)
      t.el.dispatchEvent(wheel({ deltaY: 40 }))
      t.el.dispatchEvent(wheel({ deltaY: -100, ctrlKey: true }))
      vi.advanceTimersByTime(100)
      expect(t.gestures).toEqual(['view'])
      expect(t.view.panY).toBeLessThan(0)
      vi.advanceTimersByTime(100)
      expect(t.gestures).toEqual(['view', 'view-end'])
      t.detach()
    } finally {
      vi.useRealTimers()
    }
  })

  it('leaves a drag alone when the wheel turns during it', () => {
    vi.useFakeTimers()
    try {
      const t = setup()
      const key = t.add('image')
      t.pointer('pointerdown', 600, 337)
      t.pointer('pointermove', 640, 357)
      t.el.dispatchEvent(wheel({ deltaY: 40 }))
      vi.advanceTimersByTime(500)
      t.pointer('pointerup', 640, 357)
      expect(t.gestures).toEqual([`begin:move:${key}`, 'end'])
    } finally {
      vi.useRealTimers()
    }
  })
})
