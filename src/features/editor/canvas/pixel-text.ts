import type { PixiReactElementProps } from '@pixi/react'
import { CanvasSource, Matrix, Sprite, Texture, type Renderer } from 'pixi.js'
import {
  lineOrigins,
  rasterLayout,
  rasterView,
  type RasterLayout,
  type RasterView,
} from './text-raster.ts'
import { drawnInTree } from './scene-container.ts'

/**
 * A paragraph as it is drawn: its lines (wrapped by Pixi's text metrics), their widths, and where
 * they go. Lengths are in the parent's units (world px).
 */
export interface PixelTextSpec {
  /** The whole text (the test hook reads what a block says). */
  text: string
  lines: string[]
  lineWidths: number[]
  /** The paragraph's top left corner in the parent and its width (lines align within it). */
  x: number
  y: number
  width: number
  /** 0 left, 0.5 centre, 1 right. */
  align: number
  /** The first line's baseline below the paragraph's top, as the browser places it. */
  baseline: number
  lineHeight: number
  fontSize: number
  /** The CSS font of the paragraph at `size` px. */
  fontAt: (size: number) => string
  color: string
}

/** Whether two paragraphs draw the same pixels (the same words, place, font and colour). */
export function sameSpec(a: PixelTextSpec, b: PixelTextSpec): boolean {
  return (
    a.text === b.text &&
    a.x === b.x &&
    a.y === b.y &&
    a.width === b.width &&
    a.align === b.align &&
    a.baseline === b.baseline &&
    a.lineHeight === b.lineHeight &&
    a.fontSize === b.fontSize &&
    a.color === b.color &&
    a.lines.length === b.lines.length &&
    a.lines.every((line, i) => line === b.lines[i] && a.lineWidths[i] === b.lineWidths[i]) &&
    a.lineWidths.length === b.lineWidths.length &&
    a.fontAt(a.fontSize) === b.fontAt(b.fontSize)
  )
}

/** How long the view must stay put before a paragraph is drawn again for it (a wheel zoom). */
export const REST_MS = 150

const sameView = (a: RasterView, b: RasterView) =>
  a.snapped === b.snapped &&
  Math.abs(a.scale - b.scale) <= 1e-6 * b.scale &&
  Math.abs(a.phaseX - b.phaseX) < 1e-3 &&
  Math.abs(a.phaseY - b.phaseY) < 1e-3

/** Paragraphs waiting for the view to rest before they are drawn again. */
let resting = 0

/** How many paragraphs wait for the view to rest (the test build reads it: `REST_MS`). */
export function paragraphsResting(): number {
  return resting
}

/**
 * A paragraph on the canvas drawn the way the browser paints it (docs/editor.md «Canvas and
 * preview, pixel for pixel»): into a picture with one texel per device pixel, each line at the
 * fraction of a pixel where the screen has it, and the picture laid on whole device pixels
 * (`text-raster.ts`). The picture is drawn again when the zoom or the fraction changes, once the
 * view has stood still for `REST_MS` (meanwhile the last one is stretched and moved with the world),
 * and at once when the paragraph changes.
 */
export class PixelText extends Sprite {
  private current: PixelTextSpec | null = null
  private drawn: { view: RasterView; spec: PixelTextSpec; layout: RasterLayout } | null = null
  private wanted: RasterView | null = null
  private wantedSince = 0
  private timer: ReturnType<typeof setTimeout> | null = null
  private readonly matrix = new Matrix()

  constructor(options: { spec?: PixelTextSpec } = {}) {
    super(Texture.EMPTY)
    this.onRender = (renderer: Renderer) => this.sync(renderer.resolution)
    if (options.spec) this.spec = options.spec
  }

  /** What the paragraph says. */
  get text(): string {
    return this.current?.text ?? ''
  }

  get spec(): PixelTextSpec | null {
    return this.current
  }

  set spec(spec: PixelTextSpec | null) {
    // A block drawn again with the same paragraph (a new object from a render that changed
    // something else) is neither drawn again nor a change of the canvas.
    if (spec === this.current || (spec && this.current && sameSpec(spec, this.current))) return
    this.current = spec
    // Drawn on the next frame, which this asks for.
    this.onViewUpdate()
  }

