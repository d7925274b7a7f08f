// @vitest-environment jsdom
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { BlockType } from '../../src/domain/block.ts'
import { hitTest, type Box, type Point, type Rect } from '../../src/domain/geometry.ts'
import { HitIndex, UniformGrid } from '../../src/features/editor/canvas/hit-index.ts'
import { scanBlockAt, scanBlocksIn } from '../../src/features/editor/canvas/hit-test.ts'
import {
  CanvasInteraction,
  MeasuredSizes,
  type InteractionHost,
} from '../../src/features/editor/canvas/interaction.ts'
import type { LocalBlock } from '../../src/features/editor/editor-data.ts'
import { defaultBlock } from '../../src/features/editor/model/block-shape.ts'
import { EditorStore } from '../../src/features/editor/model/editor-store.ts'

const texts = { text: 'Т', button: 'К', gift: 'П', priceButton: 'К', subscribeAction: 'З' }
const BGS = [
  { id: 10, width: 1600, height: 900, position: 0 },
  { id: 11, width: 1600, height: 1200, position: 1 },
]
const FRAMES = new Map<number, Rect>([
  [10, { left: 0, top: 0, width: 1200, height: 675 }],
  [11, { left: 0, top: 707, width: 1200, height: 900 }],
])

interface Spec {
  type: BlockType
  bg: number
  x: number
  y: number
  width: number
  rotation: number
  zindex: number
  /** Pictures: per cent of the background's height. */
  height?: number
}

function block(spec: Spec, i: number): LocalBlock {
  const bg = BGS.find((b) => b.id === spec.bg)!
  return {
    ...defaultBlock(spec.type, spec.bg, bg, spec.zindex, texts),
    x: spec.x,
    y: spec.y,
    width: spec.width,
    rotation: spec.rotation,
    ...(spec.height !== undefined ? { height: spec.height } : {}),
    id: i + 1,
    ck: `k${i}`,
  } as LocalBlock
}

function scene(specs: readonly Spec[]) {
  const store = new EditorStore({ texts, frameWidth: 1200 })
  store.setBackgrounds(BGS)
  store.syncFromData(specs.map(block))
  let frames = FRAMES
  const host = {
    store,
    measuredPx: new MeasuredSizes(),
    frames: () => frames,
    setFrames: (next: Map<number, Rect>) => (frames = next),
  }
  return host
}

/** A thousand blocks in a 40 × 25 grid over the first background. */
function thousand(): Spec[] {
  return Array.from({ length: 1000 }, (_, i) => ({
    type: 'image' as const,
    bg: 10,
    x: -97.5 + (i % 40) * 5,
    y: -53 + Math.floor(i / 40) * 4.4,
    width: 2,
    rotation: (i * 7) % 90,
    zindex: i,
    height: 3,
  }))
}

describe('uniform grid', () => {
  it('finds a key in the cells its rectangle covers, and not after it is deleted', () => {
    const grid = new UniformGrid(100)
    grid.set('a', { left: 150, top: 150, width: 100, height: 20 })
    grid.set('b', { left: -500, top: -500, width: 10, height: 10 })
    expect([...grid.query({ left: 240, top: 160, width: 0, height: 0 })]).toEqual(['a'])
    expect([...grid.query({ left: -495, top: -495, width: 0, height: 0 })]).toEqual(['b'])
    expect(grid.query({ left: 0, top: 0, width: 50, height: 50 }).size).toBe(0)
    grid.set('a', { left: 0, top: 0, width: 10, height: 10 })
    expect(grid.query({ left: 240, top: 160, width: 0, height: 0 }).size).toBe(0)
    grid.delete('b')
    expect(grid.count).toBe(1)
    expect([...grid.query({ left: -1e6, top: -1e6, width: 2e6, height: 2e6 })]).toEqual(['a'])
  })

  it('keeps a very large rectangle aside and returns it for every query', () => {
    const grid = new UniformGrid(10)
    grid.set('huge', { left: 0, top: 0, width: 10_000, height: 10_000 })
    expect([...grid.query({ left: 5, top: 5, width: 0, height: 0 })]).toEqual(['huge'])
  })
})

