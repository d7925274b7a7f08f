import { Ticker, type Application, type Container } from 'pixi.js'
import { DamageLedger, unionRect, type ScissorBox } from './damage.ts'
import type { ScreenRect } from './drag-layer-geometry.ts'
import { RenderScheduler } from './render-scheduler.ts'
import { drawnInTree } from './scene-container.ts'

/** How often Pixi's renderers' housekeeping runs while the editor draws on demand. */
const HOUSEKEEPING_MS = 1000
let quietTickers = 0
let housekeeping: ReturnType<typeof setInterval> | null = null

/**
 * Stops Pixi's own frame loop (`Ticker.system`) until the returned function is called. Every Pixi
 * renderer keeps a scheduler on that ticker for a few timed tasks (its garbage collectors, every
 * several seconds), so the loop asked the browser for an animation frame 60 times a second for an
 * editor nobody touched: 32 ms of CPU a second on the demo project, about 200 among 1,000 blocks
 * (docs/editor.md «Drawing»). Those tasks run from a one-second timer instead; the loop comes back
 * when the last editor drawing on demand goes.
 */
function quietSystemTicker(): () => void {
  quietTickers += 1
  if (quietTickers === 1) {
    const ticker = Ticker.system
    // A listener added meanwhile (another renderer) must not start it again.
    ticker.autoStart = false
    ticker.stop()
    housekeeping = setInterval(() => ticker.update(), HOUSEKEEPING_MS)
  }
  let undone = false
  return () => {
    if (undone) return
    undone = true
    quietTickers -= 1
    if (quietTickers > 0) return
    if (housekeeping !== null) clearInterval(housekeeping)
    housekeeping = null
    Ticker.system.autoStart = true
    Ticker.system.start()
  }
}

/**
 * The part of a Pixi render group that hears about every change below it: a moved, shown or
 * hidden object (`onChildUpdate`), a redrawn view such as new text or a cleared graphic
 * (`onChildViewUpdate`), and an added, removed or reordered child (`structureDidChange`).
 * These are Pixi internals of the pinned version (8.22); `watchGroup` is the one place that knows.
 */
export interface GroupHooks {
  onChildUpdate(child: Container): void
  onChildViewUpdate(child: Container): void
  structureDidChange: boolean
}

/**
 * The render group of `container` (made one) if it has every hook drawing on demand relies on, or
 * null: a Pixi that renamed or dropped them (an upgrade) is drawn by its own render loop instead.
 * `tests/unit/editor-on-demand-render.test.ts` pins them against the installed Pixi.
 */
export function hookableGroup(container: Container): GroupHooks | null {
  container.enableRenderGroup()
  const group = (container as unknown as { renderGroup?: Partial<GroupHooks> }).renderGroup
  if (!group) return null
  const hookable =
    typeof group.onChildUpdate === 'function' &&
    typeof group.onChildViewUpdate === 'function' &&
    typeof group.structureDidChange === 'boolean'
  return hookable ? (group as GroupHooks) : null
}

/**
 * Calls `changed` whenever anything in `group` (a render group's hooks) changes, with the object
 * that changed when the hook names one.
 */
function watchGroup(group: GroupHooks, changed: (child?: Container) => void): () => void {
  const { onChildUpdate, onChildViewUpdate } = group
  let structure = group.structureDidChange
  group.onChildUpdate = (child) => {
    changed(child)
    onChildUpdate.call(group, child)
  }
  group.onChildViewUpdate = (child) => {
    changed(child)
    onChildViewUpdate.call(group, child)
  }
  Object.defineProperty(group, 'structureDidChange', {
    configurable: true,
    enumerable: true,
    get: () => structure,
    set: (value: boolean) => {
      structure = value
      if (value) changed()
    },
  })
  return () => {
    const own = group as Partial<GroupHooks>
    // The prototype's methods show through again.
    delete own.onChildUpdate
    delete own.onChildViewUpdate
    delete own.structureDidChange
    group.structureDidChange = structure
  }
}

