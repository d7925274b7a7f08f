import type { BlockType } from '../../../domain/block.ts'
import {
  boundingBox,
  normalizeRotation,
  rectsIntersect,
  type AlignMode,
  type Point,
  type Rect,
  type Size,
} from '../../../domain/geometry.ts'
import type { LocalBlock } from '../editor-data.ts'
import {
  alignMoves,
  byBackground,
  distributeMoves,
  listedOrder,
  renumbered,
  reordered,
  type ReorderHow,
} from './arrangement.ts'
import { blockBox, defaultBlock, type DefaultTexts } from './block-shape.ts'
import { DataLink, type SaveBatch } from './data-link.ts'
import { History, type HistoryEntry } from './history.ts'
import {
  ordered,
  patched,
  placed,
  sameBlock,
  sortedKeys,
  topZ,
  withoutId,
  type BlockMap,
  type Patch,
} from './records.ts'
import { keeping, selecting, toggling } from './selection.ts'

/**
 * The editor's state and commands, free of React and Pixi: the one facade the screens use. Blocks
 * are keyed by their client key (docs/SYNC.md "Ids"): the data layer's `ck` for a block it holds, a
 * new key for a block made here, which the data layer keeps for it from its first save on. A
 * block's id may change when it syncs; its key never does, so merging the data layer's blocks in is
 * a keyed merge. Every command is one undo step (a drag is committed once, on release), and dirty
 * tracking yields the blocks to save and the keys to delete.
 *
 * The parts (docs/editor.md «The editor core»): `records.ts` (the blocks and the rules over them),
 * `selection.ts`, `history.ts` (undo and redo), `arrangement.ts` (z-order, align, distribute) and
 * `data-link.ts` (the keyed merge and save batching).
 */

export { sortedKeys, type BlockMap, type Patch } from './records.ts'
export type { SaveBatch } from './data-link.ts'

export interface EditorState {
  readonly blocks: BlockMap
  readonly selection: readonly string[]
  readonly canUndo: boolean
  readonly canRedo: boolean
  /** Blocks changed or deleted since they were last handed to the data layer. */
  readonly unsaved: number
  /** Pictures and videos keep their proportions when resized (a preference, not an edit). */
  readonly keepAspect: boolean
  /** Selection mode: a tap adds a block to the selection or takes it out (a finger's Shift). */
  readonly multiSelect: boolean
  /** Bumps on every change. */
  readonly version: number
}

/** A background as the data layer has it; `ck` is its client key (its id when absent). */
export interface StoreBackground extends Size {
  id: number
  ck?: string
  position: number
}

export interface StoreOptions {
  /** Texts of new blocks. */
  texts: DefaultTexts
  /** World px a background is wide at 100% zoom (one nudge px = 200 / frameWidth units). */
  frameWidth: number
  /** Clock for merging steps (tests pass their own). */
  now?: () => number
  /** Steps kept for undo. */
  historyLimit?: number
}

/** Offset (units) of pasted or duplicated blocks on their own background. */
export const PASTE_OFFSET = 4
/** Step (units, down and right) between new blocks that would start at the same place. */
export const ADD_STEP = 8
const MAX_ADD_STEPS = 10

export class EditorStore {
  private blocks = new Map<string, LocalBlock>()
  private selection: readonly string[] = []
  private history: History
  private link = new DataLink()
  private backgrounds = new Map<number, Size & { position: number }>()
  /** Each background's id by its client key, to follow its id when it syncs. */
  private backgroundIds = new Map<string, number>()
  private clipboard: { blocks: LocalBlock[]; from: number | null; pastes: number } | null = null
  private keepAspect = true
  private multiSelect = false
  private listeners = new Set<() => void>()
  private state: EditorState
  /** Measured heights (units) of text blocks, by key; the canvas provides it. */
  private measure: (key: string) => number | undefined = () => undefined

  constructor(private options: StoreOptions) {
    this.history = new History({ now: options.now, limit: options.historyLimit })
    this.state = this.snapshot(0)
  }

