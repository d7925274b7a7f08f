import { RenderTexture, Sprite, type Application, type Container } from 'pixi.js'
import { splitForGesture } from './gesture-layers.ts'

interface Layer {
  sprite: Sprite
  texture: RenderTexture
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
 */
export class GestureCache {
  private hidden: Container[] = []
  private layers: Layer[] = []

  constructor(
    private readonly app: Application,
    private readonly world: Container,
  ) {}

  get active(): boolean {
    return this.hidden.length > 0 || this.layers.length > 0
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
      const layer = this.picture()
      const index = stage.getChildIndex(this.world)
      stage.addChildAt(layer.sprite, at === 'below' ? index : index + 1)
      this.layers.push(layer)
    }
    showOnly(live)
    const keep = new Set(live)
    this.hidden = shown.filter((d) => !keep.has(d))
  }

  end() {
    for (const d of this.hidden) if (!d.destroyed) d.visible = true
    this.hidden = []
    for (const { sprite, texture } of this.layers) {
      sprite.destroy()
      texture.destroy(true)
    }
    this.layers = []
  }

  /** The world as it shows now (only the visible drawables), in screen px. */
  private picture(): Layer {
    const renderer = this.app.renderer
    const texture = RenderTexture.create({
      width: this.app.screen.width,
      height: this.app.screen.height,
      resolution: renderer.resolution,
      antialias: renderer.view.antialias,
    })
    // The world's own transform is the view, so the picture lines up with the screen.
    renderer.render({ container: this.world, target: texture, clearColor: [0, 0, 0, 0] })
    const sprite = new Sprite(texture)
    sprite.label = 'gesture-cache'
    return { sprite, texture }
  }
}
