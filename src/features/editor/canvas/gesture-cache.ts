import { Matrix, RenderTexture, Sprite, type Application, type Container } from 'pixi.js'
import type { Viewport } from '../../../domain/geometry.ts'
import type { ScreenRect } from './drag-layer-geometry.ts'
import { splitForGesture } from './gesture-layers.ts'
import { maxTextureSize } from './gl-limits.ts'
import { gpuFence, type GpuFence } from './gpu-fence.ts'
import {
  growFilled,
  picturePixels,
  pictureMargin,
  pictureTransform,
  reachesInto,
  REPICTURE,
  shouldRepicture,
  showsAsLive,
  shownPixels,
  type PixelRect,
  type WorldRect,
} from './view-picture.ts'
import { worldDrawables } from './scene-container.ts'

/**
 * How far past what the screen needs (screen px) a picture begun from the canvas is drawn when the
 * view reaches past what it holds: each draw sorts every drawable in or out of its strip, so a pan
 * draws a strip every few dozen pixels rather than one every frame.
 */
const FILL_AHEAD = 96

/** The canvas shows the world at the view a pan or pinch begins at, as its last frame drew it. */
export interface ShownNow {
  /** Where the overlay (selection, marquee) lies over the world on the canvas (screen px). */
  overlay: ScreenRect | null
}

interface Layer {
  sprite: Sprite
  texture: RenderTexture
}

/** The picture of the whole world that follows the view during a pan or pinch. */
interface ViewPicture {
  layer: Layer
  /** The view the picture was taken at. */
  at: Viewport
  /** When it was asked of the GPU. */
  takenAt: number
  /**
   * How long taking it took (ms): slow pictures are taken again less often. While the GPU is
   * still drawing it (`drawing`), the time so far.
   */
  cost: number
  /** Passes once the GPU has drawn the picture; null once it has, or if that cannot be known. */
  drawing: GpuFence | null
  /** The world pictured around the screen on each side, in screen px (pictureMargin). */
  margin: number
  /**
   * The part of the picture drawn so far (device px): all of it, or, for a picture begun from
   * the canvas's own pixels, what the view has reached since.
   */
  filled: PixelRect
  /** Where each of the world's drawables lies (world px), once a strip has needed it. */
  boxes: DrawableBox[] | null
  /** The world as the picture was last drawn from it (`worldState`). */
  seen: WorldState
  /** The world changed while the picture was drawn strip by strip: parts of it show it before. */
  stale: boolean
}

/**
 * The objects inside the world, and how often each has changed so far: Pixi counts every change of
 * an object's transform, visibility or look (`_didContainerChangeTick`, `_didViewChangeTick`,
 * internals of the pinned version that `tests/unit/editor-gesture-cache.test.ts` holds to). Two
 * states alike mean nothing inside the world changed in between. A change Pixi reports to the
 * painter is not enough: an object already changed since its render group was last drawn reports
 * nothing more, and a strip's drawing leaves every drawable so.
 */
interface WorldState {
  nodes: Container[]
  ticks: number[]
}

function worldState(world: Container): WorldState {
  const nodes: Container[] = []
  const ticks: number[] = []
  const visit = (node: Container) => {
    for (const child of node.children) {
      const counted = child as unknown as {
        _didContainerChangeTick?: number
        _didViewChangeTick?: number
      }
      nodes.push(child)
      ticks.push((counted._didContainerChangeTick ?? 0) + (counted._didViewChangeTick ?? 0))
      visit(child)
    }
  }
  visit(world)
  return { nodes, ticks }
}

function sameState(a: WorldState, b: WorldState): boolean {
  return (
    a.nodes.length === b.nodes.length &&
    a.nodes.every((node, i) => node === b.nodes[i] && a.ticks[i] === b.ticks[i])
  )
}

/** A drawable of the world and its bounds in world px. */
interface DrawableBox extends WorldRect {
  drawable: Container
}

