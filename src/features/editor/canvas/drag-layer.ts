import { Matrix, RenderTexture, type Application, type Container } from 'pixi.js'
import {
  coversAbove,
  layerFits,
  layerRect,
  layerShift,
  unpremultiply,
  type ScreenRect,
} from './drag-layer-geometry.ts'
import { maxTextureSize } from './gl-limits.ts'
import { pausedChain, type Setter } from './paused-transform.ts'
import { browserClock, type FrameClock } from './render-scheduler.ts'
import { worldDrawables } from './scene-container.ts'

const GUIDE_COLOUR = '#f03e3e'

/**
 * The compositor drag layer (docs/editor.md «Drawing»). When blocks start to move, they and their
 * selection outline are drawn once by Pixi into a small texture at the renderer's resolution, read
 * back once into a 2D canvas of their size, and that canvas is shown over the Pixi canvas exactly
 * where they were. The blocks and the selection are hidden in Pixi, and the next Pixi frame draws
 * the layer's rectangle alone (`damage.ts`; the caller asks for it, `drawnAt`), so the still scene
 * shows there and the whole scene is not drawn again (a thousand blocks cost a software renderer
 * most of a second, in which nothing moved). Each
 * pointer move then only shifts the small canvas, which the browser's compositor does without
 * drawing anything: no full-screen WebGL frame per move, and, moved by paused animations
 * (paused-transform.ts), no layerizing of the page either. The snapping's guides are lines of DOM
 * over it, moved and sized the same way. On release (or anything else that ends it) the
 * live scene is drawn again where the blocks were and where they are (`damage.ts`: the rest of
 * Pixi's picture is kept), and the small canvas goes in the frame that shows it.
 *
 * It stays out of the way when it cannot be right: blocks larger than the screen, or a layer that
 * would cover something drawn over the moving blocks (a block above them, a later section), which
 * the layer, shown over the whole canvas, would wrongly hide (`begin` and `move` say so, and the
 * drag goes on drawn by the canvas).
 */
export class DragLayer {
  /**
   * The document the layer lives in: an empty frame over the host, made once, that lets the
   * pointer through. A move seeks the layer's animations there, so Blink's lifecycle work for it
   * (style, pre-paint) walks that small document, not the editor's page: in a page with 600 lines
   * of text beside the moved box, pre-paint went from 88 ms to 12 ms over 90 moves.
   */
  private frame: HTMLIFrameElement | null = null
  private canvas: HTMLCanvasElement | null = null
  /** Seeks the layer's shift, x then y (screen px). */
  private shift: Setter[] = []
  /**
   * What holds the layer's canvases and guides: a box over the whole host, contained (`contain:
   * strict`, `overflow: clip`), so a move of the layer changes nothing outside it. Without it,
   * every move's transform made Blink lay out the document again (the page's overflow, 13
   * objects of 3,764) and re-layerize it: about 1 ms of the main thread a move.
   */
  private box: HTMLDivElement | null = null
  private guideBox: HTMLDivElement | null = null
  /** Each pooled guide's setters: x, y, width, height (screen px). */
  private guideLines: Setter[][] = []
  private hidden: Container[] = []
  private rect: ScreenRect | null = null
  private over: ScreenRect[] = []
  private shown = { x: 0, y: 0 }
  private wanted = { x: 0, y: 0 }
  private guides: ScreenRect[] = []
  private guidesShown = ''
  private pending: number | null = null

  constructor(
    private readonly app: Application,
    private readonly world: Container,
    private readonly overlay: Container,
    private readonly element: HTMLElement,
    /** A frame in which the moving blocks show at a new place was presented. */
    private readonly countFrame: () => void,
    private readonly clock: FrameClock = browserClock,
  ) {}

  get active(): boolean {
    return this.canvas !== null
  }

  /**
   * Where the layer goes: the body of its frame (see `frame`), made on the first drag over the
   * whole host, above the canvas; the host itself where a frame has no document to offer.
   */
  private layerParent(): HTMLElement {
    const existing = this.frame?.isConnected ? this.frame.contentDocument?.body : null
    if (existing) return existing
    const frame = document.createElement('iframe')
    frame.title = ''
    frame.tabIndex = -1
    frame.setAttribute('aria-hidden', 'true')
    frame.dataset.testid = 'drag-layer-frame'
    Object.assign(frame.style, {
      position: 'absolute',
      inset: '0',
      width: '100%',
      height: '100%',
      border: '0',
      zIndex: '1',
      pointerEvents: 'none',
      background: 'transparent',
    })
    this.frame?.remove()
    this.element.append(frame)
    this.frame = frame
    const doc = frame.contentDocument
    if (!doc?.body) return this.element
    // Transparent over the canvas: the same colour scheme as the page around it, no margin.
    doc.documentElement.style.colorScheme = getComputedStyle(this.element).colorScheme
    Object.assign(doc.body.style, { margin: '0', background: 'transparent', overflow: 'hidden' })
    return doc.body
  }

