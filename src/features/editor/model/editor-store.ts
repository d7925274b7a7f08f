import type { BlockType } from '../../../domain/block.ts'
import {
  alignShifts,
  boundingBox,
  distributeShifts,
  halfHeightUnits,
  normalizeRotation,
  rectsIntersect,
  roundStored,
  unitFrame,
  type AlignMode,
  type Rect,
  type Size,
} from '../../../domain/geometry.ts'
import type { LocalBlock } from '../editor-data.ts'
import { blockBox, defaultBlock, type DefaultTexts } from './block-shape.ts'

/**
 * The editor's state and commands, free of React and Pixi. Blocks are keyed by their client key
 * (docs/SYNC.md "Ids"): the data layer's `ck` for a block it holds, a new key for a block made here,
 * which the data layer keeps for it from its first save on. A block's id may change when it syncs;
 * its key never does, so merging the data layer's blocks in is a keyed merge. Every command is one
 * undo step (a drag is committed once, on release), and dirty tracking yields the blocks to save
 * and the keys to delete.
 */

export type BlockMap = ReadonlyMap<string, LocalBlock>

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

interface Change {
  before: LocalBlock | null
  after: LocalBlock | null
}

interface HistoryEntry {
  changes: Map<string, Change>
  selectionBefore: readonly string[]
  selectionAfter: readonly string[]
  /** Successive commands with the same tag (typing in one field, nudges) merge into one step. */
  tag?: string
  at: number
}

export interface SaveBatch {
  keys: string[]
  /** The blocks to save, each with its key as `ck`. */
  blocks: LocalBlock[]
  /** Keys of blocks to delete in the data layer. */
  deleteKeys: string[]
  versions: Map<string, number>
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

export type Patch = Partial<Omit<LocalBlock, 'type' | 'id'>> & Record<string, unknown>

const MERGE_WINDOW_MS = 1500
/** Offset (units) of pasted or duplicated blocks on their own background. */
export const PASTE_OFFSET = 4
/** Step (units, down and right) between new blocks that would start at the same place. */
export const ADD_STEP = 8
const MAX_ADD_STEPS = 10

export class EditorStore {
  private blocks = new Map<string, LocalBlock>()
  private selection: readonly string[] = []
  private undoStack: HistoryEntry[] = []
  private redoStack: HistoryEntry[] = []
  private dirty = new Map<string, number>()
  /** Keys of blocks removed here that the data layer may hold: deleted there on the next save. */
  private pendingDeletes = new Set<string>()
  /** Keys deleted through the data layer; a stale snapshot from it must not bring them back. */
  private deletedKeys = new Set<string>()
  /** Keys the data layer has shown us or was handed: only those can disappear from it. */
  private seenKeys = new Set<string>()
  private handedKeys = new Set<string>()
  private backgrounds = new Map<number, Size & { position: number }>()
  /** Each background's id by its client key, to follow its id when it syncs. */
  private backgroundIds = new Map<string, number>()
  private clipboard: { blocks: LocalBlock[]; from: number | null; pastes: number } | null = null
  private keepAspect = true
  private multiSelect = false
  private changeCounter = 0
  private listeners = new Set<() => void>()
  private state: EditorState
  /** Measured heights (units) of text blocks, by key; the canvas provides it. */
  private measure: (key: string) => number | undefined = () => undefined

  constructor(private options: StoreOptions) {
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
      this.rewriteEverywhere(rewrite)
      const from = this.clipboard?.from
      if (this.clipboard && from != null && remap.has(from)) this.clipboard.from = remap.get(from)!
    }
    this.emit()
  }

