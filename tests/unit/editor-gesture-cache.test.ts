// @vitest-environment jsdom
import { Container, Graphics, Sprite, Texture, type Application } from 'pixi.js'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { GestureCache } from '../../src/features/editor/canvas/gesture-cache.ts'

const SCREEN = { width: 800, height: 600 }
/** The world pictured around the screen during a pan: a fifth of its longer side. */
const MARGIN = 160

/**
 * A WebGL2 context as far as timing a picture goes: fences that pass once the test says the GPU
 * has drawn, and a read-back that is recorded (it stalls a tablet's GPU, so it must not happen).
 */
function fakeGl() {
  let drawn = false
  const gl = {
    SYNC_GPU_COMMANDS_COMPLETE: 0x9117,
    ALREADY_SIGNALED: 0x911a,
    TIMEOUT_EXPIRED: 0x911b,
    CONDITION_SATISFIED: 0x911c,
    WAIT_FAILED: 0x911d,
    RGBA: 0x1908,
    UNSIGNED_BYTE: 0x1401,
    readPixels: vi.fn(),
    finish: vi.fn(),
    flush: vi.fn(),
    fenceSync: vi.fn(() => ({})),
    deleteSync: vi.fn(),
    clientWaitSync: vi.fn(() => (drawn ? 0x911a : 0x911b)),
  }
  return {
    gl,
    /** The GPU catches up (or falls behind again with the next picture). */
    setDrawn: (value: boolean) => (drawn = value),
  }
}

function fakeApp(gl: unknown) {
  const stage = new Container()
  const world = new Container()
  stage.addChild(world)
  const render = vi.fn()
  const app = {
    stage,
    screen: SCREEN,
    renderer: {
      gl,
      render,
      resolution: 1,
      view: { antialias: true },
      background: { colorRgba: [0.87, 0.89, 0.9, 1] },
    },
  } as unknown as Application
  return { app, world, render }
}

let now = 0
afterEach(() => vi.restoreAllMocks())

