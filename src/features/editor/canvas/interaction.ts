import type { Container } from 'pixi.js'
import {
  boundingBox,
  findGuides,
  handlePoint,
  hitTest,
  rectFromPoints,
  rectsIntersect,
  resizeBox,
  rotationTowards,
  screenToStored,
  screenToWorld,
  snapBoxToGrid,
  snapValue,
  unionRect,
  worldToScreen,
  zoomAt,
  type Box,
  type Guide,
  type Handle,
  type Point,
  type Rect,
  type Viewport,
} from '../../../domain/geometry.ts'
import type { LocalBlock } from '../editor-data.ts'
import { isTyping } from '../keyboard.ts'
import { BLOCK_DEFINITIONS } from '../blocks/index.ts'
import { blockBox, hasStoredHeight } from '../model/block-shape.ts'
import type { EditorStore, Patch } from '../model/editor-store.ts'

/**
 * Pointer, wheel and keyboard handling of the canvas. Everything that happens per pointer move
 * (dragging, resizing, rotating, panning, pinching) writes Pixi display objects directly; the store
 * hears about it once, on release, as one undo step.
 */

export interface OverlayState {
  previews: Map<string, Box>
  guides: Guide[]
  marquee: Rect | null
}

export interface InteractionHost {
  store: EditorStore
  view: Viewport
  /** Applies `view` to the world container (and redraws the overlay). */
  applyView(): void
  frames(): Map<number, Rect>
  containers: Map<string, Container>
  measuredPx: Map<string, number>
  grid(): { enabled: boolean; size: number }
  drawOverlay(state: OverlayState): void
  onContextMenu(point: Point, key: string | null): void
  onActiveBackground(bgId: number): void
  setCursor(cursor: string): void
  /** A drag, resize or rotate of these blocks starts (the rest of the scene can stay still). */
  beginGesture(keys: readonly string[]): void
  /** The gesture ended or was called off (before its result reaches the store). */
  endGesture(): void
  /** A pan or pinch starts moving the view (the scene can be drawn once and moved as a picture). */
  beginViewGesture(): void
  /** The pan or pinch is over (the scene is drawn live again). */
  endViewGesture(): void
}

const TOUCH_HANDLE = 22
const MOUSE_HANDLE = 10
const ROTATE_OFFSET = 30
const LONG_PRESS_MS = 500
const GUIDE_THRESHOLD = 6
/** Wheel events this close together are one scroll (or trackpad pinch) of the view. */
const WHEEL_IDLE_MS = 150

/** Handles a block type offers: text and cards change width (corners keep the aspect). */
export function handlesOf(block: LocalBlock): readonly Handle[] {
  return BLOCK_DEFINITIONS[block.type].handles.sides === 'both'
    ? ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w']
    : ['nw', 'ne', 'e', 'se', 'sw', 'w']
}

/** A box in world px from the block's stored-unit box and its background frame. */
export function worldBox(
  host: Pick<InteractionHost, 'store' | 'measuredPx' | 'frames'>,
  key: string,
): Box | null {
  const block = host.store.get(key)
  const frame = block && host.frames().get(block.bg_id)
  const bg = block && host.store.background(block.bg_id)
  if (!block || !frame || !bg) return null
  const unit = frame.width / 200
  const measured = host.measuredPx.get(key)
  const box = blockBox(block, bg, measured !== undefined ? measured / unit : undefined)
  return {
    cx: frame.left + frame.width / 2 + box.cx * unit,
    cy: frame.top + frame.height / 2 + box.cy * unit,
    width: box.width * unit,
    height: box.height * unit,
    rotation: box.rotation,
  }
}

export function toScreenBox(box: Box, view: Viewport): Box {
  const c = worldToScreen({ x: box.cx, y: box.cy }, view)
  return {
    cx: c.x,
    cy: c.y,
    width: box.width * view.zoom,
    height: box.height * view.zoom,
    rotation: box.rotation,
  }
}