/**
 * Draws the stage only when something in it changed, instead of Pixi's ticker drawing every frame:
 * an idle editor draws nothing. React's commits, the interaction's direct moves and the overlay all
 * change display objects, which is what the watched render groups report.
 *
 * If the installed Pixi lacks those hooks, the stage is drawn by Pixi's own ticker instead
 * (`mode` 'ticker', every animation frame, as before drawing on demand): slower, never stale.
 */
export class OnDemandRender {
  readonly scheduler: RenderScheduler
  mode: 'on-demand' | 'ticker' = 'on-demand'
  private unwatch = new Map<Container, () => void>()
  private tickerFrames = 0
  /** Frames drawn inside a rectangle (the rest of the picture kept); tests read it. */
  limitedFrames = 0
  /**
   * Objects whose own changes need no frame: hidden in Pixi while the compositor drag layer shows
   * them (`drag-layer.ts`), so moving them changes nothing Pixi draws.
   */
  private quietSet: ReadonlySet<Container> | null = null
  /** Changes made inside `hold` ask for no frame. */
  private holding = false
  /** Inside `tracked`: the group a change that names no object belongs to. */
  private onlyTracked: string | null = null
  /** Pixi is drawing a frame. */
  private rendering = false
  /** To run right after the next frame is drawn (`whenDrawn`). */
  private afterFrame: (() => void)[] = []
  /** Gives Pixi's own frame loop back (see `quietSystemTicker`). */
  private loud: (() => void) | null = null
  /** What the next frame has to draw again (`damage.ts`). */
  private damage = new DamageLedger<Container>((node) => node.parent)
  /** The drawables a frame limited to a rectangle may leave out (`drawOnly`). */
  private drawables: (() => readonly Container[]) | null = null

  constructor(
    private readonly app: Application,
    private readonly onFrame: (frames: number) => void = () => undefined,
  ) {
    this.scheduler = new RenderScheduler(() => {
      // The stage may go between the request and the frame.
      if (!this.app.renderer) return this.runAfterFrame()
      if (this.draw()) this.onFrame(this.scheduler.frames)
      this.runAfterFrame()
    })
    // The editor reads pointers from the DOM itself (interaction.ts). Pixi's event system would
    // hit-test the whole scene on every move and keep a frame loop running to re-test the pointer.
    app.stage.eventMode = 'none'
    app.renderer.events.setTargetElement(null as unknown as HTMLElement)
    // A resized drawing buffer starts blank, and so does a context the browser gave back.
    app.renderer.on('resize', this.invalidate)
    app.renderer.canvas?.addEventListener('webglcontextrestored', this.restored)
    this.watch(app.stage)
    if (this.mode === 'on-demand') {
      app.stop()
      this.loud = quietSystemTicker()
      this.scheduler.request()
    }
  }

  /** Containers made render groups of their own (the world) report their changes too. */
  watch(container: Container) {
    if (this.unwatch.has(container)) return
    const group = this.mode === 'on-demand' ? hookableGroup(container) : null
    if (!group) {
      this.fallBack()
      return
    }
    this.unwatch.set(container, watchGroup(group, this.changed))
    this.request()
  }

  /**
   * The objects a frame limited to a rectangle leaves out when they lie wholly outside it: the
   * world's drawables. With a software renderer each draw costs about as much clipped by the
   * scissor as drawn whole, so a limited frame that sent every block cost most of a whole one
   * (docs/editor.md «Drawing one place»).
   */
  drawOnly(drawables: (() => readonly Container[]) | null) {
    this.drawables = drawables
  }

  /** Changes of these objects ask for no frame until `quiet(null)`. */
  quiet(objects: ReadonlySet<Container> | null) {
    this.quietSet = objects && objects.size > 0 ? objects : null
  }

