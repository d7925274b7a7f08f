import { Matrix, RenderTexture, Sprite, type Application, type Container } from 'pixi.js'
import type { Viewport } from '../../../domain/geometry.ts'
import { splitForGesture } from './gesture-layers.ts'
import { maxTextureSize } from './gl-limits.ts'
import { gpuFence, type GpuFence } from './gpu-fence.ts'
import { pictureMargin, pictureTransform, REPICTURE, shouldRepicture } from './view-picture.ts'

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
   */
  beginView(view: Viewport) {
    this.end()
    const stage = this.app.stage
    if (!stage || this.world.destroyed || this.world.parent !== stage || !this.world.visible) return
    const renderer = this.app.renderer
    const margin = pictureMargin(this.app.screen, renderer.resolution, maxTextureSize(this.gl))
    // No multisampling: a tablet at DPR 2 holds one texture, not four more for the samples. A
    // moving picture hides the difference, and at rest the live scene is drawn again.
    const takenAt = performance.now()
    const layer = this.picture(false, true, margin)
    const drawing = this.fence()
    layer.sprite.position.set(-margin, -margin)
    stage.addChildAt(layer.sprite, stage.getChildIndex(this.world))
    this.world.visible = false
    const cost = performance.now() - takenAt
    this.view = { layer, at: { ...view }, takenAt, cost, drawing, margin }
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
      placed = { x: 0, y: 0, scale: 1 }
    }
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
    const drawables = this.world.children.flatMap((background) => background.children)
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