/** The rotate handle: above the top edge, turning with the block. */
export function rotateHandlePoint(screenBox: Box): Point {
  const top = handlePoint(screenBox, 'n')
  const a = (screenBox.rotation * Math.PI) / 180
  return { x: top.x + Math.sin(a) * ROTATE_OFFSET, y: top.y - Math.cos(a) * ROTATE_OFFSET }
}

type Mode =
  | { kind: 'idle' }
  | { kind: 'pending'; key: string; start: Point; wasSelected: boolean; shift: boolean }
  | {
      kind: 'move'
      start: Point
      keys: string[]
      origin: Map<string, Box>
      primary: string
      /** What guides snap to: the other blocks hold still, so measured once per drag. */
      targets: Rect[] | null
    }
  | { kind: 'resize'; key: string; handle: Handle; origin: Box }
  | { kind: 'rotate'; key: string; origin: Box }
  | { kind: 'marquee'; start: Point; additive: boolean; current: Point }
  | { kind: 'pan'; last: Point; moved: boolean; touch: boolean }
  | { kind: 'pinch'; startDist: number; startMid: Point; startView: Viewport }
  | { kind: 'menu' }

export class CanvasInteraction {
  private mode: Mode = { kind: 'idle' }
  private pointers = new Map<number, { p: Point; type: string }>()
  private longPress: ReturnType<typeof setTimeout> | null = null
  private spaceHeld = false
  /** A drag, resize or rotate has moved and told the host so (see `beginGesture`). */
  private gestureLive = false
  /** A pan or pinch (pointers or wheel) is moving the view and told the host so. */
  private viewLive = false
  private wheelIdle: ReturnType<typeof setTimeout> | null = null
  private overlay: OverlayState = { previews: new Map(), guides: [], marquee: null }

  constructor(
    private el: HTMLElement,
    private host: InteractionHost,
  ) {}

  attach(): () => void {
    const el = this.el
    const opts = { passive: false } as const
    el.addEventListener('pointerdown', this.onDown, opts)
    el.addEventListener('pointermove', this.onMove, opts)
    el.addEventListener('pointerup', this.onUp, opts)
    el.addEventListener('pointercancel', this.onCancel, opts)
    el.addEventListener('wheel', this.onWheel, opts)
    el.addEventListener('contextmenu', this.onContextMenu, opts)
    window.addEventListener('keydown', this.onKey)
    window.addEventListener('keyup', this.onKey)
    window.addEventListener('blur', this.onBlur)
    return () => {
      el.removeEventListener('pointerdown', this.onDown)
      el.removeEventListener('pointermove', this.onMove)
      el.removeEventListener('pointerup', this.onUp)
      el.removeEventListener('pointercancel', this.onCancel)
      el.removeEventListener('wheel', this.onWheel)
      el.removeEventListener('contextmenu', this.onContextMenu)
      window.removeEventListener('keydown', this.onKey)
      window.removeEventListener('keyup', this.onKey)
      window.removeEventListener('blur', this.onBlur)
      this.clearLongPress()
      this.clearWheelIdle()
      this.endViewGesture()
    }
  }

  /** Current overlay extras (the canvas draws selection from the store plus these). */
  get overlayState(): OverlayState {
    return this.overlay
  }

  private point(e: PointerEvent | WheelEvent | MouseEvent): Point {
    const r = this.el.getBoundingClientRect()
    return { x: e.clientX - r.left, y: e.clientY - r.top }
  }

  private world(p: Point): Point {
    return screenToWorld(p, this.host.view)
  }

  // -- hit testing -----------------------------------------------------------------------------

  private bgAt(world: Point): number | null {
    for (const [id, f] of this.host.frames()) {
      if (
        world.x >= f.left &&
        world.x <= f.left + f.width &&
        world.y >= f.top &&
        world.y <= f.top + f.height
      )
        return id
    }
    return null
  }