describe('a pan picture is timed without waiting for the GPU (docs/editor.md "Drawing")', () => {
  it('never reads pixels back, asks a fence with a zero timeout, and holds the next picture while the GPU draws', () => {
    vi.spyOn(performance, 'now').mockImplementation(() => now)
    const { gl, setDrawn } = fakeGl()
    const { app, world, render } = fakeApp(gl)
    const cache = new GestureCache(app, world)
    now = 1000
    cache.beginView({ zoom: 1, panX: 0, panY: 0 })
    expect(render).toHaveBeenCalledTimes(1)
    expect(gl.fenceSync).toHaveBeenCalledTimes(1)

    // A pan within the margin pictured around the screen shows nothing blank: no new picture.
    now = 1500
    cache.follow({ zoom: 1, panX: MARGIN, panY: -MARGIN })
    expect(render).toHaveBeenCalledTimes(1)
    // A small strip past it shows blank; a second later the GPU is still drawing the first picture (a
    // second of work): no second picture is asked of it yet.
    now = 2000
    cache.follow({ zoom: 1, panX: MARGIN + 30, panY: 0 })
    expect(render).toHaveBeenCalledTimes(1)
    // It finishes; the picture cost about 1.1 s, so the next waits three times as long.
    setDrawn(true)
    now = 2100
    cache.follow({ zoom: 1, panX: MARGIN + 31, panY: 0 })
    expect(render).toHaveBeenCalledTimes(1)
    now = 1000 + 3 * 1100 - 10
    cache.follow({ zoom: 1, panX: MARGIN + 32, panY: 0 })
    expect(render).toHaveBeenCalledTimes(1)
    now = 1000 + 3 * 1100 + 10
    cache.follow({ zoom: 1, panX: MARGIN + 33, panY: 0 })
    expect(render).toHaveBeenCalledTimes(2)

    for (const [, , timeout] of gl.clientWaitSync.mock.calls as unknown as number[][])
      expect(timeout).toBe(0)
    expect(gl.readPixels).not.toHaveBeenCalled()
    expect(gl.finish).not.toHaveBeenCalled()
    cache.end()
    // Every fence made is let go.
    expect(gl.deleteSync).toHaveBeenCalledTimes(gl.fenceSync.mock.calls.length)
  })

  it('pictures the world around the screen, and places the picture so the screen lines up', () => {
    const { gl } = fakeGl()
    const { app, world, render } = fakeApp(gl)
    world.position.set(10, 20)
    const cache = new GestureCache(app, world)
    cache.beginView({ zoom: 1, panX: 10, panY: 20 })
    const [options] = render.mock.calls[0] as [
      { target: { width: number; height: number }; transform: { tx: number; ty: number } },
    ]
    expect([options.target.width, options.target.height]).toEqual([
      SCREEN.width + 2 * MARGIN,
      SCREEN.height + 2 * MARGIN,
    ])
    // The world's own view, moved into the picture by the margin.
    expect([options.transform.tx, options.transform.ty]).toEqual([10 + MARGIN, 20 + MARGIN])
    const [picture] = app.stage.children.filter((c) => c.label === 'gesture-cache')
    expect([picture!.x, picture!.y]).toEqual([-MARGIN, -MARGIN])
    cache.follow({ zoom: 2, panX: 50, panY: 20 })
    // A world point w was at w + (10, 20) + margin in the picture; it belongs at 2w + (50, 20).
    expect([picture!.x, picture!.y, picture!.scale.x]).toEqual([
      50 - 2 * 10 - 2 * MARGIN,
      20 - 2 * 20 - 2 * MARGIN,
      2,
    ])
    cache.end()
  })

  it('a quarter of the screen blank is pictured again even while the GPU draws', () => {
    vi.spyOn(performance, 'now').mockImplementation(() => now)
    const { gl } = fakeGl()
    const { app, world, render } = fakeApp(gl)
    const cache = new GestureCache(app, world)
    now = 0
    cache.beginView({ zoom: 1, panX: 0, panY: 0 })
    now = 100
    cache.follow({ zoom: 1, panX: MARGIN + SCREEN.width / 3, panY: 0 })
    expect(render).toHaveBeenCalledTimes(2)
    expect(gl.readPixels).not.toHaveBeenCalled()
    cache.end()
  })

  it('without WebGL2 the picture is timed by the CPU alone', () => {
    vi.spyOn(performance, 'now').mockImplementation(() => now)
    const gl1 = { readPixels: vi.fn(), RGBA: 0x1908, UNSIGNED_BYTE: 0x1401 }
    const { app, world, render } = fakeApp(gl1)
    const cache = new GestureCache(app, world)
    now = 0
    cache.beginView({ zoom: 1, panX: 0, panY: 0 })
    now = 300
    cache.follow({ zoom: 1, panX: MARGIN + 30, panY: 0 })
    expect(render).toHaveBeenCalledTimes(2)
    expect(gl1.readPixels).not.toHaveBeenCalled()
    cache.end()
  })
})

describe('the frozen pictures cost one write per pixel (docs/editor.md "Frame cost")', () => {
  it('the lowest picture is taken on the canvas colour and drawn without blending; the one above blends', () => {
    const { gl } = fakeGl()
    const { app, world, render } = fakeApp(gl)
    const background = new Container()
    const [under, moving, over] = [new Container(), new Container(), new Container()]
    background.addChild(under, moving, over)
    world.addChild(background)
    const cache = new GestureCache(app, world)
    cache.begin(new Set([moving]))
    const pictures = app.stage.children.filter((c) => c.label === 'gesture-cache')
    expect(pictures.map((p) => p.blendMode)).toEqual(['none', 'inherit'])
    const clears = render.mock.calls.map(
      ([options]) => (options as { clearColor: number[] }).clearColor,
    )
    expect(clears).toEqual([
      [0.87, 0.89, 0.9, 1],
      [0, 0, 0, 0],
    ])
    cache.end()
  })
})

