/**
 * The fair drag comparison (docs/editor.md "Figures"): the same scene drawn three ways, the same
 * scripted pointer gesture on each, frames counted when presented.
 *
 * - The editor opens a project whose blocks the benchmark made; `sceneFromEditor` reads where the
 *   editor drew each one (its test probe: centre, size before rotation, texts) and the canvas's box.
 * - Konva draws those boxes, rotations, texts and pictures on a stage of the same size at the same
 *   place on the page, with Konva's own advice for dragging: the still shapes are cached and the
 *   dragged group moves to a layer of its own while it is dragged, so the still layer is not drawn.
 * - A bare Pixi app draws the same as sprites, graphics and texts, at the editor's resolution, and
 *   draws a frame when the pointer moved the dragged one (no editor around it).
 */
import type { CDPSession, Page } from 'playwright-core'

export interface SceneBlock {
  /** Centre on the page and size before rotation, CSS px. */
  x: number
  y: number
  width: number
  height: number
  /** Degrees. */
  rotation: number
  text: string
  /** A picture block (draws `picture`), or a button (a filled, outlined box with its label). */
  picture: boolean
  fontPx: number
}

export interface Scene {
  /** The canvas's box on the page. */
  canvas: { x: number; y: number; width: number; height: number }
  /** The section: its box on the page and its background picture (a data URL). */
  section: { x: number; y: number; width: number; height: number }
  background: string
  picture: string
  blocks: SceneBlock[]
  /** Where the dragged block (the last, in front, upright) is grabbed: clear of its handles. */
  grab: { x: number; y: number }
  resolution: number
}

/** Sets the __name helper tsx's keepNames wraps functions sent to the page in. */
export const NAME_HELPER = 'globalThis.__name ??= (f) => f'

/**
 * Counts the frames a scene presents: an animation frame in which the scene's draw count moved on
 * is one presented frame. Each pointer move's time is kept; its latency is the time from the move
 * to the first such frame after it. `kind` says where the draw count is: the editor's canvas host
 * (`data-frames`, test build) or `window.__draws` (the Konva and bare Pixi pages).
 */