  /**
   * Runs `change` without asking for a frame for what it changes: for changes something else
   * shows (the drag layer's picture of the moving blocks), whose place the caller then asks to be
   * drawn again (`redraw`).
   */
  hold<T>(change: () => T): T {
    const was = this.holding
    this.holding = true
    try {
      return change()
    } finally {
      this.holding = was
    }
  }

  /**
   * From now on, changes of `objects` (and of anything inside them) redraw only where they were
   * and where they are (`damage.ts`), as the group `name`. `shownAt` is where the canvas's picture
   * shows them now (screen px; null: nowhere; undefined: not known until the next whole frame). A
   * `kept` group stays through whole frames; another is dropped by the first. The drag layer hands
   * its blocks back so, and the frame after a release draws their rectangle, not the scene; the
   * selection's overlay is kept tracked, so selecting draws the outlines' rectangle.
   */
  track(name: string, objects: Iterable<Container>, shownAt?: ScreenRect | null, kept = false) {
    this.damage.track(name, objects, shownAt, kept)
  }

  /**
   * `track` for a kept group of objects that show where they are now (their changes so far are
   * all in the damage already: any change of an object nobody tracks draws everything).
   */
  trackAsDrawn(name: string, objects: readonly Container[]) {
    this.damage.trackAsDrawn(name, objects, boundsOf(new Set(objects)))
  }

  /** Changes of the group `name` are no longer placed. */
  untrack(name: string) {
    this.damage.untrack(name)
  }

  /**
   * Runs `change`, which changes only the group `name` (`track`): the changes Pixi reports
   * without naming an object (showing or hiding one rebuilds its render group's list) are theirs.
   */
  tracked<T>(name: string, change: () => T): T {
    const was = this.onlyTracked
    this.onlyTracked = name
    try {
      return change()
    } finally {
      this.onlyTracked = was
    }
  }

  /**
   * The canvas shows the stage as it is now: drawn on demand into a drawing buffer kept between
   * frames, a frame drawn, and nothing changed since (a pan's picture may begin from its pixels).
   */
  get current(): boolean {
    return (
      this.mode === 'on-demand' &&
      keepsPicture(this.gl) &&
      this.scheduler.frames > 0 &&
      !this.scheduler.waiting &&
      this.damage.clean
    )
  }

  /** Runs `fn` right after the next frame is drawn (at once when Pixi's ticker draws them). */
  whenDrawn(fn: () => void) {
    if (this.mode !== 'on-demand') return fn()
    this.afterFrame.push(fn)
    this.scheduler.request()
  }

  private runAfterFrame() {
    const fns = this.afterFrame
    this.afterFrame = []
    for (const fn of fns) fn()
  }

  private changed = (child?: Container) => {
    // Pixi's own bookkeeping within a frame (see `RenderScheduler.request`).
    if (this.holding || this.rendering) return
    if (child && this.quietSet?.has(child)) return
    if (child) this.damage.changed(child)
    else if (this.onlyTracked !== null) this.damage.changedTracked(this.onlyTracked)
    else this.damage.changed()
    this.scheduler.request()
  }

  /**
   * Draws `rect` (screen px) again on the next frame: where `hold` hid objects that something
   * else no longer covers.
   */
  redraw(rect: ScreenRect) {
    this.damage.damage(rect)
    if (this.mode === 'on-demand') this.scheduler.request()
  }

  /** Draws the whole scene on the next frame. */
  request() {
    this.damage.invalidate()
    if (this.mode === 'on-demand') this.scheduler.request()
  }

  private invalidate = () => this.damage.invalidate()

  private restored = () => this.request()

  /** The renderer's WebGL context (none on another backend, or once the stage is gone). */
  private get gl(): WebGLRenderingContext | undefined {
    return (this.app.renderer as { gl?: WebGLRenderingContext } | undefined)?.gl
  }