/**
 * Freezes the still part of the scene while a drag, resize or rotate runs. The world's drawables
 * (each background's picture and grid, then its blocks, back to front) are split around the
 * moving blocks: what lies under them is drawn once into a screen-sized texture, what lies over
 * them into another, and those objects are hidden. Each frame then draws two pictures and the
 * selection, whatever the number of blocks. `end` shows everything again and frees the textures.
 *
 * The pictures are taken at the current view and screen resolution, so they match the live scene
 * pixel for pixel; a view change mid-gesture (wheel) ends the freeze rather than show a stale one.
 *
 * A pan or pinch (`beginView`) freezes the whole world into one picture instead, of the screen and
 * a margin of the world around it, hides the world and moves and scales the picture with the view
 * (`follow`); a strip revealed past the margin is filled by taking the picture again, throttled
 * (`view-picture.ts`).
 */
export class GestureCache {
  private hidden: Container[] = []
  private layers: Layer[] = []
  private view: ViewPicture | null = null
  /** Pan and pinch pictures begun from the canvas's own pixels; tests read it. */
  picturesCopied = 0
  /** Strips of such pictures drawn as the view reached them; tests read it. */
  stripsFilled = 0

  constructor(
    private readonly app: Application,
    private readonly world: Container,
  ) {}

  get active(): boolean {
    return this.hidden.length > 0 || this.layers.length > 0 || this.view !== null
  }

  /** A pan or pinch picture is following the view. */
  get following(): boolean {
    return this.view !== null
  }

  /**
   * A pan or pinch starts at `view` (already the world's transform): the world is drawn once into
   * a picture of the screen and a margin around it, and hidden, so each frame draws one sprite and
   * the overlay.
   *
   * When the canvas shows the world at `view` as its last frame drew it (`shown`), the picture
   * begins from those pixels instead: the screen is copied into it and only what the overlay
   * covers is drawn, and the margin is drawn strip by strip as the view reaches it (`follow`).
   * Among 1,000 blocks drawn in software that is the pan's first frame at once instead of a
   * picture of every block over twice the screen (docs/editor.md «A picture begun from the canvas»).
   */
  beginView(view: Viewport, shown: ShownNow | null = null) {
    this.end()
    const stage = this.app.stage
    if (!stage || this.world.destroyed || this.world.parent !== stage || !this.world.visible) return
    const renderer = this.app.renderer
    const margin = pictureMargin(this.app.screen, renderer.resolution, maxTextureSize(this.gl))
    // No multisampling: a tablet at DPR 2 holds one texture, not four more for the samples. A
    // moving picture hides the difference, and at rest the live scene is drawn again.
    const takenAt = performance.now()
    const copied = shown ? this.copiedPicture(view, margin, shown.overlay) : null
    const layer = copied?.layer ?? this.picture(false, true, margin)
    const drawing = this.fence()
    layer.sprite.position.set(-margin, -margin)
    stage.addChildAt(layer.sprite, stage.getChildIndex(this.world))
    this.world.visible = false
    const cost = performance.now() - takenAt
    const filled = copied?.filled ?? wholeOf(layer.texture)
    const boxes = copied?.boxes ?? null
    const seen = worldState(this.world)
    this.view = {
      layer,
      at: { ...view },
      takenAt,
      cost,
      drawing,
      margin,
      filled,
      boxes,
      seen,
      stale: false,
    }
  }

  /**
   * The canvas's frames now show the world at `view` exactly as a frame of the live scene would
   * (docs/editor.md «The end of a pan»): the picture is placed for `view` at the zoom it was taken
   * at, on whole pixels, drawn wherever the screen shows it, and nothing inside the world changed
   * since it was drawn from it (its own strips aside).
   */
  showsWorldAt(view: Viewport): boolean {
    const picture = this.view
    if (!picture || picture.stale || this.world.destroyed) return false
    const { texture } = picture.layer
    const shown = showsAsLive(
      pictureTransform(picture.at, view),
      { width: this.app.screen.width, height: this.app.screen.height },
      picture.margin,
      this.app.renderer.resolution,
      { width: texture.source.pixelWidth, height: texture.source.pixelHeight },
      picture.filled,
    )
    return shown && sameState(picture.seen, worldState(this.world))
  }

