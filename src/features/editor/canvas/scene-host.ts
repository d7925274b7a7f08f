import type { Application, Container, Graphics } from 'pixi.js'
import {
  boxCorners,
  clampZoom,
  handlePoint,
  screenToWorld,
  worldToScreen,
  zoomAt,
  type Point,
  type Rect,
  type Viewport,
} from '../../../domain/geometry.ts'
import type { LocalBlock } from '../editor-data.ts'
import { blockBox } from '../model/block-shape.ts'
import type { EditorStore } from '../model/editor-store.ts'
import type { EditorKind } from '../model/layout.ts'
import { DragLayer } from './drag-layer.ts'
import { guideRect, type ScreenRect } from './drag-layer-geometry.ts'
import { GestureCache } from './gesture-cache.ts'
import {
  handlesOf,
  MeasuredSizes,
  rotateHandlePoint,
  toScreenBox,
  worldBox,
  type GestureKind,
  type InteractionHost,
  type OverlayState,
} from './interaction.ts'
import { OnDemandRender } from './on-demand-render.ts'
import { paragraphsResting } from './pixel-text.ts'
import { worldDrawables } from './scene-container.ts'

/** What the page can ask of the canvas (zoom buttons, going to a background). */
export interface CanvasController {
  zoomBy(factor: number): void
  setZoom(zoom: number): void
  fit(): void
  /** The canvas's box changed without the window resizing (a side panel): resize and fit. */
  refit(): void
  reveal(bgId: number): void
}

/**
 * Where the canvas draws one block, read from its display object (browser journeys check that a
 * block is drawn where it was left, and that the server holds the same place).
 */
export interface CanvasBlockProbe {
  key: string
  /** Server id, negative while local, null before the first save. */
  id: number | null
  type: string
  bg_id: number
  /** The block's centre on the page, in CSS px. */
  clientX: number
  clientY: number
  /** The same centre as stored: offset from the background's centre on the 200-unit basis. */
  x: number
  y: number
  /** The words drawn in the block (its Pixi texts, in drawing order). */
  texts: string[]
  /** The block's box on the page before rotation, in CSS px (a text's as measured). */
  width: number
  height: number
}

/** A block's box in page px: its stored box at `pxPerUnit`. */
function boxOnPage(
  block: LocalBlock,
  frame: Rect,
  measured: number | undefined,
  pxPerUnit: number,
): { width: number; height: number } {
  const box = blockBox(block, frame, measured)
  return { width: box.width * pxPerUnit, height: box.height * pxPerUnit }
}

/** The texts under a display object, depth first. */
function textsOf(container: Container): string[] {
  const texts: string[] = []
  const visit = (node: Container) => {
    const text = (node as Container & { text?: unknown }).text
    if (typeof text === 'string') texts.push(text)
    for (const child of node.children) visit(child)
  }
  visit(container)
  return texts
}

export interface SceneCallbacks {
  onZoomChange: (zoom: number) => void
  onActiveBackground: (bgId: number) => void
  onContextMenu: (point: Point, key: string | null) => void
}

const SELECTION = 0x228be6
const GUIDE = 0xf03e3e
const MARGIN = 40
/** The most selected blocks the painter places the changes of (`trackSelection`). */
const SELECTED_TRACKED = 100
const emptyOverlay: OverlayState = { previews: new Map(), guides: [], marquee: null }

/**
 * The canvas's mutable side, outside React: the viewport, the display objects by block key, measured
 * text heights and the overlay. React renders the scene; this object moves it between renders.
 */
