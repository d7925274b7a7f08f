import {
  boundingBox,
  hitTest,
  rectsIntersect,
  type Box,
  type Point,
  type Rect,
} from '../../../domain/geometry.ts'
import type { Size } from '../../../domain/geometry.ts'
import type { LocalBlock } from '../editor-data.ts'
import type { MeasuredSizes } from './interaction-host.ts'
import { worldBox, type WorldHost } from './world-box.ts'

/**
 * Which blocks a pointer may be over, without looking at every block (docs/editor.md «The editor
 * core»): a uniform grid of world cells, each listing the blocks whose bounding box (of the rotated
 * box) meets it. A query takes the blocks of the cells under the point, tests them exactly (the
 * rotated box), front-most first. `hit-test.ts` `scanBlockAt` is the rule it must agree with.
 */

/** World px per cell: a landing section (1200 px) is about ten cells wide. */
export const CELL_SIZE = 128
/** A block over more cells than this is kept aside and tested on every query. */
const MAX_CELLS = 256
/** Bounding boxes are widened by this much, so rounding at an edge never loses a block. */
const EPSILON = 1e-6
/** Cell coordinates are packed into one number: ±2^20 cells (±134 million px) each way. */
const SPAN = 2 ** 21
const HALF = 2 ** 20

/** Keys in a uniform grid of cells by the rectangles they cover. */
export class UniformGrid {
  private cells = new Map<number, Set<string>>()
  private covers = new Map<string, number[] | 'large'>()
  private large = new Set<string>()

  constructor(private size = CELL_SIZE) {}

  get count(): number {
    return this.covers.size
  }

  set(key: string, rect: Rect) {
    this.delete(key)
    const [x0, y0, x1, y1] = this.span(rect, EPSILON)
    if ((x1 - x0 + 1) * (y1 - y0 + 1) > MAX_CELLS) {
      this.large.add(key)
      this.covers.set(key, 'large')
      return
    }
    const ids: number[] = []
    for (let y = y0; y <= y1; y += 1)
      for (let x = x0; x <= x1; x += 1) {
        const id = (y + HALF) * SPAN + (x + HALF)
        let cell = this.cells.get(id)
        if (!cell) this.cells.set(id, (cell = new Set()))
        cell.add(key)
        ids.push(id)
      }
    this.covers.set(key, ids)
  }

  delete(key: string) {
    const ids = this.covers.get(key)
    if (ids === undefined) return
    this.covers.delete(key)
    if (ids === 'large') {
      this.large.delete(key)
      return
    }
    for (const id of ids) {
      const cell = this.cells.get(id)!
      cell.delete(key)
      if (cell.size === 0) this.cells.delete(id)
    }
  }

  /** Keys whose cells meet a rectangle (a superset of those whose rectangle meets it). */
  query(rect: Rect): Set<string> {
    const found = new Set(this.large)
    const [x0, y0, x1, y1] = this.span(rect, 0)
    const cellsInRect = (x1 - x0 + 1) * (y1 - y0 + 1)
    if (cellsInRect > this.cells.size) {
      // A rectangle over more cells than are filled: walk the filled ones.
      for (const [id, cell] of this.cells) {
        const x = (id % SPAN) - HALF
        const y = Math.floor(id / SPAN) - HALF
        if (x >= x0 && x <= x1 && y >= y0 && y <= y1) for (const key of cell) found.add(key)
      }
      return found
    }
    for (let y = y0; y <= y1; y += 1)
      for (let x = x0; x <= x1; x += 1) {
        const cell = this.cells.get((y + HALF) * SPAN + (x + HALF))
        if (cell) for (const key of cell) found.add(key)
      }
    return found
  }

  private span(rect: Rect, pad: number): [number, number, number, number] {
    const cell = (v: number) => Math.max(-HALF, Math.min(HALF - 1, Math.floor(v / this.size)))
    return [
      cell(rect.left - pad),
      cell(rect.top - pad),
      cell(rect.left + rect.width + pad),
      cell(rect.top + rect.height + pad),
    ]
  }
}

interface Entry {
  /** What the box was computed from: when one of them changes, so may the box. */
  block: LocalBlock
  frame: Rect
  bg: Size
  measured: number | undefined
  box: Box
  rect: Rect
}

export interface HitIndexOptions {
  /** The exact test of a candidate (the geometry's `hitTest`; a test counts its calls). */
  hitTest?: (p: Point, box: Box, slop: number) => boolean
  cellSize?: number
}

export type IndexHost = WorldHost & { measuredPx: MeasuredSizes }

/**
 * The canvas's blocks in a `UniformGrid`, brought up to date before each query when the store, the
 * frames or a measured text height changed since the last one: only blocks whose object, frame,
 * background or measured height changed are placed again.
 */
export class HitIndex {
  private grid: UniformGrid
  private entries = new Map<string, Entry>()
  /** Front-to-back order over all backgrounds: later backgrounds, then higher z, win. */
  private rank = new Map<string, number>()
  private seen: { version: number; frames: unknown; measured: number } | null = null
  private exact: (p: Point, box: Box, slop: number) => boolean

  constructor(
    private host: IndexHost,
    options: HitIndexOptions = {},
  ) {
    this.grid = new UniformGrid(options.cellSize)
    this.exact = options.hitTest ?? hitTest
  }

  /** The front-most block under a world point (`slop` world px of tolerance). */
  blockAt(world: Point, slop: number): string | null {
    this.refresh()
    // A box widened by `slop` on each side and rotated stays within its bounding box + slop·√2.
    const reach = slop * 1.5
    const candidates = [
      ...this.grid.query({
        left: world.x - reach,
        top: world.y - reach,
        width: 2 * reach,
        height: 2 * reach,
      }),
    ].sort((a, b) => this.rank.get(b)! - this.rank.get(a)!)
    for (const key of candidates)
      if (this.exact(world, this.entries.get(key)!.box, slop)) return key
    return null
  }

  /** Every block whose bounding box meets a world rectangle, background by background, back to front. */
  blocksIn(rect: Rect): string[] {
    this.refresh()
    return [...this.grid.query(rect)]
      .filter((key) => rectsIntersect(this.entries.get(key)!.rect, rect))
      .sort((a, b) => this.rank.get(a)! - this.rank.get(b)!)
  }

  private refresh() {
    const { store, measuredPx } = this.host
    const frames = this.host.frames()
    const version = store.getState().version
    const seen = this.seen
    if (
      seen &&
      seen.version === version &&
      seen.frames === frames &&
      seen.measured === measuredPx.version
    )
      return
    this.seen = { version, frames, measured: measuredPx.version }
    this.rank.clear()
    let rank = 0
    for (const bgId of frames.keys())
      for (const key of store.keysOf(bgId)) this.rank.set(key, rank++)
    for (const key of this.entries.keys()) {
      if (this.rank.has(key)) continue
      this.entries.delete(key)
      this.grid.delete(key)
    }
    for (const key of this.rank.keys()) {
      const block = store.get(key)!
      const frame = frames.get(block.bg_id)!
      const bg = store.background(block.bg_id)
      const measured = measuredPx.get(key)
      const entry = this.entries.get(key)
      if (
        entry &&
        entry.block === block &&
        entry.frame === frame &&
        entry.bg === bg &&
        entry.measured === measured
      )
        continue
      const box = worldBox(this.host, key)
      if (!box || !bg) {
        this.entries.delete(key)
        this.grid.delete(key)
        this.rank.delete(key)
        continue
      }
      const rect = boundingBox(box)
      this.entries.set(key, { block, frame, bg, measured, box, rect })
      this.grid.set(key, rect)
    }
  }
}
