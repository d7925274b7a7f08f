// @vitest-environment jsdom
import { Container, type Application } from 'pixi.js'
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