  /** The front-most block under a world point. */
  private blockAt(world: Point, slop: number): string | null {
    const frames = this.host.frames()
    const store = this.host.store
    const ids = [...frames.keys()].reverse()
    for (const bgId of ids) {
      const keys = store.keysOf(bgId)
      for (let i = keys.length - 1; i >= 0; i -= 1) {
        const box = worldBox(this.host, keys[i]!)
        if (box && hitTest(world, box, slop)) return keys[i]!
      }
    }
    return null
  }

  private handleAt(p: Point, touch: boolean): { key: string; handle: Handle | 'rotate' } | null {
    const { selection } = this.host.store.getState()
    if (selection.length !== 1) return null
    const key = selection[0]!
    const block = this.host.store.get(key)
    const box = worldBox(this.host, key)
    if (!block || !box) return null
    const screen = toScreenBox(box, this.host.view)
    const radius = touch ? TOUCH_HANDLE : MOUSE_HANDLE
    const near = (q: Point) => Math.hypot(q.x - p.x, q.y - p.y) <= radius
    if (near(rotateHandlePoint(screen))) return { key, handle: 'rotate' }
    for (const handle of handlesOf(block))
      if (near(handlePoint(screen, handle))) return { key, handle }
    return null
  }

  // -- pointer events --------------------------------------------------------------------------