  /** The pan or pinch picture now following the view (a token: the same object while it lasts). */
  get viewPicture(): object | null {
    return this.view
  }

  /** Places the pan or pinch picture for `view`, taking it again when too much shows blank. */
  follow(view: Viewport) {
    const picture = this.view
    if (!picture) return
    const screen = { width: this.app.screen.width, height: this.app.screen.height }
    let placed = pictureTransform(picture.at, view)
    const now = performance.now()
    if (picture.drawing) {
      // Still drawing: it has cost at least this long, which holds the next picture back.
      picture.cost = now - picture.takenAt
      if (picture.drawing.passed()) {
        picture.drawing.dispose()
        picture.drawing = null
      }
    }
    const { margin } = picture
    if (shouldRepicture(placed, screen, now - picture.takenAt, picture.cost, REPICTURE, margin)) {
      this.world.visible = true
      this.app.renderer.render({
        container: this.world,
        target: picture.layer.texture,
        clearColor: this.app.renderer.background.colorRgba,
        ...(margin > 0 ? { transform: this.marginTransform(margin) } : {}),
      })
      picture.drawing?.dispose()
      picture.drawing = this.fence()
      this.world.visible = false
      picture.at = { ...view }
      picture.takenAt = now
      picture.cost = performance.now() - now
      picture.filled = wholeOf(picture.layer.texture)
      picture.boxes = null
      // Taken whole from the world as it is now: nothing of it shows the world before.
      picture.seen = worldState(this.world)
      picture.stale = false
      placed = { x: 0, y: 0, scale: 1 }
    } else this.fillShown(picture, placed, screen)
    picture.layer.sprite.position.set(
      placed.x - margin * placed.scale,
      placed.y - margin * placed.scale,
    )
    picture.layer.sprite.scale.set(placed.scale)
  }

  begin(moving: ReadonlySet<Container>) {
    this.end()
    const stage = this.app.stage
    if (!stage || this.world.destroyed || this.world.parent !== stage) return
    const drawables = worldDrawables(this.world)
    const { below, live, above } = splitForGesture(drawables, (d) => moving.has(d))
    if (live.length === 0) return
    // Only what shows now is pictured, hidden and shown again.
    const shown = drawables.filter((d) => d.visible)
    const wasShown = new Set(shown)
    const showOnly = (items: Container[]) => {
      const keep = new Set(items)
      for (const d of shown) d.visible = keep.has(d)
    }
    const pictures: { at: 'below' | 'above'; items: Container[] }[] = [
      { at: 'below', items: below },
      { at: 'above', items: above },
    ]
    for (const { at, items } of pictures) {
      if (!items.some((d) => wasShown.has(d))) continue
      showOnly(items)
      const layer = this.picture(undefined, at === 'below')
      const index = stage.getChildIndex(this.world)
      stage.addChildAt(layer.sprite, at === 'below' ? index : index + 1)
      this.layers.push(layer)
    }
    showOnly(live)
    const keep = new Set(live)
    this.hidden = shown.filter((d) => !keep.has(d))
  }

  end() {
    if (this.view) {
      if (!this.world.destroyed) this.world.visible = true
      this.view.drawing?.dispose()
      this.layers.push(this.view.layer)
      this.view = null
    }
    for (const d of this.hidden) if (!d.destroyed) d.visible = true
    this.hidden = []
    for (const { sprite, texture } of this.layers) {
      sprite.destroy()
      texture.destroy(true)
    }
    this.layers = []
  }

  /** The renderer's WebGL context (none on another backend). */
  private get gl(): WebGLRenderingContext | undefined {
    return (this.app.renderer as { gl?: WebGLRenderingContext }).gl
  }

  /** A fence after the picture just asked of the GPU (docs/editor.md "Drawing"). */
  private fence(): GpuFence | null {
    return gpuFence(this.gl)
  }