  /**
   * Draws `moving` (display objects of the world) and the selection overlay into the layer and
   * hides them in Pixi. `over` are the still drawables after the first moving one in the scene's
   * order. False (and nothing changed) when the layer cannot show the drag correctly.
   */
  begin(moving: ReadonlySet<Container>, over: readonly Container[]): boolean {
    this.end()
    const renderer = this.app.renderer
    const stage = this.app.stage
    if (!renderer || !stage || this.world.destroyed || this.overlay.destroyed) return false
    const resolution = renderer.resolution
    const movingShown = [...moving].filter((c) => c.visible && !c.destroyed)
    if (movingShown.length === 0) return false
    const bounds = [...movingShown, this.overlay].map((c) => screenRect(c))
    const rect = layerRect(bounds, resolution)
    if (!rect) return false
    const gl = (renderer as { gl?: WebGLRenderingContext }).gl
    const limits = {
      screen: { width: this.app.screen.width, height: this.app.screen.height },
      resolution,
      maxTextureSize: maxTextureSize(gl),
    }
    if (!layerFits(rect, limits)) return false
    const overRects = over.filter((c) => c.visible && !c.destroyed).map((c) => screenRect(c))
    if (coversAbove(rect, { x: 0, y: 0 }, overRects)) return false

    // Only the moving blocks and the overlay are drawn into the layer.
    const parent = this.layerParent()
    const doc = parent.ownerDocument
    const drawables = worldDrawables(this.world)
    const still = drawables.filter((d) => d.visible && !moving.has(d))
    for (const d of still) d.visible = false
    let canvas: HTMLCanvasElement | null
    try {
      canvas = this.picture(doc, rect, resolution, [0, 0, 0, 0])
    } finally {
      for (const d of still) d.visible = true
    }
    if (!canvas) return false
    canvas.dataset.testid = 'drag-layer'
    const box = overDiv(doc, { overflow: 'clip', contain: 'strict' })
    const mover = pausedChain(['translateX', 'translateY'], [0, 0], doc)
    mover.inner.append(canvas)
    box.append(mover.outer)
    parent.append(box)
    this.box = box
    this.canvas = canvas
    this.shift = mover.set
    this.rect = rect
    this.over = overRects
    this.shown = { x: 0, y: 0 }
    this.wanted = { x: 0, y: 0 }
    this.hidden = [...movingShown, this.overlay]
    for (const c of this.hidden) c.visible = false
    return true
  }

  /**
   * What Pixi draws of the stage inside `rect` (screen px), as the screen shows it: drawn into a
   * texture of the rectangle's size at `resolution` on `clearColor`, read back once,
   * un-premultiplied, in a 2D canvas of `doc` placed over the Pixi canvas exactly there. Null
   * without a 2D context.
   */
  private picture(
    doc: Document,
    rect: ScreenRect,
    resolution: number,
    clearColor: [number, number, number, number],
  ): HTMLCanvasElement | null {
    const renderer = this.app.renderer
    const texture = RenderTexture.create({
      width: rect.width,
      height: rect.height,
      resolution,
      antialias: renderer.view.antialias,
    })
    let pixels: { pixels: Uint8ClampedArray | Uint8Array; width: number; height: number }
    try {
      renderer.render({
        container: this.app.stage,
        target: texture,
        clearColor,
        transform: new Matrix().translate(-rect.x, -rect.y),
      })
      pixels = renderer.extract.pixels(texture)
    } finally {
      texture.destroy(true)
    }
    unpremultiply(pixels.pixels)
    const canvas = doc.createElement('canvas')
    canvas.width = pixels.width
    canvas.height = pixels.height
    const ctx = canvas.getContext('2d')
    if (!ctx) return null
    const image = ctx.createImageData(pixels.width, pixels.height)
    image.data.set(pixels.pixels)
    ctx.putImageData(image, 0, 0)
    Object.assign(canvas.style, {
      position: 'absolute',
      left: `${rect.x}px`,
      top: `${rect.y}px`,
      width: `${rect.width}px`,
      height: `${rect.height}px`,
      pointerEvents: 'none',
    })
    return canvas
  }

