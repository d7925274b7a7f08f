// @vitest-environment jsdom
import { Container, Graphics, Text, type Application } from 'pixi.js'
import { describe, expect, it, vi } from 'vitest'
import { OnDemandRender, hookableGroup } from '../../src/features/editor/canvas/on-demand-render.ts'

/**
 * The WebGL context's part OnDemandRender uses: the scissor as each frame found it is recorded
 * (null: off), for a drawing buffer of 400 × 300 that is kept between frames or not.
 */
function fakeGl(preserveDrawingBuffer: boolean) {
  let scissor: number[] | null = null
  let on = false
  const frames: (number[] | null)[] = []
  const gl = {
    SCISSOR_TEST: 0x0c11,
    drawingBufferWidth: 400,
    drawingBufferHeight: 300,
    getContextAttributes: () => ({ preserveDrawingBuffer }),
    enable: () => (on = true),
    disable: () => (on = false),
    scissor: (...box: number[]) => (scissor = box),
  }
  return { gl, frames, seen: () => frames.push(on ? scissor : null) }
}

/** An application without a GPU: what OnDemandRender touches of it, recorded. */
function fakeApp(stage: Container, context?: ReturnType<typeof fakeGl>) {
  const ticker = { add: vi.fn(), remove: vi.fn() }
  const app = {
    stage,
    canvas: null,
    ticker,
    renderer: {
      events: { setTargetElement: vi.fn() },
      on: vi.fn(),
      off: vi.fn(),
      resolution: 1,
      gl: context?.gl,
      canvas: new EventTarget(),
    },
    render: vi.fn(() => context?.seen()),
    stop: vi.fn(),
    start: vi.fn(),
  }
  return { app, asApp: app as unknown as Application }
}

/** A container whose render group lacks `missing` (as a Pixi upgrade that renamed it would). */
function containerWithout(missing: 'onChildUpdate' | 'onChildViewUpdate' | 'structureDidChange') {
  const container = new Container()
  const enable = container.enableRenderGroup.bind(container)
  container.enableRenderGroup = () => {
    enable()
    const group = (container as unknown as { renderGroup: Record<string, unknown> }).renderGroup
    // An own property shadowing the prototype's method, as if Pixi had never had it.
    Object.defineProperty(group, missing, { value: undefined, configurable: true, writable: true })
  }
  return container
}

/**
 * The animation frames the scheduler asks for, run by hand: the function returned tells whether a
 * frame was asked for since its last call (and draws it).
 */
function handRunFrames(): () => boolean {
  const waiting: FrameRequestCallback[] = []
  vi.stubGlobal('requestAnimationFrame', (f: FrameRequestCallback) => waiting.push(f))
  vi.stubGlobal('cancelAnimationFrame', () => undefined)
  return () => {
    const frames = waiting.splice(0)
    for (const f of frames) f(0)
    return frames.length > 0
  }
}

describe('drawing on demand hooks into the installed Pixi (docs/editor.md "Drawing")', () => {
  it("finds every hook it replaces on Pixi's render group", () => {
    expect(hookableGroup(new Container())).not.toBeNull()
  })

  it('hears a move, a redrawn view and a structure change through those hooks', () => {
    const asked = handRunFrames()
    const stage = new Container()
    const { app, asApp } = fakeApp(stage)
    const painter = new OnDemandRender(asApp)
    expect(painter.mode).toBe('on-demand')
    expect(asked()).toBe(true)
    expect(app.render).toHaveBeenCalledTimes(1)
    expect(asked()).toBe(false)

    const world = new Container()
    stage.addChild(world)
    expect(asked()).toBe(true)
    const graphic = new Graphics().rect(0, 0, 10, 10).fill(0xff0000)
    const text = new Text({ text: 'Блок' })
    world.addChild(graphic, text)
    expect(asked()).toBe(true)
    // What a drawn frame does to the render group: the structure is rebuilt, updates consumed.
    const group = (stage as unknown as { renderGroup: { structureDidChange: boolean } }).renderGroup
    group.structureDidChange = false
    for (const child of [world, graphic, text]) {
      child.didChange = false
      ;(child as Container & { didViewUpdate: boolean }).didViewUpdate = false
    }
    asked()

    graphic.x = 25
    expect(asked()).toBe(true)
    text.text = 'Другой блок'
    expect(asked()).toBe(true)
    stage.removeChild(world)
    expect(asked()).toBe(true)
    painter.destroy()
    vi.unstubAllGlobals()
  })
})