describe('a pan picture begins from the canvas (docs/editor.md «A picture begun from the canvas»)', () => {
  /** A WebGL2 context (as far as `instanceof` goes) that logs the copies, scissors and draws. */
  class FakeWebGL2 {}
  function copyingGl(preserveDrawingBuffer = true, antialias = false) {
    const log: string[] = []
    const gl = Object.assign(Object.create(FakeWebGL2.prototype) as object, {
      ...fakeGl().gl,
      READ_FRAMEBUFFER: 0x8ca8,
      READ_FRAMEBUFFER_BINDING: 0x8caa,
      COLOR_BUFFER_BIT: 0x4000,
      NEAREST: 0x2600,
      SCISSOR_TEST: 0xc11,
      drawingBufferWidth: SCREEN.width,
      drawingBufferHeight: SCREEN.height,
      getContextAttributes: () => ({ preserveDrawingBuffer, antialias }),
      getParameter: () => 'picture framebuffer',
      bindFramebuffer: (_target: number, fb: unknown) => log.push(`bind ${String(fb)}`),
      blitFramebuffer: (...args: number[]) => log.push(`blit ${args.slice(0, 8).join(' ')}`),
      enable: () => undefined,
      disable: () => log.push('scissor off'),
      scissor: (...args: number[]) => log.push(`scissor ${args.join(' ')}`),
    })
    return { gl, log }
  }
  function copyingApp(gl: unknown, log: string[]) {
    const { app, world, render } = fakeApp(gl)
    render.mockImplementation(() => log.push('draw'))
    Object.assign(app.renderer, {
      renderTarget: { bind: () => log.push('bind picture') },
    })
    return { app, world, render }
  }
  const overlay = { x: 100, y: 50, width: 40, height: 30 }

  it('copies the screen into the picture upside down, and draws the world again under the overlay alone', () => {
    vi.stubGlobal('WebGL2RenderingContext', FakeWebGL2)
    const { gl, log } = copyingGl()
    const { app, world } = copyingApp(gl, log)
    const cache = new GestureCache(app, world)
    cache.beginView({ zoom: 1, panX: 0, panY: 0 }, { overlay })
    const [w, h, m] = [SCREEN.width, SCREEN.height, MARGIN]
    expect(log).toEqual([
      'bind picture',
      'bind null',
      `blit 0 0 ${w} ${h} ${m} ${m + h} ${m + w} ${m}`,
      'bind picture framebuffer',
      // The overlay's rectangle in the picture, 2 px wider on every side.
      `scissor ${100 + m - 2} ${50 + m - 2} 44 34`,
      'draw',
      'scissor off',
    ])
    expect(cache.picturesCopied).toBe(1)
    // The world is hidden again: the picture shows it.
    expect(world.visible).toBe(false)

    // A pan 30 px left shows what lay right of the screen: that strip and 96 px more are drawn.
    log.length = 0
    cache.follow({ zoom: 1, panX: -30, panY: 0 })
    expect(log).toEqual([`scissor ${m + w} ${m} ${30 + 96} ${h}`, 'draw', 'scissor off'])
    // Back within it: nothing more.
    log.length = 0
    cache.follow({ zoom: 1, panX: -100, panY: 0 })
    cache.follow({ zoom: 1, panX: 0, panY: 0 })
    expect(log).toEqual([])
    expect(cache.stripsFilled).toBe(1)
    cache.end()
    vi.unstubAllGlobals()
  })

  it('draws into a strip only the drawables that reach into it, and shows them all again after', () => {
    vi.stubGlobal('WebGL2RenderingContext', FakeWebGL2)
    const { gl, log } = copyingGl()
    const { app, world, render } = copyingApp(gl, log)
    const background = new Container()
    const [near, far] = [new Graphics().rect(0, 0, 20, 20).fill(0), new Graphics()]
    far.rect(0, 0, 20, 20).fill(0)
    near.position.set(SCREEN.width + 10, 100)
    far.position.set(SCREEN.width + 400, 100)
    background.addChild(near, far)
    world.addChild(background)
    const drawn: string[][] = []
    const drawnAt: number[] = []
    render.mockImplementation(() => {
      drawn.push([near, far].filter((d) => d.renderable).map((d) => (d === near ? 'near' : 'far')))
      drawnAt.push(world.x)
    })
    const cache = new GestureCache(app, world)
    cache.beginView({ zoom: 1, panX: 0, panY: 0 }, { overlay: null })
    // A pan 30 px left (the view moves the world first): the strip right of the screen holds the
    // near block, not the far one.
    world.x = -30
    cache.follow({ zoom: 1, panX: -30, panY: 0 })
    expect(drawn).toEqual([['near']])
    expect([near.renderable, far.renderable]).toEqual([true, true])
    // The world is drawn where it was pictured, and put back where the view has it.
    expect(drawnAt).toEqual([0])
    expect(world.x).toBe(-30)
    cache.end()
    vi.unstubAllGlobals()
  })

  it('takes the whole picture when the canvas does not show the world as it is, does not keep it, or is multisampled', () => {
    vi.stubGlobal('WebGL2RenderingContext', FakeWebGL2)
    for (const [preserve, antialias, shown] of [
      [true, false, null],
      [false, false, { overlay }],
      // Multisampled: WebGL2 refuses to copy it upside down.
      [true, true, { overlay }],
    ] as const) {
      const { gl, log } = copyingGl(preserve, antialias)
      const { app, world } = copyingApp(gl, log)
      const cache = new GestureCache(app, world)
      cache.beginView({ zoom: 1, panX: 0, panY: 0 }, shown)
      expect(log).toEqual(['draw'])
      expect(cache.picturesCopied).toBe(0)
      // The picture holds the margin already: a pan within it draws nothing.
      cache.follow({ zoom: 1, panX: -30, panY: 0 })
      expect(log).toEqual(['draw'])
      cache.end()
    }
    vi.unstubAllGlobals()
  })

  describe('the end of a pan (docs/editor.md «The end of a pan»)', () => {
    /** A world of one background with two blocks, panned 30 px left as the editor's view does. */
    function panned() {
      vi.stubGlobal('WebGL2RenderingContext', FakeWebGL2)
      const { gl, log } = copyingGl()
      const { app, world } = copyingApp(gl, log)
      const background = new Container()
      const block = new Graphics().rect(0, 0, 20, 20).fill(0)
      const picture = new Sprite(Texture.EMPTY)
      block.position.set(SCREEN.width + 10, 100)
      background.addChild(block, picture)
      world.addChild(background)
      const cache = new GestureCache(app, world)
      cache.beginView({ zoom: 1, panX: 0, panY: 0 }, { overlay: null })
      world.x = -30
      cache.follow({ zoom: 1, panX: -30, panY: 0 })
      return { cache, world, background, block, picture, log }
    }
    afterEach(() => vi.unstubAllGlobals())

    it('shows the world as the live scene would after a pan that kept the zoom, its strips drawn', () => {
      const { cache, log } = panned()
      // The strip right of the screen was drawn: the cache's own change of the world.
      expect(log).toContain('draw')
      expect(cache.showsWorldAt({ zoom: 1, panX: -30, panY: 0 })).toBe(true)
      // Not where the picture has not been placed and drawn, nor at another zoom, nor between
      // pixels.
      expect(cache.showsWorldAt({ zoom: 1, panX: -300, panY: 0 })).toBe(false)
      expect(cache.showsWorldAt({ zoom: 1.5, panX: -30, panY: 0 })).toBe(false)
      expect(cache.showsWorldAt({ zoom: 1, panX: -30.5, panY: 0 })).toBe(false)
      cache.end()
      expect(cache.showsWorldAt({ zoom: 1, panX: -30, panY: 0 })).toBe(false)
    })

    it('does not once anything inside the world changed during the pan', () => {
      const changes: [string, (parts: ReturnType<typeof panned>) => void][] = [
        ['a block moved', ({ block }) => block.position.set(block.x + 1, block.y)],
        ['a block hidden', ({ block }) => (block.visible = false)],
        ['a graphic drawn again', ({ block }) => block.clear().rect(0, 0, 30, 30).fill(0)],
        ['a picture loaded', ({ picture }) => (picture.texture = Texture.WHITE)],
        ['a block added', ({ background }) => background.addChild(new Container())],
        ['a block removed', ({ background, block }) => background.removeChild(block)],
      ]
      for (const [what, change] of changes) {
        const parts = panned()
        change(parts)
        expect(parts.cache.showsWorldAt({ zoom: 1, panX: -30, panY: 0 }), what).toBe(false)
        parts.cache.end()
      }
    })

    it('does not once the world changed before a strip drew part of it, even changed no more since', () => {
      const parts = panned()
      const { cache, world, block } = parts
      // Moved, then the pan reaches the left of the screen: the new strip draws it as it is now,
      // the rest of the picture as it was.
      block.position.set(block.x + 1, block.y)
      world.x = 30
      cache.follow({ zoom: 1, panX: 30, panY: 0 })
      expect(cache.showsWorldAt({ zoom: 1, panX: 30, panY: 0 })).toBe(false)
      cache.end()
    })
  })
})