describe('hit index', () => {
  it('tests only the candidates under the pointer among 1,000 blocks, on a hover of the canvas', () => {
    const host = scene(thousand())
    let exact = 0
    const counting = (p: Point, box: Box, slop: number) => {
      exact += 1
      return hitTest(p, box, slop)
    }
    const cursors: string[] = []
    const el = document.createElement('div')
    const interaction = new CanvasInteraction(
      el,
      {
        ...host,
        view: { zoom: 1, panX: 0, panY: 0 },
        containers: new Map(),
        grid: () => ({ enabled: false, size: 20 }),
        applyView: () => undefined,
        drawOverlay: () => undefined,
        onContextMenu: () => undefined,
        onActiveBackground: () => undefined,
        setCursor: (c) => cursors.push(c),
        beginGesture: () => undefined,
        endGesture: () => undefined,
        beginViewGesture: () => undefined,
        endViewGesture: () => undefined,
      } satisfies InteractionHost,
      { hitTest: counting },
    )
    const detach = interaction.attach()
    const hover = (x: number, y: number) => {
      const event = new MouseEvent('pointermove', { clientX: x, clientY: y, bubbles: true })
      Object.assign(event, { pointerId: 1, pointerType: 'mouse' })
      el.dispatchEvent(event)
    }
    // The block k0's centre, then empty space between blocks.
    const centre = { x: 600 + (-97.5 * 1200) / 200, y: 337.5 + (-53 * 1200) / 200 }
    hover(centre.x, centre.y)
    expect(cursors.at(-1)).toBe('move')
    // The blocks 30 px apart share a 128 px cell with at most about 30 others: only those are
    // tested, the bottom one (k0) last. A scan would test all 1,000 on a miss.
    expect(exact).toBeGreaterThan(0)
    expect(exact).toBeLessThanOrEqual(40)
    exact = 0
    for (let i = 0; i < 50; i += 1) hover(13 + i * 23, 11 + i * 13)
    expect(exact).toBeLessThanOrEqual(50 * 40)
    detach()
  })

  it('finds what the full scan finds on random scenes, edits and points', () => {
    const spec = fc.record({
      type: fc.constantFrom<BlockType>('image', 'text', 'gift', 'button'),
      bg: fc.constantFrom(10, 11),
      x: fc.double({ min: -120, max: 120, noNaN: true }),
      y: fc.double({ min: -80, max: 80, noNaN: true }),
      width: fc.double({ min: 1, max: 120, noNaN: true }),
      rotation: fc.double({ min: -180, max: 180, noNaN: true }),
      zindex: fc.integer({ min: 0, max: 5 }),
    })
    const point = fc.record({
      x: fc.double({ min: -200, max: 1400, noNaN: true }),
      y: fc.double({ min: -200, max: 1800, noNaN: true }),
    })
    fc.assert(
      fc.property(
        fc.array(spec, { minLength: 1, maxLength: 40 }),
        fc.array(point, { minLength: 1, maxLength: 20 }),
        fc.array(fc.tuple(fc.nat(), spec, fc.double({ min: 1, max: 300, noNaN: true })), {
          maxLength: 5,
        }),
        fc.constantFrom(0, 6),
        fc.integer({ min: 8, max: 200 }),
        (specs, points, edits, slop, cellSize) => {
          const host = scene(specs)
          const index = new HitIndex(host, { cellSize })
          const agree = () => {
            for (const p of points) {
              expect(index.blockAt(p, slop)).toBe(scanBlockAt(host, p, slop))
              const rect = { left: p.x, top: p.y, width: 300, height: 200 }
              expect(index.blocksIn(rect)).toEqual(scanBlocksIn(host, rect))
            }
          }
          agree()
          for (const [n, next, px] of edits) {
            // Move or reorder a block, measure a text anew, or delete one.
            const key = `k${n % specs.length}`
            if (!host.store.get(key)) continue
            if (n % 4 === 0) host.store.remove([key])
            else if (n % 4 === 1) host.measuredPx.set(key, px)
            else
              host.store.setGeometry([
                {
                  key,
                  patch: { x: next.x, y: next.y, rotation: next.rotation, zindex: next.zindex },
                },
              ])
            agree()
          }
          host.setFrames(
            new Map([...FRAMES].map(([id, f]) => [id, { ...f, left: f.left + 50, width: 900 }])),
          )
          agree()
        },
      ),
      { numRuns: 150 },
    )
  })

  it('follows a block that moved, a text that grew and a frame that moved', () => {
    const host = scene([{ type: 'text', bg: 10, x: 0, y: 0, width: 20, rotation: 0, zindex: 0 }])
    const index = new HitIndex(host)
    expect(index.blockAt({ x: 600, y: 337 }, 0)).toBe('k0')
    host.store.setGeometry([{ key: 'k0', patch: { x: 50 } }])
    expect(index.blockAt({ x: 600, y: 337 }, 0)).toBeNull()
    expect(index.blockAt({ x: 900, y: 337 }, 0)).toBe('k0')
    expect(index.blockAt({ x: 900, y: 337 + 250 }, 0)).toBeNull()
    host.measuredPx.set('k0', 600)
    expect(index.blockAt({ x: 900, y: 337 + 250 }, 0)).toBe('k0')
    host.setFrames(new Map([[10, { left: 2000, top: 0, width: 1200, height: 675 }]]))
    expect(index.blockAt({ x: 900, y: 337 }, 0)).toBeNull()
    expect(index.blockAt({ x: 2900, y: 337 }, 0)).toBe('k0')
  })

  it('reaches a block from the next cell within a finger’s slop', () => {
    // Right edge at 396 px; the pointer 5 px past it is in the next 100 px cell.
    const host = scene([
      { type: 'image', bg: 10, x: -44, y: 0, width: 10, rotation: 0, zindex: 0, height: 10 },
    ])
    const index = new HitIndex(host, { cellSize: 100 })
    expect(index.blockAt({ x: 401, y: 337.5 }, 0)).toBeNull()
    expect(index.blockAt({ x: 401, y: 337.5 }, 6)).toBe('k0')
    expect(scanBlockAt(host, { x: 401, y: 337.5 }, 6)).toBe('k0')
  })
})