export class SceneHost implements InteractionHost, CanvasController {
  view: Viewport = { zoom: 1, panX: 0, panY: 0 }
  containers = new Map<string, Container>()
  measuredPx = new MeasuredSizes()
  private overlayState: () => OverlayState = () => emptyOverlay
  private app: Application | null = null
  private world: Container | null = null
  private overlay: Graphics | null = null
  private element: HTMLElement | null = null
  private framesNow = new Map<number, Rect>()
  private gridNow = { enabled: true, size: 20 }
  private kind: EditorKind = 'landing'
  private callbacks: SceneCallbacks | null = null
  private lastActive: number | null = null
  private lastZoom = 0
  private painter: OnDemandRender | null = null
  private cache: GestureCache | null = null
  /** A pan's picture left on the canvas at its end, once the frame under way is drawn. */
  private panEnding: object | null = null
  /** Pans and pinches that ended with the canvas already showing the scene (the test build reads it). */
  private pansKept = 0
  private layer: DragLayer | null = null
  /** While the drag layer shows a move: one moving block's world centre where it was drawn. */
  private layerOrigin: { key: string; cx: number; cy: number } | null = null
  /** The moving blocks of the gesture under way (a drag layer that gives way freezes the rest). */
  private moving: Set<Container> = new Set()
  /** The selection the painter tracks (`trackSelection`), its keys joined. */
  private trackedSelection = ''
  /** Frames presented: Pixi's frames and the drag layer's moves (the benchmark reads them). */
  private presented = 0

  constructor(readonly store: EditorStore) {}

  /** Latest props from React. */
  update(next: {
    frames: Map<number, Rect>
    grid: { enabled: boolean; size: number }
    kind: EditorKind
    callbacks: SceneCallbacks
  }) {
    this.framesNow = next.frames
    this.gridNow = next.grid
    this.kind = next.kind
    this.callbacks = next.callbacks
  }

  attachApp(app: Application | null, element: HTMLElement | null) {
    this.dropCache()
    this.app?.renderer?.off('resize', this.onResize)
    this.painter?.destroy()
    this.painter = null
    this.app = app
    this.element = element
    if (!app) return
    this.painter = new OnDemandRender(app, this.countFrame)
    this.painter.drawOnly(() => (this.world ? worldDrawables(this.world) : []))
    this.trackedSelection = ''
    if (this.world) this.painter.watch(this.world)
    if (this.overlay) this.painter.track('overlay', [this.overlay], undefined, true)
    app.renderer.on('resize', this.onResize)
  }
  /**
   * One more frame presented: Pixi drew the stage, or the drag layer showed the moving blocks at a
   * new place. The benchmark counts them (`data-frames`) and checks an idle editor shows none.
   */
  private countFrame = () => {
    this.presented += 1
    if (import.meta.env.VITE_TEST_HOOKS === '1' && this.element)
      this.element.dataset.frames = String(this.presented)
  }

  setOverlaySource(source: () => OverlayState) {
    this.overlayState = source
  }
  setWorld = (c: Container | null) => {
    this.dropCache()
    this.world = c
    if (!c) return
    this.painter?.watch(c)
    this.applyView()
  }
  setOverlay = (g: Graphics | null) => {
    this.overlay = g
    // The selection, guides and marquee: a change of them draws where they were and are.
    if (g) this.painter?.track('overlay', [g], undefined, true)
    else this.painter?.untrack('overlay')
  }
  register = (key: string, c: Container | null) => {
    if (c) this.containers.set(key, c)
    else this.containers.delete(key)
  }
  onMeasured = (key: string, px: number) => {
    this.measuredPx.set(key, px)
  }
  /** Text heights in stored units, for the store's geometry. */
  measureUnits = (key: string): number | undefined => {
    const block = this.store.get(key)
    const frame = block && this.framesNow.get(block.bg_id)
    const px = this.measuredPx.get(key)
    return frame && px !== undefined ? px / (frame.width / 200) : undefined
  }

  frames = () => this.framesNow
  grid = () => this.gridNow

  private screenSize(): { width: number; height: number } {
    return this.app
      ? { width: this.app.screen.width, height: this.app.screen.height }
      : { width: 0, height: 0 }
  }

  // -- gestures ----------------------------------------------------------------------------------