  /** The canvas tells the store how high text blocks are drawn (stored units). */
  setMeasure(measure: ((key: string) => number | undefined) | null) {
    this.measure = measure ?? (() => undefined)
  }

  // -- reading ---------------------------------------------------------------------------------

  getState = (): EditorState => this.state

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  get(key: string): LocalBlock | undefined {
    return this.blocks.get(key)
  }

  keyOfId(id: number): string | undefined {
    for (const [key, block] of this.blocks) if (block.id === id) return key
    return undefined
  }

  background(bgId: number): Size | undefined {
    return this.backgrounds.get(bgId)
  }

  /** Keys of a background's blocks, back to front. */
  keysOf(bgId: number): string[] {
    return sortedKeys(this.blocks, bgId)
  }

  hasClipboard(): boolean {
    return this.clipboard !== null && this.clipboard.blocks.length > 0
  }

  /** A block's bounding rectangle in stored units. */
  rectOf(key: string): Rect | null {
    const block = this.blocks.get(key)
    const bg = block && this.backgrounds.get(block.bg_id)
    if (!block || !bg) return null
    return boundingBox(blockBox(block, bg, this.measure(key)))
  }

  // -- data layer ------------------------------------------------------------------------------

  /**
   * The backgrounds as the data layer has them. A background whose id changed under the same client
   * key was synced: its blocks follow the new id.
   */
  setBackgrounds(list: readonly StoreBackground[]) {
    this.backgrounds = new Map(
      list.map((bg) => [bg.id, { width: bg.width, height: bg.height, position: bg.position }]),
    )
    const remap = new Map<number, number>()
    for (const bg of list) {
      const key = bg.ck ?? String(bg.id)
      const before = this.backgroundIds.get(key)
      if (before !== undefined && before !== bg.id) remap.set(before, bg.id)
      this.backgroundIds.set(key, bg.id)
    }
    if (remap.size > 0) {
      const rewrite = (b: LocalBlock | null) => {
        const to = b ? remap.get(b.bg_id) : undefined
        return b && to !== undefined ? { ...b, bg_id: to } : b
      }
      for (const [key, block] of this.blocks) this.blocks.set(key, rewrite(block)!)
      this.history.rewrite(rewrite)
      if (this.clipboard) {
        this.clipboard.blocks = this.clipboard.blocks.map((b) => rewrite(b)!)
        const from = this.clipboard.from
        if (from != null && remap.has(from)) this.clipboard.from = remap.get(from)!
      }
    }
    this.emit()
  }

  /**
   * Blocks as the data layer has them now, merged by client key (`data-link.ts`): blocks with
   * unsaved edits keep the editor's version, others take the data layer's; blocks that disappeared
   * from it (deleted elsewhere) leave; new ones join. None of this is undoable.
   */
  syncFromData(incoming: readonly LocalBlock[]) {
    const { changed, left } = this.link.merge(this.blocks, incoming)
    if (left.size > 0) this.selection = this.selection.filter((k) => !left.has(k))
    if (changed) this.emit()
  }

  /**
   * The unsaved blocks (each with its key as `ck`) and pending deletions as they are now, without
   * handing them over: what a page that goes away would lose (the autosave keeps it as a draft).
   */
  unsavedChanges(): { blocks: LocalBlock[]; deleteKeys: string[] } {
    return this.link.unsavedChanges(this.blocks)
  }

  /** The unsaved blocks (each with its key as `ck`) and pending deletions, for one save. */
  takeChanges(): SaveBatch {
    return this.link.takeChanges(this.blocks)
  }

  /** The save of `batch` went through: blocks not changed since are clean. */
  markSaved(batch: SaveBatch) {
    this.link.markSaved(batch)
    this.emit()
  }

  /** The data layer deleted these blocks. An undo brings such a block back as a new one. */
  markDeleted(keys: readonly string[]) {
    this.link.markDeleted(keys)
    this.emit()
  }

  // -- selection -------------------------------------------------------------------------------

  select(keys: readonly string[], additive = false) {
    this.selection = selecting(this.selection, keys, (k) => this.blocks.has(k), additive)
    this.emit()
  }