  /**
   * Blocks as the data layer has them now, merged by client key: blocks with unsaved edits keep the
   * editor's version, others take the data layer's; blocks that disappeared from it (deleted
   * elsewhere) leave; new ones join. None of this is undoable.
   */
  syncFromData(incoming: readonly LocalBlock[]) {
    const present = new Set<string>()
    let changed = false
    for (const block of incoming) {
      const key = block.ck ?? (block.id === undefined ? undefined : String(block.id))
      if (key === undefined) continue
      present.add(key)
      if (this.pendingDeletes.has(key) || this.deletedKeys.has(key)) continue
      const current = this.blocks.get(key)
      if (current === undefined || (!this.dirty.has(key) && !sameBlock(current, block))) {
        this.blocks.set(key, block)
        changed = true
      }
    }
    // Blocks deleted elsewhere (a block the data layer has not shown yet is not among them).
    for (const key of [...this.blocks.keys()]) {
      if (present.has(key) || !this.seenKeys.has(key) || this.dirty.has(key)) continue
      this.blocks.delete(key)
      this.selection = this.selection.filter((k) => k !== key)
      changed = true
    }
    for (const key of present) this.seenKeys.add(key)
    for (const key of this.deletedKeys) if (!present.has(key)) this.deletedKeys.delete(key)
    if (changed) this.emit()
  }

  /**
   * The unsaved blocks (each with its key as `ck`) and pending deletions as they are now, without
   * handing them over: what a page that goes away would lose (the autosave keeps it as a draft).
   */
  unsavedChanges(): { blocks: LocalBlock[]; deleteKeys: string[] } {
    const blocks: LocalBlock[] = []
    for (const key of this.dirty.keys()) {
      const block = this.blocks.get(key)
      if (block) blocks.push({ ...block, ck: key })
    }
    return { blocks, deleteKeys: [...this.pendingDeletes] }
  }

  /** The unsaved blocks (each with its key as `ck`) and pending deletions, for one save. */
  takeChanges(): SaveBatch {
    const keys: string[] = []
    const blocks: LocalBlock[] = []
    const versions = new Map<string, number>()
    for (const [key, version] of this.dirty) {
      const block = this.blocks.get(key)
      if (!block) continue
      keys.push(key)
      blocks.push({ ...block, ck: key })
      versions.set(key, version)
      this.handedKeys.add(key)
    }
    return { keys, blocks, deleteKeys: [...this.pendingDeletes], versions }
  }

  /** The save of `batch` went through: blocks not changed since are clean. */
  markSaved(batch: SaveBatch) {
    for (const key of batch.keys) {
      if (this.dirty.get(key) === batch.versions.get(key)) this.dirty.delete(key)
    }
    this.emit()
  }

  /** The data layer deleted these blocks. An undo brings such a block back as a new one. */
  markDeleted(keys: readonly string[]) {
    for (const key of keys) {
      this.pendingDeletes.delete(key)
      this.deletedKeys.add(key)
    }
    this.emit()
  }

  // -- selection -------------------------------------------------------------------------------

  select(keys: readonly string[], additive = false) {
    const valid = keys.filter((k) => this.blocks.has(k))
    this.selection = additive ? unique([...this.selection, ...valid]) : unique(valid)
    this.emit()
  }

