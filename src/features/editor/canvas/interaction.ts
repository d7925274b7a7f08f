import { screenToWorld, zoomAt, type Point, type Viewport } from '../../../domain/geometry.ts'
import { isTyping } from '../keyboard.ts'
import { HitIndex, type HitIndexOptions } from './hit-index.ts'
import { cursorFor, handleAt } from './hit-test.ts'
import type { InteractionHost, OverlayState } from './interaction-host.ts'
import { Previews } from './previews.ts'
import { toolForPress } from './tools/down.ts'
import { enterPinch } from './tools/pinch.ts'
import { idle, menu, type Tool, type ToolContext } from './tools/tool.ts'

/**
 * The canvas's DOM wiring: pointer, wheel and keyboard events in, the current tool state
 * (`tools/`) out. Everything that happens per pointer move writes Pixi display objects directly
 * (`previews.ts`); the store hears about it once, on release, as one undo step. The modules and
 * what each owns: docs/editor.md «The editor core».
 */

export {
  MeasuredSizes,
  type GestureKind,
  type InteractionHost,
  type OverlayState,
} from './interaction-host.ts'
export { handlesOf, rotateHandlePoint, toScreenBox, worldBox } from './world-box.ts'

const LONG_PRESS_MS = 500
/** Wheel events this close together are one scroll (or trackpad pinch) of the view. */
const WHEEL_IDLE_MS = 150

export class CanvasInteraction {
  private tool: Tool = idle
  private pointers = new Map<number, { p: Point; type: string }>()
  private longPress: ReturnType<typeof setTimeout> | null = null
  private spaceHeld = false
  /** A pan or pinch (pointers or wheel) is moving the view and told the host so. */
  private viewLive = false
  private wheelIdle: ReturnType<typeof setTimeout> | null = null
  private previews: Previews
  private ctx: ToolContext

  constructor(
    private el: HTMLElement,
    private host: InteractionHost,
    options: HitIndexOptions = {},
  ) {
    this.previews = new Previews(host)
    this.ctx = {
      host,
      previews: this.previews,
      hits: new HitIndex(host, options),
      pointers: this.pointers,
      spaceHeld: () => this.spaceHeld,
      to: (tool) => {
        this.tool = tool
      },
      world: (p) => this.world(p),
      setView: (view) => this.setView(view),
      startViewGesture: () => this.startViewGesture(),
      endViewGesture: () => this.endViewGesture(),
      startLongPress: (p, key, before) => this.startLongPress(p, key, before),
      clearLongPress: () => this.clearLongPress(),
    }
  }

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
    return this.previews.overlay
  }

  private point(e: PointerEvent | WheelEvent | MouseEvent): Point {
    const r = this.el.getBoundingClientRect()
    return { x: e.clientX - r.left, y: e.clientY - r.top }
  }

  private world(p: Point): Point {
    return screenToWorld(p, this.host.view)
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
    if (this.pointers.size === 2) {
      // A second finger calls off whatever the first started and pinches.
      this.previews.cancel()
      this.tool = enterPinch(this.ctx)
      return
    }
    if (this.pointers.size > 2) return
    this.tool = toolForPress(this.ctx, p, e)
  }

  private onMove = (e: PointerEvent) => {
    const entry = this.pointers.get(e.pointerId)
    if (!entry) {
      if (e.pointerType === 'mouse') this.hover(this.point(e))
      return
    }
    e.preventDefault()
    entry.p = this.point(e)
    this.tool.move?.(entry.p, e)
  }

  private onUp = (e: PointerEvent) => {
    if (!this.pointers.has(e.pointerId)) return
    this.pointers.delete(e.pointerId)
    this.clearLongPress()
    const tool = this.tool
    if (tool.lift) {
      tool.lift(this.pointers.size)
      return
    }
    if (this.pointers.size > 0) return
    this.tool = idle
    this.host.setCursor(this.spaceHeld ? 'grab' : 'default')
    tool.up?.()
  }

  private onCancel = (e: PointerEvent) => {
    this.pointers.delete(e.pointerId)
    this.clearLongPress()
    this.previews.cancel()
    this.tool = idle
    this.endViewGesture()
  }

  private onWheel = (e: WheelEvent) => {
    e.preventDefault()
    const scale = e.deltaMode === 1 ? 33 : e.deltaMode === 2 ? 400 : 1
    const dx = e.deltaX * scale
    const dy = e.deltaY * scale
    // A scroll is a run of wheel events; during a drag the frozen scene gives way instead.
    if (!this.previews.gestureLive) {
      this.startViewGesture()
      this.clearWheelIdle()
      this.wheelIdle = setTimeout(() => {
        this.wheelIdle = null
        this.endViewGesture()
      }, WHEEL_IDLE_MS)
    }
    const view = this.host.view
    if (e.ctrlKey || e.metaKey) {
      this.setView(zoomAt(view, view.zoom * Math.exp(-dy * 0.0025), this.point(e)))
    } else if (e.shiftKey && dx === 0) {
      this.setView({ ...view, panX: view.panX - dy })
    } else {
      this.setView({ ...view, panX: view.panX - dx, panY: view.panY - dy })
    }
  }

  private onContextMenu = (e: MouseEvent) => {
    e.preventDefault()
    const p = this.point(e)
    const key = this.ctx.hits.blockAt(this.world(p), 0)
    if (key && !this.host.store.getState().selection.includes(key)) this.host.store.select([key])
    this.host.onContextMenu(p, key)
  }

  private onKey = (e: KeyboardEvent) => {
    if (e.code !== 'Space' || isTyping(e.target)) return
    e.preventDefault()
    this.spaceHeld = e.type === 'keydown'
    if (this.tool.kind === 'idle') this.host.setCursor(this.spaceHeld ? 'grab' : 'default')
  }

  private onBlur = () => {
    this.spaceHeld = false
  }

  private hover(p: Point) {
    if (this.spaceHeld) return
    const handle = handleAt(this.host, p, false)
    if (handle) {
      this.host.setCursor(handle.handle === 'rotate' ? 'alias' : cursorFor(handle.handle))
      return
    }
    this.host.setCursor(this.ctx.hits.blockAt(this.world(p), 0) ? 'move' : 'default')
  }

  private startLongPress(p: Point, key: string | null, before?: readonly string[]) {
    this.clearLongPress()
    this.longPress = setTimeout(() => {
      this.longPress = null
      this.previews.cancel()
      this.tool = menu
      // A long press adds the block to what was selected before the press (a finger has no Shift),
      // so the menu acts on the whole selection; a tap still selects one block alone.
      if (key) {
        const base = before ?? this.host.store.getState().selection
        this.host.store.select(base.includes(key) ? [...base] : [...base, key])
      }
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
    const moving = this.tool.kind === 'pan' || this.tool.kind === 'pinch'
    if (moving || this.wheelIdle !== null) return
    this.viewLive = false
    this.host.endViewGesture()
  }

  private setView(view: Viewport) {
    Object.assign(this.host.view, view)
    this.host.applyView()
  }
}