describe('objects the drag layer shows ask for no frame (docs/editor.md "Drawing")', () => {
  it('moving a quiet block asks for nothing; others, and the block once heard again, do', () => {
    const asked = handRunFrames()
    const stage = new Container()
    const { asApp } = fakeApp(stage)
    const painter = new OnDemandRender(asApp)
    const world = new Container()
    const moving = new Container()
    const still = new Container()
    world.addChild(moving, still)
    stage.addChild(world)
    painter.watch(world)
    asked()
    // What a drawn frame does: updates consumed.
    const consume = () => {
      for (const c of [world, moving, still]) c.didChange = false
    }
    consume()

    painter.quiet(new Set([moving]))
    for (let x = 1; x <= 3; x += 1) {
      moving.position.set(x * 10, x)
      expect(asked()).toBe(false)
      consume()
    }
    still.x = 5
    expect(asked()).toBe(true)
    consume()

    painter.quiet(null)
    moving.x = 99
    expect(asked()).toBe(true)
    painter.destroy()
    vi.unstubAllGlobals()
  })
})

describe("the frame after a release draws the blocks' rectangle alone (docs/editor.md «Drawing one place»)", () => {
  /** A scene of two blocks, drawn once; `consume` does what a drawn frame does to them. */
  function scene(context: ReturnType<typeof fakeGl>) {
    const asked = handRunFrames()
    const stage = new Container()
    const { app, asApp } = fakeApp(stage, context)
    const painter = new OnDemandRender(asApp)
    const world = new Container()
    const moving = new Graphics().rect(0, 0, 40, 20).fill(0xff0000)
    const still = new Graphics().rect(0, 0, 40, 20).fill(0x00ff00)
    still.position.set(200, 200)
    world.addChild(moving, still)
    stage.addChild(world)
    painter.watch(world)
    asked()
    const consume = () => {
      for (const c of [world, moving, still]) c.didChange = false
      const groups = [stage, world].map(
        (c) => (c as unknown as { renderGroup: { structureDidChange: boolean } }).renderGroup,
      )
      for (const g of groups) g.structureDidChange = false
    }
    consume()
    /** The drag layer hands back `moving`, dropped at 100, 50 from 0, 0; the frame is drawn. */
    const release = () => {
      painter.track('released', [moving], { x: 0, y: 0, width: 40, height: 20 })
      painter.tracked('released', () => {
        moving.visible = false
        moving.visible = true
      })
      moving.position.set(100, 50)
      expect(asked()).toBe(true)
      consume()
    }
    return { app, asked, painter, moving, still, consume, release }
  }

  it('scissors the frame to where the block was and is, and draws everything after any other change', () => {
    const context = fakeGl(true)
    const { asked, painter, still, consume, release } = scene(context)
    release()
    // 0…140 × 0…70, 2 px of margin (clipped at 0): 0…142 × 0…72; y from the bottom: 300 − 72.
    expect(context.frames.at(-1)).toEqual([0, 228, 142, 72])
    expect(painter.limitedFrames).toBe(1)

    still.x = 210
    expect(asked()).toBe(true)
    consume()
    expect(context.frames.at(-1)).toBeNull()
    painter.destroy()
    vi.unstubAllGlobals()
  })

  it('leaves out of a limited frame what lies wholly outside it, and gives it back after', () => {
    const context = fakeGl(true)
    const { app, asked, painter, moving, still, consume, release } = scene(context)
    painter.drawOnly(() => [moving, still])
    const drawn: boolean[][] = []
    app.render.mockImplementation(() => {
      drawn.push([moving.renderable, still.renderable])
      return context.seen()
    })
    release()
    expect(painter.limitedFrames).toBe(1)
    // The still block (200…240 × 200…220) lies outside 0…142 × 0…72: not drawn, then back.
    expect(drawn.at(-1)).toEqual([true, false])
    expect(still.renderable).toBe(true)
    // Giving it back is no change to draw.
    expect(asked()).toBe(false)
    // A limited frame reaching it draws it.
    painter.track('released', [moving], { x: 100, y: 50, width: 40, height: 20 })
    moving.position.set(190, 190)
    expect(asked()).toBe(true)
    consume()
    expect(painter.limitedFrames).toBe(2)
    expect(drawn.at(-1)).toEqual([true, true])
    // A whole frame draws everything.
    still.x = 210
    expect(asked()).toBe(true)
    expect(context.frames.at(-1)).toBeNull()
    expect(drawn.at(-1)).toEqual([true, true])
    painter.destroy()
    vi.unstubAllGlobals()
  })

  it('leaves alone the drawables of a hidden world: a pan picture sees no change of them', () => {
    const context = fakeGl(true)
    const { app, painter, moving, still, release } = scene(context)
    painter.drawOnly(() => [moving, still])
    // A pan's picture hides the world without a frame (docs/editor.md «The end of a pan»).
    painter.hold(() => (still.parent!.visible = false))
    const counted = still as unknown as {
      _didContainerChangeTick: number
      _didViewChangeTick: number
    }
    const ticks = () => counted._didContainerChangeTick + counted._didViewChangeTick
    const before = ticks()
    const drawn: boolean[] = []
    app.render.mockImplementation(() => {
      drawn.push(still.renderable)
      return context.seen()
    })
    release()
    expect(painter.limitedFrames).toBe(1)
    // Drawn as it was, and never touched: Pixi counted no change of it.
    expect(drawn).toEqual([true])
    expect(ticks()).toBe(before)
    painter.destroy()
    vi.unstubAllGlobals()
  })

  it('says the canvas shows the stage as it is only once drawn and until the next change', () => {
    const context = fakeGl(true)
    const { asked, painter, still, consume } = scene(context)
    expect(painter.current).toBe(true)
    still.x = 210
    expect(painter.current).toBe(false)
    asked()
    consume()
    expect(painter.current).toBe(true)
    painter.redraw({ x: 0, y: 0, width: 10, height: 10 })
    expect(painter.current).toBe(false)
    asked()
    expect(painter.current).toBe(true)
    painter.destroy()
    // A drawing buffer not kept: its pixels cannot be read after the frame.
    const unkept = scene(fakeGl(false))
    expect(unkept.painter.current).toBe(false)
    unkept.painter.destroy()
    vi.unstubAllGlobals()
  })

  it('draws a whole frame when the browser gives a lost context back', () => {
    const context = fakeGl(true)
    const { app, asked, painter, moving, consume } = scene(context)
    painter.track('released', [moving], { x: 0, y: 0, width: 40, height: 20 })
    moving.x = 30
    asked()
    consume()
    expect(context.frames.at(-1)).not.toBeNull()
    app.renderer.canvas.dispatchEvent(new Event('webglcontextrestored'))
    expect(asked()).toBe(true)
    expect(context.frames.at(-1)).toBeNull()
    painter.destroy()
    vi.unstubAllGlobals()
  })

  it('draws whole frames when the drawing buffer is not kept between frames', () => {
    const context = fakeGl(false)
    const { asked, painter, moving } = scene(context)
    painter.track('released', [moving], { x: 0, y: 0, width: 40, height: 20 })
    moving.x = 30
    expect(asked()).toBe(true)
    expect(context.frames.at(-1)).toBeNull()
    expect(painter.limitedFrames).toBe(0)
    painter.destroy()
    vi.unstubAllGlobals()
  })
})