export async function startFrameCount(page: Page, kind: 'editor' | 'counter') {
  await page.evaluate(NAME_HELPER)
  await page.evaluate((k) => {
    type W = {
      __draws?: number
      __count?: { run: number; presented: number[]; moves: number[]; latencies: number[] }
    }
    const w = window as unknown as W
    // The editor's host is looked up once, not in every frame: a query of the editor's whole
    // document each frame cost its page about 0.1 ms a frame that Konva's counter does not pay.
    let host: HTMLElement | null = null
    const editorHost = () => {
      if (!host?.isConnected)
        host = document.querySelector<HTMLElement>('[data-testid="editor-canvas"]')
      return host
    }
    const read =
      k === 'editor' ? () => Number(editorHost()?.dataset.frames ?? 0) : () => w.__draws ?? 0
    const run = (w.__count?.run ?? 0) + 1
    const count: NonNullable<W['__count']> = { run, presented: [], moves: [], latencies: [] }
    w.__count = count
    let pending: number[] = []
    addEventListener(
      'pointermove',
      (e) => {
        if (w.__count !== count) return
        count.moves.push(e.timeStamp)
        pending.push(e.timeStamp)
      },
      { capture: true },
    )
    let last = read()
    const tick = (now: number) => {
      if (w.__count !== count) return
      const drawn = read()
      if (drawn !== last) {
        last = drawn
        count.presented.push(now)
        for (const t of pending) count.latencies.push(now - t)
        pending = []
      }
      requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
  }, kind)
}

export interface DragFigures {
  /** Frames presented per second between the first and the last pointer move. */
  fps: number
  /** Median time from a pointer move to the frame that shows it, ms. */
  latencyP50: number
}

/** The left button's input sent as a person's arrives (CDP Input.dispatchMouseEvent, awaited). */
export function cdpMouse(cdp: CDPSession) {
  return (
    type: 'mouseMoved' | 'mousePressed' | 'mouseReleased',
    x: number,
    y: number,
    buttons: number,
  ) =>
    cdp.send('Input.dispatchMouseEvent', {
      type,
      x,
      y,
      button: 'left',
      buttons,
      clickCount: type === 'mouseMoved' ? 0 : 1,
    })
}

/**
 * The scripted gesture: press on `from`, 90 moves round an ellipse (each sent with CDP
 * Input.dispatchMouseEvent and awaited, as a person's input arrives), back to `from`, release.
 */
export async function scriptedDrag(
  page: Page,
  cdp: CDPSession,
  from: { x: number; y: number },
  kind: 'editor' | 'counter',
  moves = 90,
): Promise<DragFigures> {
  await page.bringToFront()
  await startFrameCount(page, kind)
  const mouse = cdpMouse(cdp)
  await mouse('mouseMoved', from.x, from.y, 0)
  await mouse('mousePressed', from.x, from.y, 1)
  for (let k = 1; k <= moves; k += 1)
    await mouse(
      'mouseMoved',
      from.x + Math.cos(k / 15) * 60 - 60,
      from.y + Math.sin(k / 15) * 40,
      1,
    )
  await mouse('mouseMoved', from.x, from.y, 1)
  await mouse('mouseReleased', from.x, from.y, 0)
  // The last moves' frames.
  await page.waitForTimeout(300)
  const count = await page.evaluate(() => {
    type C = { presented: number[]; moves: number[]; latencies: number[] }
    const w = window as unknown as { __count: C | null }
    const c = w.__count!
    w.__count = null
    return c
  })
  const start = count.moves[0] ?? 0
  const end = count.moves[count.moves.length - 1] ?? 0
  const presented = count.presented.filter((t) => t > start && t <= end).length
  const sorted = [...count.latencies].sort((a, b) => a - b)
  return {
    fps: end > start ? (presented * 1000) / (end - start) : 0,
    latencyP50: sorted[Math.floor(sorted.length / 2)] ?? NaN,
  }
}

/** The scene as the editor drew it (test build: `window.__promoEditorCanvas`). */
export async function sceneFromEditor(
  page: Page,
  extra: {
    section: Scene['section']
    background: string
    picture: string
    /** Rotation by server id. */
    rotations: Map<number, number>
    fontPx: number
  },
): Promise<Scene> {
  const canvas = (await page.locator('[data-testid="editor-canvas"]').boundingBox())!
  await page.evaluate(NAME_HELPER)
  const probed = await page.evaluate(() => {
    type Probe = {
      id: number | null
      type: string
      clientX: number
      clientY: number
      width: number
      height: number
      texts: string[]
    }
    const hook = (window as unknown as { __promoEditorCanvas: { blocks(): Probe[] } })
      .__promoEditorCanvas
    return {
      blocks: hook.blocks(),
      resolution: Math.min(2, window.devicePixelRatio || 1),
    }
  })
  // Back to front: the editor probes in its own order; the benchmark made them with rising zindex.
  const blocks: SceneBlock[] = probed.blocks.map((b) => ({
    x: b.clientX,
    y: b.clientY,
    width: b.width,
    height: b.height,
    rotation: extra.rotations.get(b.id ?? 0) ?? 0,
    text: b.texts[0] ?? '',
    picture: b.type === 'image',
    fontPx: extra.fontPx,
  }))
  const last = blocks[blocks.length - 1]!
  return {
    canvas,
    section: extra.section,
    background: extra.background,
    picture: extra.picture,
    blocks,
    // A quarter of its width left of its centre: once the block is selected (after the first
    // drag), a press at its centre lands within reach of its top and bottom handles (the block is
    // about 13 px high) and resizes it instead of moving it.
    grab: { x: last.x - last.width / 4, y: last.y },
    resolution: probed.resolution,
  }
}

const BUTTON = { fill: '#336699', stroke: '#000000', text: '#ffffff' }

/** The pictures a scene page loaded (`scenePage`): the section's background and the picture blocks'. */
interface ScenePictures {
  bg: HTMLImageElement
  pic: HTMLImageElement
}

/**
 * A blank page for a scene drawn by something other than the editor: `script` (Konva, Pixi) added,
 * the draw counter at 0, the stage's host placed where the editor's canvas is, and the scene's two
 * pictures loaded (`window.__pictures`).
 */
async function scenePage(page: Page, scene: Scene, script?: string) {
  await page.setContent(
    '<!doctype html><html><body style="margin:0;background:#fff"><div id="stage"></div></body></html>',
  )
  if (script) await page.addScriptTag({ path: script })
  await page.evaluate(NAME_HELPER)
  await page.evaluate(async (scene) => {
    const w = window as unknown as { __draws: number; __pictures: ScenePictures }
    w.__draws = 0
    const load = (src: string) =>
      new Promise<HTMLImageElement>((resolve) => {
        const img = new Image()
        img.onload = () => resolve(img)
        img.src = src
      })
    const [bg, pic] = await Promise.all([load(scene.background), load(scene.picture)])
    w.__pictures = { bg, pic }
    Object.assign(document.getElementById('stage')!.style, {
      position: 'absolute',
      left: `${scene.canvas.x}px`,
      top: `${scene.canvas.y}px`,
    })
  }, scene)
}

/**
 * The scene in Konva, with Konva's advice for dragging. With `snapping`, the dragged block snaps as
 * in the editor and Konva's own snapping example shows it: its corner to the editor's grid, then
 * its edges and centre to those of the section and the other blocks within 6 px, the nearest on
 * each axis winning, a guide line drawn for each on the drag layer at every move. The stops are
 * gathered once, when the drag starts (Konva's example gathers them at every move).
 */
export async function openKonvaScene(
  page: Page,
  konvaPath: string,
  scene: Scene,
  { snapping = false }: { snapping?: boolean } = {},
) {
  await scenePage(page, scene, konvaPath)
  await page.evaluate(
    ({ scene, colours, snapping }) => {
      /* eslint-disable @typescript-eslint/no-explicit-any */
      const Konva = (window as any).Konva
      const w = window as unknown as {
        __draws: number
        __pictures: ScenePictures
        __guidedMoves?: number
      }
      const { bg, pic } = w.__pictures
      const stage = new Konva.Stage({
        container: 'stage',
        width: scene.canvas.width,
        height: scene.canvas.height,
      })
      const still = new Konva.Layer()
      const drag = new Konva.Layer()
      for (const layer of [still, drag]) layer.on('draw', () => (w.__draws += 1))
      stage.add(still, drag)
      still.add(
        new Konva.Rect({ width: scene.canvas.width, height: scene.canvas.height, fill: '#dee2e6' }),
      )
      still.add(
        new Konva.Image({
          image: bg,
          x: scene.section.x - scene.canvas.x,
          y: scene.section.y - scene.canvas.y,
          width: scene.section.width,
          height: scene.section.height,
        }),
      )
      scene.blocks.forEach((b, i) => {
        const last = i === scene.blocks.length - 1
        const group = new Konva.Group({
          x: b.x - scene.canvas.x,
          y: b.y - scene.canvas.y,
          rotation: b.rotation,
          draggable: last,
        })
        const box = { x: -b.width / 2, y: -b.height / 2, width: b.width, height: b.height }
        if (b.picture) group.add(new Konva.Image({ image: pic, ...box }))
        else {
          group.add(
            new Konva.Rect({ ...box, fill: colours.fill, stroke: colours.stroke, strokeWidth: 1 }),
          )
          group.add(
            new Konva.Text({
              ...box,
              text: b.text,
              fontSize: b.fontPx,
              fontFamily: 'Inter, sans-serif',
              fill: colours.text,
              align: 'center',
              verticalAlign: 'middle',
            }),
          )
        }
        still.add(group)
        if (last) {
          // Konva's advice: the dragged node on a layer of its own while it moves.
          group.on('dragstart', () => group.moveTo(drag))
          group.on('dragend', () => group.moveTo(still))
          if (snapping) snapOnDrag(group, b)
        } else group.cache()
      })
      still.draw()

      /** Snaps `group` (the block `b`, upright) as it is dragged, with a guide for each axis. */
      function snapOnDrag(group: any, b: (typeof scene.blocks)[number]) {
        const frame = {
          x: scene.section.x - scene.canvas.x,
          y: scene.section.y - scene.canvas.y,
          width: scene.section.width,
          height: scene.section.height,
        }
        // The editor's grid: 20 px of a 1,200 px wide section.
        const grid = (20 * scene.section.width) / 1200
        const guides = ['v', 'h'].map(
          () =>
            new Konva.Line({
              stroke: 'rgb(0, 161, 255)',
              strokeWidth: 1,
              dash: [4, 6],
              visible: false,
              listening: false,
            }),
        )
        drag.add(...guides)
        /** A box's left, centre and right (or top, middle, bottom). */
        const edges = (at: number, size: number) => [at, at + size / 2, at + size]
        let stops: { v: number[]; h: number[] } = { v: [], h: [] }
        group.on('dragstart', () => {
          const boxes = [
            frame,
            ...scene.blocks.slice(0, -1).map((o) => {
              const r = (o.rotation * Math.PI) / 180
              const w = Math.abs(o.width * Math.cos(r)) + Math.abs(o.height * Math.sin(r))
              const h = Math.abs(o.width * Math.sin(r)) + Math.abs(o.height * Math.cos(r))
              return {
                x: o.x - scene.canvas.x - w / 2,
                y: o.y - scene.canvas.y - h / 2,
                width: w,
                height: h,
              }
            }),
          ]
          stops = {
            v: boxes.flatMap((o) => edges(o.x, o.width)),
            h: boxes.flatMap((o) => edges(o.y, o.height)),
          }
        })
        group.on('dragmove', () => {
          const at = group.position()
          let left = frame.x + Math.round((at.x - b.width / 2 - frame.x) / grid) * grid
          let top = frame.y + Math.round((at.y - b.height / 2 - frame.y) / grid) * grid
          const nearest = (own: number[], lines: number[]) => {
            let best: number | null = null
            for (const line of lines)
              for (const edge of own) {
                const d = line - edge
                if (Math.abs(d) <= 6 && (best === null || Math.abs(d) < Math.abs(best))) best = d
              }
            return best
          }
          const dx = nearest(edges(left, b.width), stops.v)
          const dy = nearest(edges(top, b.height), stops.h)
          left += dx ?? 0
          top += dy ?? 0
          group.position({ x: left + b.width / 2, y: top + b.height / 2 })
          const [v, h] = guides
          const on = (e: number, lines: number[]) => lines.some((l) => Math.abs(l - e) < 1e-6)
          const vx = dx === null ? null : edges(left, b.width).find((e) => on(e, stops.v))
          const hy = dy === null ? null : edges(top, b.height).find((e) => on(e, stops.h))
          v.visible(vx != null)
          if (vx != null) v.points([vx, 0, vx, scene.canvas.height])
          h.visible(hy != null)
          if (hy != null) h.points([0, hy, scene.canvas.width, hy])
          // Moves that showed a guide: the benchmark checks the page snapped at all.
          if (vx != null || hy != null) w.__guidedMoves = (w.__guidedMoves ?? 0) + 1
        })
        group.on('dragend', () => {
          for (const g of guides) g.visible(false)
          drag.batchDraw()
        })
      }
    },
    { scene, colours: BUTTON, snapping },
  )
}

/**
 * The cheapest drag this browser makes over the scene, a floor under both pages: the scene drawn
 * once into one 2D canvas of the stage's size, and the dragged block a small canvas of its own that
 * each pointer move shifts by seeking paused animations (what the editor's drag layer does,
 * docs/editor.md «Drawing»), nothing else on the page and nothing drawn on release. No page that
 * shows the scene and moves a block can spend less a move; a goal below it cannot be met here.
 */
/** How many moves of the drags so far showed a guide on a Konva page that snaps. */
export function guidedMoves(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __guidedMoves?: number }).__guidedMoves ?? 0)
}