  /**
   * A drag, resize or rotate of `keys` starts: the rest of the scene is drawn once, not per move.
   * A move is shown by the compositor drag layer when it can be (docs/editor.md «Drawing»).
   */
  beginGesture(keys: readonly string[], kind: GestureKind) {
    if (!this.app || !this.world) return
    this.cache ??= new GestureCache(this.app, this.world)
    const moving = new Set(keys.flatMap((key) => this.containers.get(key) ?? []))
    this.moving = moving
    if (kind === 'move' && this.beginLayer(keys, moving)) return
    this.cache.begin(moving)
  }

  endGesture() {
    this.endLayer()
    this.cache?.end()
    this.moving = new Set()
  }

  private beginLayer(keys: readonly string[], moving: Set<Container>): boolean {
    const app = this.app
    const overlay = this.overlay
    const element = this.element
    const first = keys.find((key) => this.containers.has(key))
    const origin = first !== undefined ? worldBox(this, first) : null
    if (!app || !this.world || !overlay || !element || !origin || !this.painter) return false
    // Under Pixi's ticker every frame is drawn anyway: nothing to save.
    if (this.painter.mode !== 'on-demand') return false
    this.cache?.end()
    const painter = this.painter
    const world = this.world
    this.layer ??= new DragLayer(app, world, overlay, element, this.countFrame)
    const layer = this.layer
    // What the layer changes in Pixi (the overlay without guides, the blocks and the selection
    // hidden) lies inside its rectangle: only that is drawn again (below).
    const begun = painter.hold(() => {
      // The overlay as it shows at the start: the selection, no guides yet.
      this.drawOverlay({ previews: new Map(), guides: [], marquee: null })
      const drawables = worldDrawables(world)
      const from = drawables.findIndex((d) => moving.has(d))
      const over = drawables.slice(from + 1).filter((d) => !moving.has(d))
      return from >= 0 && layer.begin(moving, over)
    })
    if (!begun) {
      painter.request()
      return false
    }
    this.layerOrigin = { key: first!, cx: origin.cx, cy: origin.cy }
    painter.quiet(new Set(layer.shownByLayer))
    // The blocks and the selection are hidden in Pixi and shown by the layer: the next frame
    // draws the still scene where they were, not the whole scene (`damage.ts`).
    const lifted = layer.drawnAt
    if (lifted) painter.redraw(lifted)
    return true
  }

  /** The drag layer gives way: Pixi shows the blocks and the overlay again. */
  private endLayer() {
    const painter = this.painter
    const layer = this.layer
    // The blocks go back to Pixi: the next frame draws where the drag began (Pixi's picture may
    // still show them there, if the drag ended before the frame that lifted them) and where they
    // are now, not the whole scene.
    if (!painter) {
      layer?.end()
    } else if (layer?.active) {
      painter.track('released', layer.shownByLayer, layer.drawnAt)
      painter.quiet(null)
      // Showing the blocks and the selection again changes them alone.
      painter.tracked('released', () => layer.end((remove) => painter.whenDrawn(remove)))
    } else {
      painter.quiet(null)
      layer?.end((remove) => painter.whenDrawn(remove))
    }
    this.layerOrigin = null
  }

  /**
   * Shows a move on the drag layer; false if it has given way (it would cover something drawn
   * over the blocks), in which case the drag goes on with the frozen scene.
   */
  private moveLayer(overlay: OverlayState): boolean {
    const layer = this.layer
    const origin = this.layerOrigin
    if (!layer?.active || !origin) return false
    const box = overlay.previews.get(origin.key)
    const zoom = this.view.zoom
    const dx = box ? (box.cx - origin.cx) * zoom : 0
    const dy = box ? (box.cy - origin.cy) * zoom : 0
    const guides: ScreenRect[] = overlay.guides.map((guide) => {
      const vertical = guide.axis === 'v'
      const a = worldToScreen(
        vertical ? { x: guide.pos, y: guide.from } : { x: guide.from, y: guide.pos },
        this.view,
      )
      const b = worldToScreen(
        vertical ? { x: guide.pos, y: guide.to } : { x: guide.to, y: guide.pos },
        this.view,
      )
      return guideRect(a, b)
    })
    if (layer.move(dx, dy, guides)) return true
    this.endLayer()
    this.cache?.begin(this.moving)
    return false
  }