  private onDown = (e: PointerEvent) => {
    if (e.button === 2) return
    e.preventDefault()
    // The pointer does not move focus (default prevented): leave any inspector field by hand so
    // its draft gives way to what the canvas is about to change.
    const focused = document.activeElement
    if (focused instanceof HTMLElement && isTyping(focused)) focused.blur()
    this.el.setPointerCapture?.(e.pointerId)
    const p = this.point(e)
    this.pointers.set(e.pointerId, { p, type: e.pointerType })
    const touch = e.pointerType === 'touch'
    if (this.pointers.size === 2) {
      this.cancelPreview()
      const [a, b] = [...this.pointers.values()].map((v) => v.p) as [Point, Point]
      this.mode = {
        kind: 'pinch',
        startDist: Math.max(1, Math.hypot(a.x - b.x, a.y - b.y)),
        startMid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 },
        startView: { ...this.host.view },
      }
      return
    }
    if (this.pointers.size > 2) return
    if (e.button === 1 || this.spaceHeld) {
      this.mode = { kind: 'pan', last: p, moved: false, touch: false }
      this.host.setCursor('grabbing')
      return
    }
    const world = this.world(p)
    const bgId = this.bgAt(world)
    if (bgId !== null) this.host.onActiveBackground(bgId)
    const handle = this.handleAt(p, touch)
    if (handle) {
      const origin = worldBox(this.host, handle.key)!
      this.mode =
        handle.handle === 'rotate'
          ? { kind: 'rotate', key: handle.key, origin }
          : { kind: 'resize', key: handle.key, handle: handle.handle, origin }
      return
    }
    const key = this.blockAt(world, touch ? 6 / this.host.view.zoom : 0)
    // Shift, or the selection mode a finger turns on in the toolbar, adds and removes.
    const additive = e.shiftKey || this.host.store.getState().multiSelect
    if (key) {
      const { selection } = this.host.store.getState()
      const wasSelected = selection.includes(key)
      if (additive) this.host.store.toggleSelect(key)
      else if (!wasSelected) this.host.store.select([key])
      this.mode = { kind: 'pending', key, start: p, wasSelected, shift: additive }
      if (touch) this.startLongPress(p, key)
      return
    }
    if (touch) {
      this.mode = { kind: 'pan', last: p, moved: false, touch: true }
      this.startLongPress(p, null)
      return
    }
    this.mode = { kind: 'marquee', start: p, current: p, additive }
  }

  private onMove = (e: PointerEvent) => {
    const entry = this.pointers.get(e.pointerId)
    if (!entry) {
      if (e.pointerType === 'mouse') this.hover(this.point(e))
      return
    }
    e.preventDefault()
    const p = this.point(e)
    entry.p = p
    const mode = this.mode
    switch (mode.kind) {
      case 'pinch': {
        const [a, b] = [...this.pointers.values()].map((v) => v.p) as [Point, Point]
        if (!a || !b) return
        const dist = Math.max(1, Math.hypot(a.x - b.x, a.y - b.y))
        const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }
        const zoomed = zoomAt(
          mode.startView,
          (mode.startView.zoom * dist) / mode.startDist,
          mode.startMid,
        )
        this.startViewGesture()
        this.setView({
          ...zoomed,
          panX: zoomed.panX + mid.x - mode.startMid.x,
          panY: zoomed.panY + mid.y - mode.startMid.y,
        })
        return
      }
      case 'pan': {
        const dx = p.x - mode.last.x
        const dy = p.y - mode.last.y
        if (Math.abs(dx) + Math.abs(dy) > 0) {
          if (mode.touch && !mode.moved && Math.hypot(dx, dy) < 6) return
          mode.moved = true
          this.clearLongPress()
          mode.last = p
          this.startViewGesture()
          this.setView({
            ...this.host.view,
            panX: this.host.view.panX + dx,
            panY: this.host.view.panY + dy,
          })
        }
        return
      }
      case 'pending': {
        const slop = e.pointerType === 'touch' ? 8 : 4
        if (Math.hypot(p.x - mode.start.x, p.y - mode.start.y) < slop) return
        this.clearLongPress()
        const keys = this.host.store.getState().selection.filter((k) => worldBox(this.host, k))
        if (mode.shift || !keys.includes(mode.key)) {
          this.mode = { kind: 'idle' }
          return
        }
        const origin = new Map(keys.map((k) => [k, worldBox(this.host, k)!]))
        this.mode = {
          kind: 'move',
          start: mode.start,
          keys,
          origin,
          primary: mode.key,
          targets: null,
        }
        this.host.setCursor('grabbing')
        this.startGesture(keys)
        this.dragTo(p)
        return
      }
      case 'move':
        this.dragTo(p)
        return
      case 'resize':
        this.startGesture([mode.key])
        this.resizeTo(p, e.shiftKey)
        return
      case 'rotate':
        this.startGesture([mode.key])
        this.rotateTo(p, e.shiftKey)
        return
      case 'marquee':
        mode.current = p
        this.overlay.marquee = rectFromPoints(mode.start, p)
        this.host.drawOverlay(this.overlay)
        return
      default:
        return
    }
  }

  private onUp = (e: PointerEvent) => {
    if (!this.pointers.has(e.pointerId)) return
    this.pointers.delete(e.pointerId)
    this.clearLongPress()
    const mode = this.mode
    if (mode.kind === 'pinch') {
      // The other finger lifts later; nothing else starts from a pinch.
      if (this.pointers.size === 0) this.mode = { kind: 'idle' }
      else this.mode = { kind: 'menu' }
      this.endViewGesture()
      return
    }
    if (this.pointers.size > 0) return
    this.mode = { kind: 'idle' }
    this.host.setCursor(this.spaceHeld ? 'grab' : 'default')
    switch (mode.kind) {
      case 'pending':
        // A click on a block of a multi-selection selects just that block.
        if (!mode.shift && mode.wasSelected) this.host.store.select([mode.key])
        return
      case 'pan':
        this.endViewGesture()
        if (mode.touch && !mode.moved) this.host.store.clearSelection()
        return
      case 'move':
        this.commitMove(mode)
        return
      case 'resize':
      case 'rotate':
        this.commitBox(mode.key)
        return
      case 'marquee':
        this.commitMarquee(mode)
        return
      default:
        return
    }
  }

  private onCancel = (e: PointerEvent) => {
    this.pointers.delete(e.pointerId)
    this.clearLongPress()
    this.cancelPreview()
    this.mode = { kind: 'idle' }
    this.endViewGesture()
  }

  private onWheel = (e: WheelEvent) => {
    e.preventDefault()
    const scale = e.deltaMode === 1 ? 33 : e.deltaMode === 2 ? 400 : 1
    const dx = e.deltaX * scale
    const dy = e.deltaY * scale
    // A scroll is a run of wheel events; during a drag the frozen scene gives way instead.
    if (!this.gestureLive) {
      this.startViewGesture()
      this.clearWheelIdle()
      this.wheelIdle = setTimeout(() => {
        this.wheelIdle = null
        this.endViewGesture()
      }, WHEEL_IDLE_MS)
    }
    if (e.ctrlKey || e.metaKey) {
      const view = this.host.view
      this.setView(zoomAt(view, view.zoom * Math.exp(-dy * 0.0025), this.point(e)))
    } else if (e.shiftKey && dx === 0) {
      this.setView({ ...this.host.view, panX: this.host.view.panX - dy })
    } else {
      this.setView({
        ...this.host.view,
        panX: this.host.view.panX - dx,
        panY: this.host.view.panY - dy,
      })
    }
  }

  private onContextMenu = (e: MouseEvent) => {
    e.preventDefault()
    const p = this.point(e)
    const key = this.blockAt(this.world(p), 0)
    if (key && !this.host.store.getState().selection.includes(key)) this.host.store.select([key])
    this.host.onContextMenu(p, key)
  }

  private onKey = (e: KeyboardEvent) => {
    if (e.code !== 'Space' || isTyping(e.target)) return
    e.preventDefault()
    this.spaceHeld = e.type === 'keydown'
    if (this.mode.kind === 'idle') this.host.setCursor(this.spaceHeld ? 'grab' : 'default')
  }

  private onBlur = () => {
    this.spaceHeld = false
  }

  private hover(p: Point) {
    if (this.spaceHeld) return
    const handle = this.handleAt(p, false)
    if (handle) {
      this.host.setCursor(handle.handle === 'rotate' ? 'alias' : cursorFor(handle.handle))
      return
    }
    this.host.setCursor(this.blockAt(this.world(p), 0) ? 'move' : 'default')
  }

  private startLongPress(p: Point, key: string | null) {
    this.clearLongPress()
    this.longPress = setTimeout(() => {
      this.longPress = null
      this.cancelPreview()
      this.mode = { kind: 'menu' }
      if (key && !this.host.store.getState().selection.includes(key)) this.host.store.select([key])
      this.host.onContextMenu(p, key)
    }, LONG_PRESS_MS)
  }

  private clearLongPress() {
    if (this.longPress) clearTimeout(this.longPress)
    this.longPress = null
  }

  private clearWheelIdle() {
    if (this.wheelIdle) clearTimeout(this.wheelIdle)
    this.wheelIdle = null
  }

  /** Once per pan or pinch, on its first move of the view (a tap costs nothing). */
  private startViewGesture() {
    if (this.viewLive) return
    this.viewLive = true
    this.host.beginViewGesture()
  }

  /** Ends the pan or pinch unless fingers or a scroll still move the view. */
  private endViewGesture() {
    if (!this.viewLive) return
    const moving = this.mode.kind === 'pan' || this.mode.kind === 'pinch'
    if (moving || this.wheelIdle !== null) return
    this.viewLive = false
    this.host.endViewGesture()
  }

  private setView(view: Viewport) {
    Object.assign(this.host.view, view)
    this.host.applyView()
  }

  // -- previews --------------------------------------------------------------------------------

  /** Once per gesture, on its first move (a tap on a handle changes nothing and costs nothing). */
  private startGesture(keys: readonly string[]) {
    if (this.gestureLive) return
    this.gestureLive = true
    this.host.beginGesture(keys)
  }

  /** Shows `box` for `key` by moving, turning and stretching its display object. */
  private preview(key: string, box: Box) {
    const origin = worldBox(this.host, key)
    const container = this.host.containers.get(key)
    const frame = this.frameOf(key)
    if (!origin || !container || !frame) return
    container.position.set(box.cx - frame.left, box.cy - frame.top)
    container.rotation = (box.rotation * Math.PI) / 180
    container.scale.set(
      origin.width > 0 ? box.width / origin.width : 1,
      origin.height > 0 ? box.height / origin.height : 1,
    )
    this.overlay.previews.set(key, box)
  }

  /** Puts display objects back where the store has them (React then applies the committed state). */
  private cancelPreview() {
    if (this.gestureLive) {
      this.gestureLive = false
      this.host.endGesture()
    }
    for (const key of this.overlay.previews.keys()) {
      const origin = worldBox(this.host, key)
      const container = this.host.containers.get(key)
      const frame = this.frameOf(key)
      if (!origin || !container || !frame) continue
      container.position.set(origin.cx - frame.left, origin.cy - frame.top)
      container.rotation = (origin.rotation * Math.PI) / 180
      container.scale.set(1, 1)
    }
    this.overlay = { previews: new Map(), guides: [], marquee: null }
    this.host.drawOverlay(this.overlay)
  }

  private frameOf(key: string): Rect | undefined {
    const block = this.host.store.get(key)
    return block ? this.host.frames().get(block.bg_id) : undefined
  }

  private dragTo(p: Point) {
    const mode = this.mode
    if (mode.kind !== 'move') return
    const zoom = this.host.view.zoom
    let dx = (p.x - mode.start.x) / zoom
    let dy = (p.y - mode.start.y) / zoom
    const primary = mode.origin.get(mode.primary)!
    const frame = this.frameOf(mode.primary)
    const grid = this.host.grid()
    if (frame && grid.enabled) {
      const moved = { ...primary, cx: primary.cx + dx, cy: primary.cy + dy }
      const snapped = snapBoxToGrid(moved, frame, grid.size)
      dx += snapped.cx - moved.cx
      dy += snapped.cy - moved.cy
    }
    // Guides to the background and to the other blocks of the same background win over the grid.
    let guides: Guide[] = []
    if (frame) {
      const group = unionRect(
        [...mode.origin.values()].map((b) => boundingBox({ ...b, cx: b.cx + dx, cy: b.cy + dy })),
      )
      const block = this.host.store.get(mode.primary)!
      // Per pointer move this would measure every block of the background again (a thousand).
      mode.targets ??= [
        frame,
        ...this.host.store
          .keysOf(block.bg_id)
          .filter((k) => !mode.origin.has(k))
          .flatMap((k) => {
            const b = worldBox(this.host, k)
            return b ? [boundingBox(b)] : []
          }),
      ]
      const found = findGuides(group, mode.targets, GUIDE_THRESHOLD / zoom)
      dx += found.dx
      dy += found.dy
      guides = found.guides
    }
    for (const [key, box] of mode.origin)
      this.preview(key, { ...box, cx: box.cx + dx, cy: box.cy + dy })
    this.overlay.guides = guides
    this.host.drawOverlay(this.overlay)
  }

  private resizeTo(p: Point, shift: boolean) {
    const mode = this.mode
    if (mode.kind !== 'resize') return
    const block = this.host.store.get(mode.key)
    const frame = this.frameOf(mode.key)
    if (!block || !frame) return
    let world = this.world(p)
    const grid = this.host.grid()
    if (grid.enabled && mode.origin.rotation === 0) {
      world = {
        x: snapValue(world.x, grid.size, frame.left),
        y: snapValue(world.y, grid.size, frame.top),
      }
    }
    const corner = mode.handle.length === 2
    // The type's handles (blocks/<type>.ts): text and cards keep their proportions at the corners;
    // pictures and videos too while the person keeps them (the default); Shift turns it around.
    const handles = BLOCK_DEFINITIONS[block.type].handles
    const keeps =
      handles.cornerAspect === 'always' ||
      (handles.cornerAspect === 'switchable' && this.host.store.getState().keepAspect)
    const keepAspect = corner && keeps !== shift
    let box = resizeBox(mode.origin, mode.handle, world, {
      keepAspect,
      min: handles.minScreenPx / this.host.view.zoom,
    })
    if (handles.heightFollows === 'ratio' && !corner) {
      // Width only: the height keeps the card's proportions (a text's follows its lines).
      const ratio = mode.origin.width > 0 ? box.width / mode.origin.width : 1
      box = { ...box, height: mode.origin.height * ratio }
    }
    this.preview(mode.key, box)
    this.host.drawOverlay(this.overlay)
  }

  private rotateTo(p: Point, shift: boolean) {
    const mode = this.mode
    if (mode.kind !== 'rotate') return
    const world = this.world(p)
    let rotation = rotationTowards(
      { x: mode.origin.cx, y: mode.origin.cy },
      world,
      shift ? 15 : undefined,
    )
    // Soft snap to the right angles.
    const nearest = Math.round(rotation / 45) * 45
    if (!shift && Math.abs(rotation - nearest) < 3) rotation = nearest === -180 ? 180 : nearest
    this.preview(mode.key, { ...mode.origin, rotation })
    this.host.drawOverlay(this.overlay)
  }

  // -- commits ---------------------------------------------------------------------------------

  private patchFor(key: string, box: Box): Patch | null {
    const block = this.host.store.get(key)
    const frame = this.frameOf(key)
    const origin = worldBox(this.host, key)
    if (!block || !frame || !origin) return null
    const stored = screenToStored(box, frame)
    const patch: Patch = { x: stored.x, y: stored.y, rotation: stored.rotation }
    if (Math.abs(box.width - origin.width) > 1e-9) patch.width = stored.width
    if (hasStoredHeight(block.type) && Math.abs(box.height - origin.height) > 1e-9)
      patch.height = stored.height
    if (
      BLOCK_DEFINITIONS[block.type].handles.scalesFont &&
      'fontSize' in block &&
      patch.width !== undefined &&
      Math.abs(box.height - origin.height) > 1e-9
    ) {
      // A corner drag of a text scales its font with the width.
      patch.fontSize = block.fontSize * (box.width / origin.width)
    }
    return patch
  }

  private commitMove(mode: Extract<Mode, { kind: 'move' }>) {
    const updates = [...this.overlay.previews].flatMap(([key, box]) => {
      const patch = this.patchFor(key, box)
      return patch ? [{ key, patch: { x: patch.x, y: patch.y } }] : []
    })
    void mode
    this.cancelPreview()
    this.host.store.setGeometry(updates)
  }

  private commitBox(key: string) {
    const box = this.overlay.previews.get(key)
    const patch = box ? this.patchFor(key, box) : null
    this.cancelPreview()
    if (patch) this.host.store.setGeometry([{ key, patch }])
  }

  private commitMarquee(mode: Extract<Mode, { kind: 'marquee' }>) {
    const rect = rectFromPoints(this.world(mode.start), this.world(mode.current))
    this.overlay.marquee = null
    this.host.drawOverlay(this.overlay)
    if (rect.width * this.host.view.zoom < 3 && rect.height * this.host.view.zoom < 3) {
      if (!mode.additive) this.host.store.clearSelection()
      return
    }
    const hits: string[] = []
    for (const bgId of this.host.frames().keys()) {
      for (const key of this.host.store.keysOf(bgId)) {
        const box = worldBox(this.host, key)
        if (box && rectsIntersect(boundingBox(box), rect)) hits.push(key)
      }
    }
    this.host.store.select(hits, mode.additive)
  }
}

function cursorFor(handle: Handle): string {
  switch (handle) {
    case 'n':
    case 's':
      return 'ns-resize'
    case 'e':
    case 'w':
      return 'ew-resize'
    case 'ne':
    case 'sw':
      return 'nesw-resize'
    default:
      return 'nwse-resize'
  }
}