export async function openFloorScene(page: Page, _path: string, scene: Scene) {
  await scenePage(page, scene)
  await page.evaluate(
    ({ scene, colours }) => {
      const w = window as unknown as { __draws: number; __pictures: ScenePictures }
      const { bg, pic } = w.__pictures
      const host = document.getElementById('stage')!
      Object.assign(host.style, {
        width: `${scene.canvas.width}px`,
        height: `${scene.canvas.height}px`,
        overflow: 'clip',
        contain: 'strict',
      })
      const r = scene.resolution
      const canvasOf = (width: number, height: number) => {
        const c = document.createElement('canvas')
        c.width = Math.ceil(width * r)
        c.height = Math.ceil(height * r)
        Object.assign(c.style, {
          position: 'absolute',
          left: '0',
          top: '0',
          width: `${width}px`,
          height: `${height}px`,
        })
        const ctx = c.getContext('2d')!
        ctx.scale(r, r)
        return { c, ctx }
      }
      const drawBlock = (ctx: CanvasRenderingContext2D, b: (typeof scene.blocks)[number]) => {
        ctx.save()
        ctx.translate(b.x, b.y)
        ctx.rotate((b.rotation * Math.PI) / 180)
        const box = [-b.width / 2, -b.height / 2, b.width, b.height] as const
        if (b.picture) ctx.drawImage(pic, ...box)
        else {
          ctx.fillStyle = colours.fill
          ctx.fillRect(...box)
          ctx.strokeStyle = colours.stroke
          ctx.strokeRect(...box)
          ctx.fillStyle = colours.text
          ctx.font = `${b.fontPx}px Inter, sans-serif`
          ctx.textAlign = 'center'
          ctx.textBaseline = 'middle'
          ctx.fillText(b.text, 0, 0)
        }
        ctx.restore()
      }
      const still = canvasOf(scene.canvas.width, scene.canvas.height)
      still.ctx.fillStyle = '#dee2e6'
      still.ctx.fillRect(0, 0, scene.canvas.width, scene.canvas.height)
      still.ctx.translate(-scene.canvas.x, -scene.canvas.y)
      const s = scene.section
      still.ctx.drawImage(bg, s.x, s.y, s.width, s.height)
      const dragged = scene.blocks[scene.blocks.length - 1]!
      for (const b of scene.blocks.slice(0, -1)) drawBlock(still.ctx, b)
      host.append(still.c)
      // The dragged block: a canvas of its size, placed where it is, moved by two wrappers.
      const side = Math.ceil(Math.hypot(dragged.width, dragged.height)) + 2
      const moving = canvasOf(side, side)
      moving.ctx.translate(side / 2 - dragged.x, side / 2 - dragged.y)
      drawBlock(moving.ctx, dragged)
      moving.c.style.left = `${dragged.x - scene.canvas.x - side / 2}px`
      moving.c.style.top = `${dragged.y - scene.canvas.y - side / 2}px`
      const RANGE = 100_000
      const axis = (fn: 'translateX' | 'translateY') => {
        const div = document.createElement('div')
        Object.assign(div.style, {
          position: 'absolute',
          left: '0',
          top: '0',
          willChange: 'transform',
        })
        const a = div.animate(
          [{ transform: `${fn}(${-RANGE}px)` }, { transform: `${fn}(${RANGE}px)` }],
          {
            duration: 2 * RANGE,
            easing: 'linear',
            fill: 'both',
          },
        )
        a.pause()
        a.currentTime = RANGE
        return { div, set: (v: number) => (a.currentTime = RANGE + v) }
      }
      const ax = axis('translateX')
      const ay = axis('translateY')
      ax.div.append(ay.div)
      ay.div.append(moving.c)
      host.append(ax.div)
      let from: { x: number; y: number } | null = null
      let at = { x: 0, y: 0 }
      let frame = 0
      host.addEventListener('pointerdown', (e) => {
        from = { x: e.clientX - at.x, y: e.clientY - at.y }
      })
      addEventListener('pointermove', (e) => {
        if (!from || !e.buttons) return
        at = { x: e.clientX - from.x, y: e.clientY - from.y }
        frame ||= requestAnimationFrame(() => {
          frame = 0
          ax.set(at.x)
          ay.set(at.y)
          w.__draws += 1
        })
      })
      addEventListener('pointerup', () => (from = null))
    },
    { scene, colours: BUTTON },
  )
}