  /** A pan or pinch starts: the world is drawn once and the picture follows the view. */
  beginViewGesture() {
    if (!this.app || !this.world) return
    this.cache ??= new GestureCache(this.app, this.world)
    // A pan that has just ended and is still on the canvas goes on with its picture.
    this.panEnding = null
    // A drag's frozen scene gives way on the view change itself (applyView), as before.
    if (this.cache.active) return
    // The canvas's own pixels start the picture when they show the world as it is now (not while
    // the drag layer shows blocks the canvas does not).
    const current = (this.painter?.current ?? false) && !this.layer?.active
    this.cache.beginView(this.view, current ? { overlay: this.overlayRect() } : null)
  }

  /** Where the overlay draws on the canvas (screen px), or null when it draws nothing. */
  private overlayRect(): ScreenRect | null {
    const overlay = this.overlay
    if (!overlay || overlay.destroyed || !overlay.visible) return null
    const b = overlay.getBounds()
    return b.width > 0 && b.height > 0 ? { x: b.x, y: b.y, width: b.width, height: b.height } : null
  }

  /**
   * The pan or pinch is over. After a pinch the live scene is drawn again, crisp at the new zoom.
   * After a pan the canvas may already show what that frame would draw, pixel for pixel: the
   * picture at the zoom it was taken, on whole pixels, and nothing changed in the world since.
   * Then the picture goes without a frame (docs/editor.md «The end of a pan»): among 1,000 blocks
   * in software a whole frame held the view for about 150 ms after the hand let go.
   */
  endViewGesture() {
    const cache = this.cache
    const painter = this.painter
    if (!cache?.following) return
    if (!painter || !cache.showsWorldAt(this.view)) return cache.end()
    // The frame under way (the last move's) draws the picture where it ends; once it is drawn,
    // the canvas shows the world as it is.
    const picture = cache.viewPicture
    this.panEnding = picture
    painter.whenDrawn(() => {
      if (this.panEnding !== picture) return
      this.panEnding = null
      if (cache !== this.cache || cache.viewPicture !== picture) return
      if (painter.current && cache.showsWorldAt(this.view)) {
        // Showing the world again and taking the picture away change nothing on the canvas.
        painter.hold(() => cache.end())
        this.pansKept += 1
      } else cache.end()
    })
  }

  private dropCache() {
    this.endLayer()
    this.layer = null
    this.cache?.end()
    this.cache = null
  }

  /** The frozen pictures are screen-sized: a resized canvas shows the live scene again. */
  private onResize = () => {
    this.endLayer()
    this.cache?.end()
  }

  applyView() {
    if (this.world) {
      this.world.scale.set(this.view.zoom)
      this.world.position.set(this.view.panX, this.view.panY)
    }
    // A pan or pinch picture follows the view; a drag's frozen pictures and its layer match one
    // view only.
    this.endLayer()
    if (this.cache?.following) this.cache.follow(this.view)
    else this.cache?.end()
    this.drawOverlay(this.overlayState())
    if (Math.abs(this.view.zoom - this.lastZoom) > 1e-4) {
      this.lastZoom = this.view.zoom
      this.callbacks?.onZoomChange(this.view.zoom)
    }
    // In a landing, the section showing most on screen (the upper one on a tie) is being edited.
    if (this.kind === 'landing' && this.app) {
      const size = this.screenSize()
      const top = screenToWorld({ x: 0, y: 0 }, this.view).y
      const bottom = screenToWorld({ x: 0, y: size.height }, this.view).y
      let best: number | null = null
      let bestShown = 0
      for (const [id, f] of this.framesNow) {
        const shown = Math.min(bottom, f.top + f.height) - Math.max(top, f.top)
        if (shown > bestShown + 1e-6) {
          best = id
          bestShown = shown
        }
      }
      if (best !== null && best !== this.lastActive) {
        this.lastActive = best
        this.callbacks?.onActiveBackground(best)
      }
    }
  }

