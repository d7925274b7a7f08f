import type { PointerEvent } from 'react'

/** A row of the list where the drag starts, in px from the list's top. */
interface RowBox {
  key: string
  top: number
  height: number
}

/** Where a dragged row would land: its index among the other rows, and the line's y in the list. */
export interface DropTarget {
  key: string
  index: number
  y: number
}

/** A layer row's height, and the distance from one row's top to the next's (a 2 px gap). */
export const LAYER_ROW_HEIGHT = 44
export const LAYER_ROW_PITCH = 46

/** How close to the scrolling box's edge (px) the pointer scrolls a long list, and how fast. */
const EDGE = 40
const MAX_STEP = 12

/**
 * The index, among the rows other than the dragged one, before which it lands when the pointer is
 * at `y` (px from the list's top): after every row whose middle is above the pointer.
 */
export function dropIndex(others: readonly RowBox[], y: number): number {
  let index = 0
  for (const row of others) if (row.top + row.height / 2 < y) index += 1
  return index
}

/** The list's order (front first) with `key` moved to `index` among the others. */
export function movedOrder(order: readonly string[], key: string, index: number): string[] {
  const others = order.filter((k) => k !== key)
  return [...others.slice(0, index), key, ...others.slice(index)]
}

/**
 * Dragging a layer row by its handle with pointer events (finger or mouse): the row's place is
 * followed while the pointer moves, a line shows where it lands (`show`), and the order is handed
 * to `onDrop` once, on release. Near the scrolling box's top or bottom edge a long list scrolls on
 * every animation frame. A release on the same place, a cancel or another pointer change nothing.
 */
export class LayerDrag {
  private order: readonly string[] = []
  private onDrop: (order: string[]) => void = () => undefined
  private list: HTMLElement | null = null
  private scroller: HTMLElement | null = null
  private drag: {
    pointerId: number
    key: string
    others: RowBox[]
    clientY: number
    frame: number | null
  } | null = null
  private shown: DropTarget | null = null

  constructor(private show: (target: DropTarget | null) => void) {}

  /** The rows' keys, front first, and what a drop does: the latest the panel rendered. */
  update(order: readonly string[], onDrop: (order: string[]) => void) {
    this.order = order
    this.onDrop = onDrop
  }

  /** The element of the rows, which the line is placed in (rows `LAYER_ROW_PITCH` apart). */
  setList = (el: HTMLElement | null) => {
    this.list = el
  }
  /** The element that scrolls the rows. */
  setScroller = (el: HTMLElement | null) => {
    this.scroller = el
  }

  onPointerDown = (key: string, e: PointerEvent<HTMLElement>) => {
    if (this.drag || (e.pointerType === 'mouse' && e.button !== 0)) return
    if (!this.list) return
    e.preventDefault()
    e.currentTarget.setPointerCapture?.(e.pointerId)
    // Every row's place follows from its index: the list draws only the rows in view.
    const others = this.order.flatMap((rowKey, i) =>
      rowKey === key ? [] : [{ key: rowKey, top: i * LAYER_ROW_PITCH, height: LAYER_ROW_HEIGHT }],
    )
    this.drag = { pointerId: e.pointerId, key, others, clientY: e.clientY, frame: null }
    this.place()
  }

  onPointerMove = (e: PointerEvent<HTMLElement>) => {
    const d = this.drag
    if (!d || d.pointerId !== e.pointerId) return
    d.clientY = e.clientY
    this.place()
    if (d.frame === null) this.autoScroll()
  }

  onPointerUp = (e: PointerEvent<HTMLElement>) => {
    const d = this.drag
    if (!d || d.pointerId !== e.pointerId) return
    d.clientY = e.clientY
    const next = movedOrder(this.order, d.key, dropIndex(d.others, this.pointerY()))
    const changed = next.some((k, i) => k !== this.order[i])
    this.stop()
    if (changed) this.onDrop(next)
  }

  onPointerCancel = (e: PointerEvent<HTMLElement>) => {
    if (this.drag?.pointerId === e.pointerId) this.stop()
  }

  stop = () => {
    const d = this.drag
    if (d?.frame != null) cancelAnimationFrame(d.frame)
    this.drag = null
    this.shown = null
    this.show(null)
  }

  /** The pointer's y from the list's top (the list moves when it scrolls; the rows with it). */
  private pointerY(): number {
    return (this.drag?.clientY ?? 0) - (this.list?.getBoundingClientRect().top ?? 0)
  }

  private place() {
    const d = this.drag
    if (!d) return
    const index = dropIndex(d.others, this.pointerY())
    const next = d.others[index]
    const last = d.others[d.others.length - 1]
    const y = next ? next.top - 1 : last ? last.top + last.height + 1 : 0
    const s = this.shown
    if (s && s.key === d.key && s.index === index && s.y === y) return
    this.shown = { key: d.key, index, y }
    this.show(this.shown)
  }

  /** Scrolls the list while the pointer stays near its edge, one step per animation frame. */
  private autoScroll = () => {
    const d = this.drag
    const box = this.scroller
    if (!d || !box) return
    d.frame = null
    const rect = box.getBoundingClientRect()
    if (rect.height <= 2 * EDGE) return
    const above = rect.top + EDGE - d.clientY
    const below = d.clientY - (rect.bottom - EDGE)
    const step =
      above > 0
        ? -Math.ceil((Math.min(above, EDGE) / EDGE) * MAX_STEP)
        : below > 0
          ? Math.ceil((Math.min(below, EDGE) / EDGE) * MAX_STEP)
          : 0
    if (step === 0) return
    const before = box.scrollTop
    box.scrollTop = before + step
    if (box.scrollTop === before) return
    this.place()
    d.frame = requestAnimationFrame(this.autoScroll)
  }
}