  /** Shift-click: adds the block, or removes it when already selected. */
  toggleSelect(key: string) {
    if (!this.blocks.has(key)) return
    this.selection = toggling(this.selection, key)
    this.emit()
  }

  clearSelection() {
    if (this.selection.length === 0) return
    this.selection = []
    this.emit()
  }

  selectAll(bgId: number) {
    this.select(this.keysOf(bgId))
  }

  /** Marquee: blocks of `bgId` whose bounding box meets `rect` (stored units). */
  selectInRect(bgId: number, rect: Rect, additive = false) {
    const hits = this.keysOf(bgId).filter((key) => {
      const r = this.rectOf(key)
      return r !== null && rectsIntersect(r, rect)
    })
    this.select(hits, additive)
  }

  /** Whether pictures and videos keep their proportions when resized (not undoable). */
  setKeepAspect(keep: boolean) {
    if (this.keepAspect === keep) return
    this.keepAspect = keep
    this.emit()
  }

  /** Turns the selection mode on or off (not undoable): taps then add and remove blocks. */
  setMultiSelect(on: boolean) {
    if (this.multiSelect === on) return
    this.multiSelect = on
    this.emit()
  }

  /** Keeps only the selected blocks that lie on `bgId` (another slide was opened). */
  limitSelection(bgId: number) {
    const kept = keeping(this.selection, (key) => this.blocks.get(key)?.bg_id === bgId)
    if (kept === this.selection) return
    this.selection = kept
    this.emit()
  }

  // -- commands --------------------------------------------------------------------------------

  /**
   * A new block of `type` on top of `bgId`, selected: centred, or, when a block already sits there,
   * moved down and right step by step to the first place no block starts at, so a new block never
   * hides the last one.
   */
  add(type: BlockType, bgId: number): string | null {
    const bg = this.backgrounds.get(bgId)
    if (!bg) return null
    const key = this.newKey()
    const centred = defaultBlock(type, bgId, bg, topZ(this.blocks, bgId) + 1, this.options.texts)
    const taken = [...this.blocks.values()].filter((b) => b.bg_id === bgId)
    const free = (b: LocalBlock) =>
      !taken.some((o) => Math.abs(o.x - b.x) < ADD_STEP / 2 && Math.abs(o.y - b.y) < ADD_STEP / 2)
    let block = centred
    for (let step = 1; step <= MAX_ADD_STEPS && !free(block); step += 1) {
      block = placed(centred, bgId, bg, ADD_STEP * step, centred.zindex)
    }
    this.commit(new Map([[key, block]]), { selection: [key] })
    return key
  }

  /** Field edits from the inspector; `tag` merges successive edits of one field into one step. */
  update(key: string, patch: Patch, tag?: string) {
    const block = this.blocks.get(key)
    if (!block) return
    const next = patched(block, patch)
    if (sameBlock(block, next)) return
    this.commit(new Map([[key, next]]), { tag: tag ? `update:${key}:${tag}` : undefined })
  }

  /** Several blocks' geometry at once (the end of a drag, resize or rotation): one step. */
  setGeometry(updates: readonly { key: string; patch: Patch }[]) {
    const changes = new Map<string, LocalBlock | null>()
    for (const { key, patch } of updates) {
      const block = this.blocks.get(key)
      if (!block) continue
      const next = patched(block, patch)
      if (!sameBlock(block, next)) changes.set(key, next)
    }
    if (changes.size > 0) this.commit(changes)
  }

  /** Moves blocks by (dx, dy) stored units. */
  moveBy(keys: readonly string[], dx: number, dy: number, tag?: string) {
    const changes = new Map<string, LocalBlock | null>()
    for (const key of keys) {
      const b = this.blocks.get(key)
      if (b) changes.set(key, patched(b, { x: b.x + dx, y: b.y + dy }))
    }
    if (changes.size > 0) this.commit(changes, { tag })
  }