  onContextMenu(point: Point, key: string | null) {
    this.callbacks?.onContextMenu(point, key)
  }

  onActiveBackground(bgId: number) {
    this.lastActive = bgId
    this.callbacks?.onActiveBackground(bgId)
  }

  setCursor(cursor: string) {
    if (this.element) this.element.style.cursor = cursor
  }

  // -- controller ------------------------------------------------------------------------------

  fit = () => {
    const all = [...this.framesNow.values()]
    const { width: sw, height: sh } = this.screenSize()
    if (all.length === 0 || sw === 0) return
    const first = all[0]!
    const zoom =
      this.kind === 'landing'
        ? clampZoom((sw - 2 * MARGIN) / first.width)
        : clampZoom(Math.min((sw - 2 * MARGIN) / first.width, (sh - 2 * MARGIN) / first.height))
    this.view.zoom = zoom
    this.view.panX = (sw - first.width * zoom) / 2 - first.left * zoom
    this.view.panY =
      this.kind === 'landing' ? MARGIN - first.top * zoom : (sh - first.height * zoom) / 2
    this.applyView()
  }

  refit = () => {
    // Pixi follows the window's resize only; the host's new size is read here.
    this.app?.resize()
    this.fit()
  }

  zoomBy = (factor: number) => this.setZoom(this.view.zoom * factor)

  setZoom = (zoom: number) => {
    const { width, height } = this.screenSize()
    Object.assign(this.view, zoomAt(this.view, zoom, { x: width / 2, y: height / 2 }))
    this.applyView()
  }

  /**
   * Shows a block at `zoom`: its centre in the middle of the canvas, or its top left corner (before
   * rotation) at the page point `corner` (browser checks compare it to the preview pixel by pixel).
   */
  lookAt = (key: string, zoom: number, corner?: Point) => {
    const container = this.containers.get(key)
    const block = this.store.get(key)
    const frame = block && this.framesNow.get(block.bg_id)
    if (!container || !this.world || !block || !frame) return
    const { width, height } = this.screenSize()
    const at = this.world.toLocal(container.getGlobalPosition())
    this.view.zoom = zoom
    this.view.panX = width / 2 - at.x * zoom
    this.view.panY = height / 2 - at.y * zoom
    if (corner) {
      const page = this.element?.getBoundingClientRect() ?? { left: 0, top: 0 }
      const size = boxOnPage(block, frame, this.measureUnits(key), (frame.width / 200) * zoom)
      this.view.panX = corner.x - page.left + size.width / 2 - at.x * zoom
      this.view.panY = corner.y - page.top + size.height / 2 - at.y * zoom
    }
    this.applyView()
  }

  reveal = (bgId: number) => {
    const f = this.framesNow.get(bgId)
    if (!f) return
    const top = worldToScreen({ x: f.left, y: f.top }, this.view)
    this.view.panY += MARGIN - top.y
    this.applyView()
  }

  // -- overlay ---------------------------------------------------------------------------------