  /**
   * Draws the frame the damage asks for: the whole stage, or the stage inside one rectangle with
   * the rest of the picture kept. False when nothing needed drawing.
   */
  private draw(): boolean {
    const renderer = this.app.renderer
    const gl = this.gl
    if (!gl || !keepsPicture(gl)) this.damage.invalidate()
    const plan = this.damage.take(boundsOf, renderer.resolution, {
      width: gl?.drawingBufferWidth ?? 1,
      height: gl?.drawingBufferHeight ?? 1,
    })
    if (plan.kind === 'none') return false
    this.rendering = true
    try {
      if (plan.kind === 'full' || !gl) this.app.render()
      else {
        const outside = this.drawables ? lyingOutside(this.drawables(), plan.covers) : []
        for (const d of outside) d.renderable = false
        try {
          drawInside(gl, plan.box, () => this.app.render())
        } finally {
          for (const d of outside) d.renderable = true
        }
        this.limitedFrames += 1
      }
    } finally {
      this.rendering = false
    }
    return true
  }

  /** Pixi's ticker draws every frame from now on; the frames are still counted. */
  private fallBack() {
    if (this.mode === 'ticker') return
    this.mode = 'ticker'
    this.scheduler.stop()
    this.loud?.()
    this.loud = null
    for (const [container, undo] of this.unwatch) if (!container.destroyed) undo()
    this.unwatch.clear()
    // Counted before Pixi's own render listener (low priority) draws the frame.
    this.app.ticker.add(this.countTick)
    this.app.start()
  }

  private countTick = () => {
    this.tickerFrames += 1
    this.onFrame(this.tickerFrames)
  }

  destroy() {
    this.app.renderer?.off('resize', this.invalidate)
    this.app.renderer?.canvas?.removeEventListener('webglcontextrestored', this.restored)
    this.scheduler.stop()
    this.loud?.()
    this.loud = null
    this.runAfterFrame()
    this.app.ticker?.remove(this.countTick)
    for (const [container, undo] of this.unwatch) if (!container.destroyed) undo()
    this.unwatch.clear()
    // Handing back a stage that is still alive: Pixi's ticker and events take over again.
    if (!this.app.renderer) return
    this.app.renderer.events.setTargetElement(this.app.canvas)
    this.app.start()
  }
}

/** The canvas keeps its picture between frames: a frame may draw one place of it. */
function keepsPicture(gl: WebGLRenderingContext | undefined): boolean {
  return gl?.getContextAttributes()?.preserveDrawingBuffer === true
}

/** The screen bounds of what `objects` draw, together (null when none of them shows). */
function boundsOf(objects: ReadonlySet<Container>): ScreenRect | null {
  const rects: ScreenRect[] = []
  for (const c of objects) {
    if (c.destroyed || !c.visible) continue
    const b = c.getBounds()
    rects.push({ x: b.x, y: b.y, width: b.width, height: b.height })
  }
  return unionRect(rects)
}

/**
 * The drawn objects of `drawables` whose bounds lie wholly outside `rect` (screen px): nothing of
 * them shows there.
 */
function lyingOutside(drawables: readonly Container[], rect: ScreenRect): Container[] {
  return drawables.filter((d) => {
    // One the frame does not draw anyway is left as it is: inside the world a pan's picture hides,
    // a change of it would tell the picture the world had changed (docs/editor.md «The end of a
    // pan»), and the pan would end by drawing the scene again.
    if (d.destroyed || !drawnInTree(d)) return false
    const b = d.getBounds()
    return (
      b.x > rect.x + rect.width ||
      b.x + b.width < rect.x ||
      b.y > rect.y + rect.height ||
      b.y + b.height < rect.y
    )
  })
}

/** Runs `render` with WebGL's scissor on `box`: nothing outside it is drawn or cleared. */
function drawInside(gl: WebGLRenderingContext, box: ScissorBox, render: () => void) {
  gl.enable(gl.SCISSOR_TEST)
  gl.scissor(box.x, box.y, box.width, box.height)
  try {
    render()
  } finally {
    gl.disable(gl.SCISSOR_TEST)
  }
}