describe("without those hooks the stage is drawn by Pixi's own loop", () => {
  for (const missing of ['onChildUpdate', 'onChildViewUpdate', 'structureDidChange'] as const) {
    it(`when the render group has no ${missing}`, () => {
      const { app, asApp } = fakeApp(containerWithout(missing))
      const frames: number[] = []
      const painter = new OnDemandRender(asApp, (n) => frames.push(n))
      expect(painter.mode).toBe('ticker')
      // The ticker keeps running (never stopped, started again) and each of its frames is counted.
      expect(app.stop).not.toHaveBeenCalled()
      expect(app.start).toHaveBeenCalled()
      expect(app.ticker.add).toHaveBeenCalledTimes(1)
      const tick = app.ticker.add.mock.calls[0]![0] as () => void
      tick()
      tick()
      expect(frames).toEqual([1, 2])
      painter.destroy()
      expect(app.ticker.remove).toHaveBeenCalledWith(tick)
    })
  }

  it('when only a later render group (the world) lacks them: the stage is unhooked too', () => {
    const stage = new Container()
    const { app, asApp } = fakeApp(stage)
    const painter = new OnDemandRender(asApp)
    expect(painter.mode).toBe('on-demand')
    expect(app.stop).toHaveBeenCalled()
    painter.watch(containerWithout('onChildUpdate'))
    expect(painter.mode).toBe('ticker')
    expect(app.start).toHaveBeenCalled()
    // The stage's prototype methods show through again.
    const group = (stage as unknown as { renderGroup: object }).renderGroup
    expect(Object.hasOwn(group, 'onChildUpdate')).toBe(false)
    painter.destroy()
  })
})