  /** Before each frame: the picture fits the view, or is drawn again for it. */
  private sync(resolution: number) {
    const spec = this.current
    if (!spec || !this.parent || this.destroyed) return
    // Pixi calls this before every frame whether or not the paragraph is drawn: inside a world
    // hidden by a pan's picture, every paragraph followed the view at each frame and was drawn
    // again once the view rested, a change of the world nobody saw (docs/editor.md «The end of a
    // pan»); a frame limited to one place measured every paragraph left out of it. A paragraph
    // not drawn waits until it is.
    if (!drawnInTree(this)) return
    const m = this.parent.getGlobalTransform(this.matrix, false)
    const view = rasterView(
      {
        a: m.a * resolution,
        b: m.b * resolution,
        c: m.c * resolution,
        d: m.d * resolution,
        tx: m.tx * resolution,
        ty: m.ty * resolution,
      },
      spec.x,
      spec.y,
      {
        width: Math.max(spec.width, ...spec.lineWidths),
        height: spec.lines.length * spec.lineHeight,
      },
    )
    const drawn = this.drawn
    if (!drawn || drawn.spec !== spec) return this.draw(spec, view)
    if (sameView(drawn.view, view)) {
      this.wanted = null
      return
    }
    const now = performance.now()
    if (!this.wanted || !sameView(this.wanted, view)) {
      this.wanted = view
      this.wantedSince = now
    }
    if (now - this.wantedSince >= REST_MS) return this.draw(spec, view)
    // Until then the last picture moves and scales with the world; a frame is asked for later.
    if (this.timer === null) {
      resting += 1
      this.timer = setTimeout(
        () => {
          this.timer = null
          resting -= 1
          if (!this.destroyed) this.onViewUpdate()
        },
        REST_MS - (now - this.wantedSince) + 1,
      )
    }
  }

  private draw(spec: PixelTextSpec, view: RasterView) {
    this.wanted = null
    const k = view.scale
    if (!(k > 0)) return
    // Nothing measured (no 2D canvas to measure with) or nothing to draw on: the paragraph shows
    // nothing until it or the view changes, and the canvas goes on.
    if (spec.lines.length === 0 || typeof document === 'undefined')
      return this.drawNothing(spec, view)
    const lines = lineOrigins(
      spec.lineWidths,
      spec.width,
      spec.align,
      spec.baseline,
      spec.lineHeight,
    )
    const margin = Math.ceil(spec.fontSize * k * 0.5) + 2
    const layout = rasterLayout(
      view,
      spec.x,
      spec.y,
      lines,
      spec.lineWidths,
      spec.lines.length * spec.lineHeight,
      margin,
    )
    const canvas = document.createElement('canvas')
    canvas.width = Math.max(1, layout.width)
    canvas.height = Math.max(1, layout.height)
    // A browser may refuse a 2D canvas (too many of them, or none at all).
    let context: CanvasRenderingContext2D | null = null
    try {
      context = canvas.getContext('2d')
    } catch {
      context = null
    }
    if (!context) return this.drawNothing(spec, view)
    context.font = spec.fontAt(spec.fontSize * k)
    context.fillStyle = spec.color
    context.textBaseline = 'alphabetic'
    spec.lines.forEach((line, i) => {
      const at = layout.lines[i]!
      context.fillText(line, at.x, at.y)
    })
    this.show(new Texture({ source: new CanvasSource({ resource: canvas, resolution: 1 }) }))
    this.position.set(layout.x, layout.y)
    this.scale.set(1 / k)
    this.drawn = { view, spec, layout }
  }

  /** Shows no picture for `spec` at `view` (and frees the last one). */
  private drawNothing(spec: PixelTextSpec, view: RasterView) {
    this.show(Texture.EMPTY)
    this.drawn = { view, spec, layout: { width: 0, height: 0, lines: [], x: spec.x, y: spec.y } }
  }

  /** Shows `texture` and destroys the picture shown before, with its canvas. */
  private show(texture: Texture) {
    const previous = this.texture
    if (previous === texture) return
    this.texture = texture
    release(previous)
  }

  override destroy(options?: Parameters<Sprite['destroy']>[0]) {
    if (this.timer !== null) {
      clearTimeout(this.timer)
      resting -= 1
    }
    this.timer = null
    const texture = this.texture
    const canvas = texture ? canvasOf(texture) : null
    super.destroy(options)
    // The picture is this paragraph's own, whatever the options say: it goes with it (the reopen
    // figures count live textures, docs/editor.md «Memory after long editing»).
    if (texture) release(texture, canvas)
  }
}

/**
 * Destroys a paragraph's picture: its GPU texture and its canvas's pixels, which a browser
 * otherwise keeps until the canvas element is collected.
 */
function release(texture: Texture, canvas = canvasOf(texture)) {
  if (texture === Texture.EMPTY) return
  if (!texture.destroyed) texture.destroy(true)
  if (canvas) {
    canvas.width = 0
    canvas.height = 0
  }
}

/** The canvas a paragraph's picture was drawn in (none once its texture is destroyed). */
function canvasOf(texture: Texture): HTMLCanvasElement | null {
  const resource = texture.source?.resource as unknown
  return typeof HTMLCanvasElement !== 'undefined' && resource instanceof HTMLCanvasElement
    ? resource
    : null
}

declare module '@pixi/react' {
  interface PixiElements {
    /** `extend({ PixelText })` in `editor-canvas.tsx`. */
    pixiPixelText: PixiReactElementProps<typeof PixelText>
  }
}