  /**
   * A pan or pinch picture begun from the canvas's own pixels: the screen copied into the middle
   * of it (`blitFramebuffer`, WebGL2, the drawing buffer kept between frames), and the world drawn
   * again where the overlay lay over it. Null where that cannot be done: the whole picture is taken.
   */
  private copiedPicture(
    view: Viewport,
    margin: number,
    overlay: ScreenRect | null,
  ): { layer: Layer; filled: PixelRect; boxes: DrawableBox[] | null } | null {
    const gl = this.gl
    const renderer = this.app.renderer
    if (typeof WebGL2RenderingContext === 'undefined' || !(gl instanceof WebGL2RenderingContext))
      return null
    const attributes = gl.getContextAttributes()
    // A multisampled canvas cannot be copied upside down (WebGL2 refuses a flipping blit from it).
    if (attributes?.preserveDrawingBuffer !== true || attributes.antialias === true) return null
    const resolution = renderer.resolution
    const offset = margin * resolution
    const { drawingBufferWidth: width, drawingBufferHeight: height } = gl
    // Copied pixels and drawn strips must meet on whole pixels.
    if (!Number.isInteger(offset)) return null
    const texture = RenderTexture.create({
      width: this.app.screen.width + 2 * margin,
      height: this.app.screen.height + 2 * margin,
      resolution,
      antialias: false,
    })
    const size = { width: texture.source.pixelWidth, height: texture.source.pixelHeight }
    if (offset + width > size.width || offset + height > size.height) {
      texture.destroy(true)
      return null
    }
    // Pixi binds the picture (its framebuffer made complete); the canvas is read from.
    renderer.renderTarget.bind({ target: texture, clear: false })
    const read = gl.getParameter(gl.READ_FRAMEBUFFER_BINDING) as WebGLFramebuffer | null
    gl.bindFramebuffer(gl.READ_FRAMEBUFFER, null)
    // The canvas's rows run from the bottom, a Pixi picture's from the top: copied upside down.
    gl.blitFramebuffer(
      0,
      0,
      width,
      height,
      offset,
      offset + height,
      offset + width,
      offset,
      gl.COLOR_BUFFER_BIT,
      gl.NEAREST,
    )
    gl.bindFramebuffer(gl.READ_FRAMEBUFFER, read)
    const sprite = new Sprite(texture)
    sprite.blendMode = 'none'
    sprite.label = 'gesture-cache'
    const layer = { sprite, texture }
    // The overlay's outlines are smoothed past their bounds.
    const under =
      overlay &&
      picturePixels(
        { ...overlay, x: overlay.x + margin, y: overlay.y + margin },
        resolution,
        size,
        2,
      )
    const boxes = under ? this.drawableBoxes() : null
    if (under && boxes) this.fill(layer, [under], view, margin, boxes)
    this.picturesCopied += 1
    return { layer, filled: { x: offset, y: offset, width, height }, boxes }
  }

  /** Draws what the screen is about to show of `picture` and it does not hold yet. */
  private fillShown(
    picture: ViewPicture,
    placed: { x: number; y: number; scale: number },
    screen: { width: number; height: number },
  ) {
    const { texture } = picture.layer
    const size = { width: texture.source.pixelWidth, height: texture.source.pixelHeight }
    const resolution = this.app.renderer.resolution
    // A whole picture holds whatever the screen needs of it: no strip grows it.
    const needed = shownPixels(placed, screen, picture.margin, resolution, size)
    if (!needed) return
    const grown = growFilled(picture.filled, needed, size, Math.round(FILL_AHEAD * resolution))
    if (grown.strips.length === 0) return
    // A change inside the world since the picture was drawn: the new strips show it, the rest not.
    // A stale picture stays so until it is taken whole again: no need to look at the world.
    if (!picture.stale && !sameState(picture.seen, worldState(this.world))) picture.stale = true
    picture.boxes ??= this.drawableBoxes()
    this.fill(picture.layer, grown.strips, picture.at, picture.margin, picture.boxes)
    picture.filled = grown.filled
    if (!picture.stale) picture.seen = worldState(this.world)
    this.stripsFilled += grown.strips.length
  }