  /** Shift-click: adds the block, or removes it when already selected. */
  toggleSelect(key: string) {
    if (!this.blocks.has(key)) return
    this.selection = this.selection.includes(key)
      ? this.selection.filter((k) => k !== key)
      : [...this.selection, key]
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

  // -- commands --------------------------------------------------------------------------------

  /** Adds a block of `type` in the middle of the background, in front of the others; selects it. */
  /**
   * A new block of `type` on top of `bgId`, selected: centred, or, when a block already sits there,
   * moved down and right step by step to the first place no block starts at, so a new block never
   * hides the last one.
   */
  add(type: BlockType, bgId: number): string | null {
    const bg = this.backgrounds.get(bgId)
    if (!bg) return null
    const key = this.newKey()
    const centred = defaultBlock(type, bgId, bg, this.topZ(bgId) + 1, this.options.texts)
    const taken = [...this.blocks.values()].filter((b) => b.bg_id === bgId)
    const free = (b: LocalBlock) =>
      !taken.some((o) => Math.abs(o.x - b.x) < ADD_STEP / 2 && Math.abs(o.y - b.y) < ADD_STEP / 2)
    let block = centred
    for (let step = 1; step <= MAX_ADD_STEPS && !free(block); step += 1) {
      block = this.placed(centred, bgId, ADD_STEP * step, centred.zindex)
    }
    this.commit(new Map([[key, block]]), { selection: [key] })
    return key
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
    const kept = this.selection.filter((key) => this.blocks.get(key)?.bg_id === bgId)
    if (kept.length === this.selection.length) return
    this.selection = kept
    this.emit()
  }

  /** Field edits from the inspector; `tag` merges successive edits of one field into one step. */
  update(key: string, patch: Patch, tag?: string) {
    const block = this.blocks.get(key)
    if (!block) return
    const next = { ...block, ...roundPatch(patch) } as LocalBlock
    if (sameBlock(block, next)) return
    this.commit(new Map([[key, next]]), { tag: tag ? `update:${key}:${tag}` : undefined })
  }

  /** Several blocks' geometry at once (the end of a drag, resize or rotation): one step. */
  setGeometry(updates: readonly { key: string; patch: Patch }[]) {
    const changes = new Map<string, LocalBlock | null>()
    for (const { key, patch } of updates) {
      const block = this.blocks.get(key)
      if (!block) continue
      const next = { ...block, ...roundPatch(patch) } as LocalBlock
      if (!sameBlock(block, next)) changes.set(key, next)
    }
    if (changes.size > 0) this.commit(changes)
  }

  /** Moves blocks by (dx, dy) stored units. */
  moveBy(keys: readonly string[], dx: number, dy: number, tag?: string) {
    const updates = keys.flatMap((key) => {
      const b = this.blocks.get(key)
      return b ? [{ key, patch: { x: b.x + dx, y: b.y + dy } }] : []
    })
    const changes = new Map<string, LocalBlock | null>()
    for (const { key, patch } of updates) {
      changes.set(key, { ...this.blocks.get(key)!, ...roundPatch(patch) } as LocalBlock)
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
    const blocks = this.ordered(keys)
    if (blocks.length === 0) return
    const changes = new Map<string, LocalBlock | null>()
    const byBg = new Map<number, LocalBlock[]>()
    for (const b of blocks) byBg.set(b.bg_id, [...(byBg.get(b.bg_id) ?? []), b])
    for (const [bgId, list] of byBg) {
      let z = this.topZ(bgId)
      for (const b of list) {
        const copy = this.placed(withoutId(b), bgId, PASTE_OFFSET, ++z)
        changes.set(this.newKey(), copy)
      }
    }
    this.commit(changes, { selection: [...changes.keys()] })
  }

  copy(keys: readonly string[] = this.selection) {
    const blocks = this.ordered(keys).map(withoutId)
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
    if (!clip || clip.blocks.length === 0 || !this.backgrounds.has(bgId)) return
    if (clip.from === bgId) clip.pastes += 1
    const offset = clip.from === bgId ? PASTE_OFFSET * clip.pastes : 0
    let z = this.topZ(bgId)
    const changes = new Map<string, LocalBlock | null>()
    for (const b of clip.blocks) changes.set(this.newKey(), this.placed(b, bgId, offset, ++z))
    this.commit(changes, { selection: [...changes.keys()] })
  }

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
    const present = new Set(order)
    const listed = unique(keys).filter((k) => present.has(k))
    const listedSet = new Set(listed)
    let i = 0
    const next = order.map((k) => (listedSet.has(k) ? listed[i++]! : k))
    const changes = new Map<string, LocalBlock | null>()
    this.renumber(order, next, changes)
    if (changes.size > 0) this.commit(changes)
  }

  /** Aligns the selection's bounding boxes (one block: to its background). */
  align(mode: AlignMode, keys: readonly string[] = this.selection) {
    this.shiftByRects(keys, (rects, bgId) => {
      const bg = this.backgrounds.get(bgId)
      return alignShifts(rects, mode, bg ? unitFrame(bg) : undefined)
    })
  }

  /** Spaces three or more blocks evenly, horizontally ('h') or vertically ('v'). */
  distribute(axis: 'h' | 'v', keys: readonly string[] = this.selection) {
    this.shiftByRects(keys, (rects) => distributeShifts(rects, axis))
  }

  undo() {
    const entry = this.undoStack.pop()
    if (!entry) return
    this.apply(entry, 'before')
    this.selection = entry.selectionBefore.filter((k) => this.blocks.has(k))
    this.redoStack.push(entry)
    this.emit()
  }

  redo() {
    const entry = this.redoStack.pop()
    if (!entry) return
    this.apply(entry, 'after')
    this.selection = entry.selectionAfter.filter((k) => this.blocks.has(k))
    this.undoStack.push(entry)
    this.emit()
  }

  // -- internals -------------------------------------------------------------------------------

  /** The client key of a block made here: unique across devices, kept by the data layer. */
  private newKey(): string {
    return crypto.randomUUID()
  }

  private topZ(bgId: number): number {
    let top = -1
    for (const b of this.blocks.values()) if (b.bg_id === bgId) top = Math.max(top, b.zindex)
    return top
  }

  /** Blocks of `keys`, each background's back to front. */
  private ordered(keys: readonly string[]): LocalBlock[] {
    const set = new Set(keys)
    return [...this.blocks.entries()]
      .filter(([key]) => set.has(key))
      .sort(([, a], [, b]) => a.bg_id - b.bg_id || a.zindex - b.zindex)
      .map(([, b]) => b)
  }

  /** `block` on `bgId`, moved by `offset` units and kept inside the background. */
  private placed(block: LocalBlock, bgId: number, offset: number, zindex: number): LocalBlock {
    const bg = this.backgrounds.get(bgId)
    const half = bg ? halfHeightUnits(bg) : 100
    return {
      ...block,
      bg_id: bgId,
      x: roundStored(clamp(block.x + offset, -100, 100)),
      y: roundStored(clamp(block.y + offset, -half, half)),
      zindex,
    } as LocalBlock
  }

  private shiftByRects(
    keys: readonly string[],
    shifts: (rects: Rect[], bgId: number) => { x: number; y: number }[],
  ) {
    const byBg = new Map<number, string[]>()
    for (const key of keys) {
      const b = this.blocks.get(key)
      if (b) byBg.set(b.bg_id, [...(byBg.get(b.bg_id) ?? []), key])
    }
    const updates: { key: string; patch: Patch }[] = []
    for (const [bgId, list] of byBg) {
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

  private reorder(keys: readonly string[], how: 'forward' | 'backward' | 'front' | 'back') {
    const byBg = new Map<number, Set<string>>()
    for (const key of keys) {
      const b = this.blocks.get(key)
      if (b) byBg.set(b.bg_id, (byBg.get(b.bg_id) ?? new Set()).add(key))
    }
    const changes = new Map<string, LocalBlock | null>()
    for (const [bgId, chosen] of byBg) {
      const order = this.keysOf(bgId)
      let next: string[]
      if (how === 'front')
        next = [...order.filter((k) => !chosen.has(k)), ...order.filter((k) => chosen.has(k))]
      else if (how === 'back')
        next = [...order.filter((k) => chosen.has(k)), ...order.filter((k) => !chosen.has(k))]
      else {
        next = [...order]
        const step = how === 'forward' ? 1 : -1
        const indices = next.map((k, i) => (chosen.has(k) ? i : -1)).filter((i) => i >= 0)
        if (how === 'forward') indices.reverse()
        for (const i of indices) {
          const j = i + step
          if (j < 0 || j >= next.length || chosen.has(next[j]!)) continue
          ;[next[i], next[j]] = [next[j]!, next[i]!]
        }
      }
      this.renumber(order, next, changes)
    }
    if (changes.size > 0) this.commit(changes)
  }

  /**
   * The z values that put a background's blocks (now in `order`) in the order `next`, into
   * `changes` for the blocks whose value changes. The values already there are kept, in order, so
   * only the blocks that moved are saved; they are renumbered from 0 when values repeat.
   */
  private renumber(
    order: readonly string[],
    next: readonly string[],
    changes: Map<string, LocalBlock | null>,
  ) {
    const values = order.map((k) => this.blocks.get(k)!.zindex)
    const distinct = new Set(values).size === values.length
    next.forEach((key, i) => {
      const z = distinct ? values[i]! : i
      const block = this.blocks.get(key)!
      if (block.zindex !== z) changes.set(key, { ...block, zindex: z } as LocalBlock)
    })
  }

  private commit(
    next: Map<string, LocalBlock | null>,
    options: { selection?: readonly string[]; tag?: string } = {},
  ) {
    const now = (this.options.now ?? Date.now)()
    const selectionBefore = this.selection
    const selectionAfter = options.selection ?? this.selection.filter((k) => next.get(k) !== null)
    const last = this.undoStack[this.undoStack.length - 1]
    const merge =
      options.tag !== undefined &&
      last?.tag === options.tag &&
      now - last.at < MERGE_WINDOW_MS &&
      this.redoStack.length === 0
    const entry: HistoryEntry = merge
      ? last!
      : { changes: new Map(), selectionBefore, selectionAfter, tag: options.tag, at: now }
    for (const [key, after] of next) {
      const before = this.blocks.get(key) ?? null
      const existing = entry.changes.get(key)
      entry.changes.set(key, { before: existing ? existing.before : before, after })
      this.write(key, after)
    }
    entry.selectionAfter = selectionAfter
    entry.at = now
    if (!merge) {
      this.undoStack.push(entry)
      const limit = this.options.historyLimit ?? 200
      if (this.undoStack.length > limit) this.undoStack.shift()
    }
    this.redoStack = []
    this.selection = selectionAfter
    this.emit()
  }

  private apply(entry: HistoryEntry, side: 'before' | 'after') {
    for (const [key, change] of entry.changes) this.write(key, change[side])
  }

  /** Writes one block (null: removes it) and keeps the dirty bookkeeping. */
  private write(key: string, block: LocalBlock | null) {
    const current = this.blocks.get(key)
    if (block === null) {
      if (!current) return
      this.blocks.delete(key)
      this.dirty.delete(key)
      if (this.seenKeys.has(key) || this.handedKeys.has(key)) this.pendingDeletes.add(key)
      return
    }
    this.blocks.set(key, block)
    this.pendingDeletes.delete(key)
    this.deletedKeys.delete(key)
    this.changeCounter += 1
    this.dirty.set(key, this.changeCounter)
  }

  private rewriteEverywhere(rewrite: (b: LocalBlock | null) => LocalBlock | null) {
    for (const [key, block] of this.blocks) this.blocks.set(key, rewrite(block)!)
    for (const entry of [...this.undoStack, ...this.redoStack]) {
      for (const change of entry.changes.values()) {
        change.before = rewrite(change.before)
        change.after = rewrite(change.after)
      }
    }
    if (this.clipboard) this.clipboard.blocks = this.clipboard.blocks.map((b) => rewrite(b)!)
  }

  private snapshot(version: number): EditorState {
    return {
      blocks: new Map(this.blocks),
      selection: this.selection,
      canUndo: this.undoStack.length > 0,
      canRedo: this.redoStack.length > 0,
      unsaved: this.dirty.size + this.pendingDeletes.size,
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

/**
 * Keys of a background's blocks, back to front: by z, then in the order the editor came to know
 * them (the sort is stable over the map's insertion order).
 */
export function sortedKeys(blocks: BlockMap, bgId: number): string[] {
  return [...blocks.entries()]
    .filter(([, b]) => b.bg_id === bgId)
    .sort(([, a], [, b]) => a.zindex - b.zindex)
    .map(([key]) => key)
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)]
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value))
}

/** A block as a copy starts: no id and no key of its own yet. */
function withoutId(block: LocalBlock): LocalBlock {
  const { id: _id, ck: _ck, ...rest } = block
  return rest
}

const GEOMETRY_FIELDS = ['x', 'y', 'width', 'height', 'rotation', 'fontSize'] as const

function roundPatch(patch: Patch): Patch {
  const out: Patch = { ...patch }
  for (const field of GEOMETRY_FIELDS) {
    const value = out[field]
    if (typeof value === 'number')
      out[field] = roundStored(field === 'rotation' ? normalizeRotation(value) : value)
  }
  return out
}

function sameBlock(a: LocalBlock, b: LocalBlock): boolean {
  const ka = Object.keys(a) as (keyof LocalBlock)[]
  const kb = Object.keys(b)
  if (ka.length !== kb.length) return false
  return ka.every((k) => Object.is(a[k], (b as Record<string, unknown>)[k]))
}