  /**
   * The blocks moved by (`dx`, `dy`) screen px from where the layer was drawn, with these guide
   * lines (screen px). False when the layer there would cover something drawn over the blocks:
   * the caller then ends it and draws the drag with the canvas.
   */
  move(dx: number, dy: number, guides: readonly ScreenRect[]): boolean {
    if (!this.canvas || !this.rect) return false
    const shift = layerShift(dx, dy, this.app.renderer?.resolution ?? 1)
    if (coversAbove(this.rect, shift, this.over)) return false
    this.wanted = shift
    this.guides = [...guides]
    this.pending ??= this.clock.request(this.present)
    return true
  }

  /**
   * Shows the blocks and the overlay in Pixi again and removes the layer: at once, or through
   * `whenDrawn` (called with the removal, to run it right after Pixi's next frame is drawn, so the
   * same presented frame shows the blocks in Pixi and no longer on the layer).
   */
  end(whenDrawn?: (remove: () => void) => void) {
    if (this.pending !== null) this.clock.cancel(this.pending)
    this.pending = null
    for (const c of this.hidden) if (!c.destroyed) c.visible = true
    this.hidden = []
    const gone = this.box
    this.box = null
    this.canvas = null
    this.shift = []
    this.guideBox = null
    this.guideLines = []
    this.guidesShown = ''
    this.rect = null
    this.over = []
    if (!gone) return
    const remove = () => gone.remove()
    if (whenDrawn) whenDrawn(remove)
    else remove()
  }

  /**
   * The layer's first rectangle, where the drag began: the place the blocks left, which Pixi
   * draws again without them, and draws again with whatever is there on release.
   */
  get drawnAt(): ScreenRect | null {
    return this.rect
  }

  /** The objects hidden in Pixi while the layer shows them (their moves need no Pixi frame). */
  get shownByLayer(): readonly Container[] {
    return this.hidden
  }

  /** One animation frame: the layer's place and the guides as last asked. */
  private present = () => {
    this.pending = null
    if (!this.canvas) return
    const { x, y } = this.wanted
    if (x !== this.shown.x || y !== this.shown.y) {
      this.shift[0]?.(x)
      this.shift[1]?.(y)
      this.shown = { x, y }
      this.countFrame()
    }
    this.showGuides()
  }

  /**
   * The guides as a pool of one-pixel boxes, each its own composited layer placed and sized by
   * paused animations alone (paused-transform.ts): a guide that moves with the blocks (every move,
   * nearly) then costs the compositor only. Placed by `left`, `top`, `width` and `height`, or added
   * and removed as their number changed, they made Blink restyle, lay out and repaint the page
   * every move (633 style changes in a drag of 92 moves); placed by a style transform, they made
   * it layerize the page. An unused box is scaled to nothing.
   */
  private showGuides() {
    const key = JSON.stringify(this.guides)
    if (key === this.guidesShown) return
    this.guidesShown = key
    // In the layer's own document (no guides without a layer).
    if (!this.box) return
    const doc = this.box.ownerDocument
    if (!this.guideBox) {
      this.guideBox = overDiv(doc, {})
      this.box.append(this.guideBox)
    }
    const box = this.guideBox
    while (this.guideLines.length < this.guides.length) {
      const line = pausedChain(['translateX', 'translateY', 'scaleX', 'scaleY'], [0, 0, 0, 0], doc)
      const dot = doc.createElement('div')
      Object.assign(dot.style, { width: '1px', height: '1px', background: GUIDE_COLOUR })
      line.inner.append(dot)
      box.append(line.outer)
      this.guideLines.push(line.set)
    }
    this.guideLines.forEach(([x, y, width, height], i) => {
      const g = this.guides[i]
      // Whole pixels, as the page's layout would snap a box: a layer placed at a fraction of a
      // pixel is sampled across two, a pale two-pixel line.
      x!(g ? Math.round(g.x) : 0)
      y!(g ? Math.round(g.y) : 0)
      width!(g ? Math.max(1, Math.round(g.width)) : 0)
      height!(g ? Math.max(1, Math.round(g.height)) : 0)
    })
  }
}

/** A box over the whole host that lets the pointer through, with these styles too. */
function overDiv(doc: Document, style: Partial<CSSStyleDeclaration>): HTMLDivElement {
  const div = doc.createElement('div')
  Object.assign(div.style, { position: 'absolute', inset: '0', pointerEvents: 'none', ...style })
  return div
}

/** A display object's bounds on the screen (the stage is the screen, in CSS px). */
function screenRect(c: Container): ScreenRect {
  const b = c.getBounds()
  return { x: b.x, y: b.y, width: b.width, height: b.height }
}