  /**
   * Draws the world as it shows at `view` into `rects` of a picture taken there (its device px),
   * each alone, on the canvas colour. Only the drawables reaching into a rectangle are drawn for
   * it: in software each draw costs about as much clipped to a strip as on the whole screen.
   */
  private fill(
    layer: Layer,
    rects: readonly PixelRect[],
    view: Viewport,
    margin: number,
    boxes: readonly DrawableBox[],
  ) {
    const gl = this.gl
    if (!gl) return
    const renderer = this.app.renderer
    const resolution = renderer.resolution
    const world = this.world
    const shown = world.visible
    const renderable = boxes.map((b) => b.drawable.renderable)
    const now = { x: world.x, y: world.y, zoom: world.scale.x }
    // Pixi draws a render group moved since its last frame at its own transform, whatever
    // transform it is given: the world is put back where it was pictured while it is drawn.
    world.position.set(view.panX, view.panY)
    world.scale.set(view.zoom)
    world.visible = true
    try {
      for (const rect of rects) {
        boxes.forEach((b, i) => {
          b.drawable.renderable = renderable[i]! && reachesInto(b, rect, view, margin, resolution)
        })
        gl.enable(gl.SCISSOR_TEST)
        // A Pixi picture's rows run from its top: the rectangle is its own, y as it is.
        gl.scissor(rect.x, rect.y, rect.width, rect.height)
        renderer.render({
          container: world,
          target: layer.texture,
          clearColor: renderer.background.colorRgba,
          transform: this.marginTransform(margin),
        })
      }
    } finally {
      gl.disable(gl.SCISSOR_TEST)
      boxes.forEach((b, i) => (b.drawable.renderable = renderable[i]!))
      world.position.set(now.x, now.y)
      world.scale.set(now.zoom)
      world.visible = shown
    }
  }

  /** The world's drawables (each background's picture and grid, then its blocks) and their bounds. */
  private drawableBoxes(): DrawableBox[] {
    const world = this.world
    world.updateLocalTransform()
    const { a: zoom, tx, ty } = world.localTransform
    return worldDrawables(world).map((drawable) => {
      const b = drawable.getBounds()
      return {
        drawable,
        x0: (b.x - tx) / zoom,
        y0: (b.y - ty) / zoom,
        x1: (b.x + b.width - tx) / zoom,
        y1: (b.y + b.height - ty) / zoom,
      }
    })
  }

  /** The world's transform (the view), moved by `margin` px right and down into a picture. */
  private marginTransform(margin: number): Matrix {
    this.world.updateLocalTransform()
    return new Matrix().copyFrom(this.world.localTransform).translate(margin, margin)
  }

  /**
   * The world as it shows now (only the visible drawables), in screen px, with `margin` px of it
   * around the screen on every side. An `opaque` picture (the lowest one) is taken on the canvas's
   * colour and drawn without blending: each frame then writes the screen's pixels once instead of
   * reading and blending them (docs/editor.md "Frame cost").
   */
  private picture(antialias = this.app.renderer.view.antialias, opaque = false, margin = 0): Layer {
    const renderer = this.app.renderer
    const texture = RenderTexture.create({
      width: this.app.screen.width + 2 * margin,
      height: this.app.screen.height + 2 * margin,
      resolution: renderer.resolution,
      antialias,
    })
    // The world's own transform is the view, so the picture lines up with the screen.
    renderer.render({
      container: this.world,
      target: texture,
      clearColor: opaque ? renderer.background.colorRgba : [0, 0, 0, 0],
      ...(margin > 0 ? { transform: this.marginTransform(margin) } : {}),
    })
    const sprite = new Sprite(texture)
    if (opaque) sprite.blendMode = 'none'
    sprite.label = 'gesture-cache'
    return { sprite, texture }
  }
}

/** All of a picture's pixels. */
function wholeOf(texture: RenderTexture): PixelRect {
  return { x: 0, y: 0, width: texture.source.pixelWidth, height: texture.source.pixelHeight }
}