/** The same scene in a bare Pixi app: sprites, graphics and texts, a frame per pointer move. */
export async function openBarePixiScene(page: Page, pixiPath: string, scene: Scene) {
  await scenePage(page, scene, pixiPath)
  await page.evaluate(
    async ({ scene, colours }) => {
      const P = (window as any).PIXI
      const w = window as unknown as { __draws: number }
      const host = document.getElementById('stage')!
      const app = new P.Application()
      await app.init({
        width: scene.canvas.width,
        height: scene.canvas.height,
        background: '#dee2e6',
        resolution: scene.resolution,
        autoDensity: true,
        preference: 'webgl',
      })
      host.appendChild(app.canvas)
      app.ticker.stop()
      // Pixi's own loop for its renderer's garbage collectors (as the editor stops it,
      // docs/editor.md «Drawing»): left running, it would spend CPU in every other page's figures.
      P.Ticker.system.autoStart = false
      P.Ticker.system.stop()
      const [bg, pic] = await Promise.all([
        P.Assets.load({ src: scene.background, parser: 'texture' }),
        P.Assets.load({ src: scene.picture, parser: 'texture' }),
      ])
      const section = new P.Sprite(bg)
      section.position.set(scene.section.x - scene.canvas.x, scene.section.y - scene.canvas.y)
      section.width = scene.section.width
      section.height = scene.section.height
      app.stage.addChild(section)
      let dragged: any = null
      scene.blocks.forEach((b) => {
        const c = new P.Container()
        c.position.set(b.x - scene.canvas.x, b.y - scene.canvas.y)
        c.angle = b.rotation
        if (b.picture) {
          const s = new P.Sprite(pic)
          s.width = b.width
          s.height = b.height
          s.position.set(-b.width / 2, -b.height / 2)
          c.addChild(s)
        } else {
          c.addChild(
            new P.Graphics()
              .rect(-b.width / 2, -b.height / 2, b.width, b.height)
              .fill(colours.fill)
              .stroke({ width: 1, color: colours.stroke }),
          )
          const t = new P.Text({
            text: b.text,
            style: { fontSize: b.fontPx, fontFamily: 'Inter, sans-serif', fill: colours.text },
          })
          t.anchor.set(0.5)
          c.addChild(t)
        }
        app.stage.addChild(c)
        dragged = c
      })
      let frame = 0
      const draw = () => {
        frame = 0
        app.render()
        w.__draws += 1
      }
      draw()
      let grab: { x: number; y: number } | null = null
      app.canvas.addEventListener('pointerdown', (e: PointerEvent) => {
        grab = { x: e.clientX - dragged.x, y: e.clientY - dragged.y }
      })
      addEventListener('pointermove', (e) => {
        if (!grab) return
        dragged.position.set(e.clientX - grab.x, e.clientY - grab.y)
        if (!frame) frame = requestAnimationFrame(draw)
      })
      addEventListener('pointerup', () => (grab = null))
    },
    { scene, colours: BUTTON },
  )
}