  /** Arrow keys: `px` screen px at 100% zoom (1, or 10 with Shift); repeated nudges are one step. */
  nudge(dxPx: number, dyPx: number) {
    const unit = 200 / this.options.frameWidth
    this.moveBy(this.selection, dxPx * unit, dyPx * unit, 'nudge')
  }

  rotateTo(key: string, degrees: number) {
    this.setGeometry([{ key, patch: { rotation: normalizeRotation(degrees) } }])
  }

  remove(keys: readonly string[] = this.selection) {
    const changes = new Map<string, LocalBlock | null>()
    for (const key of keys) if (this.blocks.has(key)) changes.set(key, null)
    if (changes.size > 0)
      this.commit(changes, { selection: this.selection.filter((k) => !changes.has(k)) })
  }

  /** Copies of the blocks on their own background, slightly offset, in front; selects the copies. */
  duplicate(keys: readonly string[] = this.selection) {
    const blocks = ordered(this.blocks, keys)
    if (blocks.length === 0) return
    const changes = new Map<string, LocalBlock | null>()
    const byBg = new Map<number, LocalBlock[]>()
    for (const b of blocks) byBg.set(b.bg_id, [...(byBg.get(b.bg_id) ?? []), b])
    for (const [bgId, list] of byBg) {
      let z = topZ(this.blocks, bgId)
      const bg = this.backgrounds.get(bgId)
      for (const b of list)
        changes.set(this.newKey(), placed(withoutId(b), bgId, bg, PASTE_OFFSET, ++z))
    }
    this.commit(changes, { selection: [...changes.keys()] })
  }

  copy(keys: readonly string[] = this.selection) {
    const blocks = ordered(this.blocks, keys).map(withoutId)
    if (blocks.length === 0) return
    const bgs = new Set(blocks.map((b) => b.bg_id))
    this.clipboard = { blocks, from: bgs.size === 1 ? blocks[0]!.bg_id : null, pastes: 0 }
    this.emit()
  }

  /**
   * Pastes the clipboard onto `bgId` in front of its blocks, selected. On the background it was
   * copied from, each paste is offset a little further; on another one it keeps its place.
   */
  paste(bgId: number) {
    const clip = this.clipboard
    const bg = this.backgrounds.get(bgId)
    if (!clip || clip.blocks.length === 0 || !bg) return
    if (clip.from === bgId) clip.pastes += 1
    const offset = clip.from === bgId ? PASTE_OFFSET * clip.pastes : 0
    let z = topZ(this.blocks, bgId)
    const changes = new Map<string, LocalBlock | null>()
    for (const b of clip.blocks) changes.set(this.newKey(), placed(b, bgId, bg, offset, ++z))
    this.commit(changes, { selection: [...changes.keys()] })
  }

  // -- arrangement -----------------------------------------------------------------------------

  bringForward(keys: readonly string[] = this.selection) {
    this.reorder(keys, 'forward')
  }
  sendBackward(keys: readonly string[] = this.selection) {
    this.reorder(keys, 'backward')
  }
  bringToFront(keys: readonly string[] = this.selection) {
    this.reorder(keys, 'front')
  }
  sendToBack(keys: readonly string[] = this.selection) {
    this.reorder(keys, 'back')
  }

  /**
   * Puts a background's blocks in the order of `keys`, back to front (the layers list's drag), as
   * one undo step; only the blocks whose z value changes are marked for saving. Keys of other
   * backgrounds or unknown ones are ignored; a block of the background missing from `keys` (one
   * that arrived meanwhile) keeps its place, and the listed ones fill the other places in order.
   */
  setOrder(bgId: number, keys: readonly string[]) {
    const order = this.keysOf(bgId)
    const changes = this.zChanges(order, listedOrder(order, keys))
    if (changes.size > 0) this.commit(changes)
  }

  /** Aligns the selection's bounding boxes (one block: to its background). */
  align(mode: AlignMode, keys: readonly string[] = this.selection) {
    this.shiftByRects(keys, (rects, bgId) => alignMoves(rects, mode, this.backgrounds.get(bgId)))
  }