  /** Selection outlines, handles, guides and the marquee, in screen px (crisp at any zoom). */
  drawOverlay(overlay: OverlayState) {
    // While the drag layer shows the move, the selection moves with it and Pixi draws nothing.
    if (this.layer?.active && this.moveLayer(overlay)) return
    const g = this.overlay
    if (!g || g.destroyed) return
    g.clear()
    const view = this.view
    const { selection } = this.store.getState()
    this.trackSelection(selection)
    for (const key of selection) {
      const box = overlay.previews.get(key) ?? worldBox(this, key)
      if (!box) continue
      const corners = boxCorners(toScreenBox(box, view))
      g.poly(corners.flatMap((p) => [p.x, p.y])).stroke({ width: 1.5, color: SELECTION })
    }
    if (selection.length === 1) {
      const key = selection[0]!
      const block = this.store.get(key)
      const box = overlay.previews.get(key) ?? worldBox(this, key)
      if (block && box) {
        const screen = toScreenBox(box, view)
        const top = handlePoint(screen, 'n')
        const rotate = rotateHandlePoint(screen)
        g.moveTo(top.x, top.y).lineTo(rotate.x, rotate.y).stroke({ width: 1.5, color: SELECTION })
        g.circle(rotate.x, rotate.y, 7)
          .fill({ color: 0xffffff })
          .stroke({ width: 1.5, color: SELECTION })
        for (const handle of handlesOf(block)) {
          const p = handlePoint(screen, handle)
          g.rect(p.x - 6, p.y - 6, 12, 12)
            .fill({ color: 0xffffff })
            .stroke({ width: 1.5, color: SELECTION })
        }
      }
    }
    for (const guide of overlay.guides) {
      const vertical = guide.axis === 'v'
      const a = worldToScreen(
        vertical ? { x: guide.pos, y: guide.from } : { x: guide.from, y: guide.pos },
        view,
      )
      const b = worldToScreen(
        vertical ? { x: guide.pos, y: guide.to } : { x: guide.to, y: guide.pos },
        view,
      )
      g.moveTo(a.x, a.y).lineTo(b.x, b.y).stroke({ width: 1, color: GUIDE })
    }
    if (overlay.marquee) {
      const m = overlay.marquee
      g.rect(m.left, m.top, m.width, m.height)
        .fill({ color: SELECTION, alpha: 0.08 })
        .stroke({ width: 1, color: SELECTION })
    }
  }

  /**
   * The selected blocks are the painter's kept group `selected`: a nudge or an inspector's change
   * of them draws where they were and are (`damage.ts`). Beyond `SELECTED_TRACKED` blocks their
   * bounds cost more than they save, and every change draws everything.
   */
  private trackSelection(selection: readonly string[]) {
    const painter = this.painter
    const key = selection.join('\n')
    if (!painter || key === this.trackedSelection) return
    this.trackedSelection = key
    const objects =
      selection.length <= SELECTED_TRACKED
        ? selection.flatMap((k) => this.containers.get(k) ?? [])
        : []
    if (objects.length > 0) painter.trackAsDrawn('selected', objects)
    else painter.untrack('selected')
  }

  redrawOverlay() {
    this.drawOverlay(this.overlayState())
  }

  /** Frames drawn inside a rectangle only, the rest of the picture kept (the test build reads it). */
  limitedFrames = (): number => this.painter?.limitedFrames ?? 0

  /**
   * Nothing is waiting to be drawn: no frame asked for, no paragraph waiting for the view to rest
   * (a journey reads the canvas's pixels then).
   */
  settled = (): boolean => !(this.painter?.scheduler.waiting ?? false) && paragraphsResting() === 0

  /** Draws the whole scene again on the next frame (a journey compares it with a limited one). */
  drawWhole = () => this.painter?.request()

  /** Pan and pinch pictures begun from the canvas's pixels, strips drawn into them, pans kept. */
  panPictures = () => ({
    copied: this.cache?.picturesCopied ?? 0,
    strips: this.cache?.stripsFilled ?? 0,
    kept: this.pansKept,
  })

  /** Every block as drawn now (mid-drag too: display objects move before the store does). */
  probe(): CanvasBlockProbe[] {
    const page = this.element?.getBoundingClientRect() ?? { left: 0, top: 0 }
    const blocks: CanvasBlockProbe[] = []
    for (const [key, container] of this.containers) {
      const block = this.store.get(key)
      const frame = block && this.framesNow.get(block.bg_id)
      if (!block || !frame || container.destroyed) continue
      const unit = frame.width / 200
      const global = container.getGlobalPosition()
      blocks.push({
        key,
        id: block.id ?? null,
        type: block.type,
        bg_id: block.bg_id,
        clientX: page.left + global.x,
        clientY: page.top + global.y,
        x: (container.x - frame.width / 2) / unit,
        y: (container.y - frame.height / 2) / unit,
        texts: textsOf(container),
        ...boxOnPage(block, frame, this.measureUnits(key), unit * this.view.zoom),
      })
    }
    return blocks
  }
}