/**
 * The full frame after a release (`drop_frame_ms_*`): a short drag of the block at `from` in the
 * editor, then the time from the pointerup to the animation frame after the one that saw the scene
 * drawn again, in ms. The draw runs in an animation frame on the main thread and is then drawn by
 * the GPU process, which holds back the next frame until it is done: that next frame is when the
 * person sees the scene whole again.
 */
export async function releaseFrameMs(
  page: Page,
  cdp: CDPSession,
  from: { x: number; y: number },
  moves = 30,
): Promise<number> {
  await page.bringToFront()
  await page.evaluate(NAME_HELPER)
  const mouse = cdpMouse(cdp)
  await mouse('mouseMoved', from.x, from.y, 0)
  await mouse('mousePressed', from.x, from.y, 1)
  for (let k = 1; k <= moves; k += 1)
    await mouse('mouseMoved', from.x + Math.cos(k / 5) * 30 - 30, from.y + Math.sin(k / 5) * 20, 1)
  await mouse('mouseMoved', from.x, from.y, 1)
  // The last moves' frames before the release is timed.
  await page.waitForTimeout(200)
  await page.evaluate(() => {
    type State = { up: number; done: number }
    const w = window as unknown as { __release?: State }
    const host = document.querySelector<HTMLElement>('[data-testid="editor-canvas"]')
    const read = () => Number(host?.dataset.frames ?? 0)
    const state: State = { up: 0, done: 0 }
    w.__release = state
    // The scene's frame count as the button came up: the release's draw comes after.
    let atUp = NaN
    addEventListener(
      'pointerup',
      (e) => {
        state.up = e.timeStamp
        atUp = read()
      },
      { capture: true, once: true },
    )
    let seen = false
    const tick = (now: number) => {
      if (seen) {
        state.done = now
        return
      }
      if (state.up && read() !== atUp) seen = true
      requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
  })
  await mouse('mouseReleased', from.x, from.y, 0)
  await page.waitForFunction(
    () => ((window as unknown as { __release: { done: number } }).__release.done ?? 0) > 0,
    undefined,
    { timeout: 20_000, polling: 50 },
  )
  return page.evaluate(() => {
    const { up, done } = (window as unknown as { __release: { up: number; done: number } })
      .__release
    return done - up
  })
}