  /** Spaces three or more blocks evenly, horizontally ('h') or vertically ('v'). */
  distribute(axis: 'h' | 'v', keys: readonly string[] = this.selection) {
    this.shiftByRects(keys, (rects) => distributeMoves(rects, axis))
  }

  // -- history ---------------------------------------------------------------------------------

  undo() {
    const entry = this.history.undo()
    if (entry) this.restore(entry, 'before')
  }

  redo() {
    const entry = this.history.redo()
    if (entry) this.restore(entry, 'after')
  }

  // -- internals -------------------------------------------------------------------------------

  /** The client key of a block made here: unique across devices, kept by the data layer. */
  private newKey(): string {
    return crypto.randomUUID()
  }

  private shiftByRects(keys: readonly string[], shifts: (rects: Rect[], bgId: number) => Point[]) {
    const updates: { key: string; patch: Patch }[] = []
    for (const [bgId, list] of byBackground(keys, (k) => this.blocks.get(k)?.bg_id)) {
      const withRects = list.flatMap((key) => {
        const r = this.rectOf(key)
        return r ? [{ key, r }] : []
      })
      const moves = shifts(
        withRects.map((w) => w.r),
        bgId,
      )
      withRects.forEach(({ key }, i) => {
        const b = this.blocks.get(key)!
        const d = moves[i]!
        if (d.x !== 0 || d.y !== 0) updates.push({ key, patch: { x: b.x + d.x, y: b.y + d.y } })
      })
    }
    this.setGeometry(updates)
  }

  private reorder(keys: readonly string[], how: ReorderHow) {
    const changes = new Map<string, LocalBlock | null>()
    for (const [bgId, list] of byBackground(keys, (k) => this.blocks.get(k)?.bg_id)) {
      const order = this.keysOf(bgId)
      for (const [key, block] of this.zChanges(order, reordered(order, new Set(list), how)))
        changes.set(key, block)
    }
    if (changes.size > 0) this.commit(changes)
  }

  /** The blocks whose z changes when `order` becomes `next` (`arrangement.ts` `renumbered`). */
  private zChanges(order: readonly string[], next: readonly string[]): Map<string, LocalBlock> {
    const zOf = (key: string) => this.blocks.get(key)!.zindex
    const changes = new Map<string, LocalBlock>()
    for (const [key, zindex] of renumbered(order, next, zOf))
      changes.set(key, { ...this.blocks.get(key)!, zindex } as LocalBlock)
    return changes
  }

  /** One command: records the undo step, writes the blocks, sets the selection. */
  private commit(
    next: Map<string, LocalBlock | null>,
    options: { selection?: readonly string[]; tag?: string } = {},
  ) {
    const after = options.selection ?? this.selection.filter((k) => next.get(k) !== null)
    this.history.record(
      next,
      (key) => this.blocks.get(key) ?? null,
      { before: this.selection, after },
      options.tag,
    )
    for (const [key, block] of next) this.write(key, block)
    this.selection = after
    this.emit()
  }

  private restore(entry: HistoryEntry, side: 'before' | 'after') {
    for (const [key, change] of entry.changes) this.write(key, change[side])
    const selection = side === 'before' ? entry.selectionBefore : entry.selectionAfter
    this.selection = selection.filter((k) => this.blocks.has(k))
    this.emit()
  }

  /** Writes one block (null: removes it) and keeps the data link's bookkeeping. */
  private write(key: string, block: LocalBlock | null) {
    if (block === null) {
      if (!this.blocks.delete(key)) return
      this.link.removed(key)
      return
    }
    this.blocks.set(key, block)
    this.link.written(key)
  }

  private snapshot(version: number): EditorState {
    return {
      blocks: new Map(this.blocks),
      selection: this.selection,
      canUndo: this.history.canUndo,
      canRedo: this.history.canRedo,
      unsaved: this.link.unsaved,
      keepAspect: this.keepAspect,
      multiSelect: this.multiSelect,
      version,
    }
  }

  private emit() {
    this.state = this.snapshot(this.state.version + 1)
    for (const listener of this.listeners) listener()
  }
}
