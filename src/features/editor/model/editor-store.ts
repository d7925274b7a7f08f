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
 * The editor's state and commands, free of React and Pixi. Blocks are keyed by a key of the editor's
 * own (a block has no id before its first save and its id may change when it syncs); every command
 * is one undo step (a drag is committed once, on release), and dirty tracking yields the blocks to
 * save and the ids to delete.
 */

export type BlockMap = ReadonlyMap<string, LocalBlock>

export interface EditorState {
  readonly blocks: BlockMap
  readonly selection: readonly string[]
  readonly canUndo: boolean
  readonly canRedo: boolean
  /** Blocks changed or deleted since they were last handed to the data layer. */
  readonly unsaved: number
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
  blocks: LocalBlock[]
  deleteIds: number[]
  versions: Map<string, number>
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

export class EditorStore {
  private blocks = new Map<string, LocalBlock>()
  private selection: readonly string[] = []
  private undoStack: HistoryEntry[] = []
  private redoStack: HistoryEntry[] = []
  private dirty = new Map<string, number>()
  private pendingDeletes = new Set<number>()
  /** Ids deleted through the data layer; a stale snapshot from it must not bring them back. */
  private deletedIds = new Set<number>()
  /** Ids the data layer has shown us; only those can disappear from it. */
  private seenIds = new Set<number>()
  private backgrounds = new Map<number, Size & { position: number }>()
  private clipboard: { blocks: LocalBlock[]; from: number | null; pastes: number } | null = null
  /** Blocks without an id whose first save is on its way (the mirror may show them first). */
  private inFlight = new Set<string>()
  /** Each block as last handed to the data layer: its synced copy looks like this, not like later edits. */
  private lastSaved = new Map<string, LocalBlock>()
  private counter = 0
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
   * The backgrounds as the data layer has them. A background with a local id that vanished while
   * a new id appeared at the same position was synced: its blocks follow the new id.
   */
  setBackgrounds(list: readonly { id: number; width: number; height: number; position: number }[]) {
    const next = new Map(
      list.map((bg) => [bg.id, { width: bg.width, height: bg.height, position: bg.position }]),
    )
    const remap = new Map<number, number>()
    for (const [oldId, old] of this.backgrounds) {
      if (next.has(oldId) || oldId >= 0) continue
      for (const [newId, bg] of next) {
        if (!this.backgrounds.has(newId) && bg.position === old.position) remap.set(oldId, newId)
      }
    }
    this.backgrounds = next
    if (remap.size > 0) {
      const rewrite = (b: LocalBlock | null) =>
        b && remap.has(b.bg_id) ? ({ ...b, bg_id: remap.get(b.bg_id)! } as LocalBlock) : b
      this.rewriteEverywhere(rewrite)
      if (this.clipboard?.from != null && remap.has(this.clipboard.from))
        this.clipboard.from = remap.get(this.clipboard.from)!
    }
    this.emit()
  }

  /**
   * Blocks as the data layer has them now. Blocks with unsaved edits keep the editor's version;
   * a block whose local id was replaced by the server's is recognised by its content; blocks that
   * disappeared from the data layer (deleted elsewhere) leave; new ones join. None of this is undoable.
   */
  syncFromData(incoming: readonly LocalBlock[]) {
    const byId = new Map<number, string>()
    for (const [key, block] of this.blocks) if (block.id !== undefined) byId.set(block.id, key)
    const unknown: LocalBlock[] = []
    const present = new Set<number>()
    let changed = false
    for (const block of incoming) {
      if (block.id === undefined) continue
      present.add(block.id)
      if (this.pendingDeletes.has(block.id) || this.deletedIds.has(block.id)) continue
      const key = byId.get(block.id)
      if (key === undefined) {
        unknown.push(block)
        continue
      }
      const current = this.blocks.get(key)!
      if (!this.dirty.has(key) && !sameBlock(current, block)) {
        this.blocks.set(key, block)
        changed = true
      }
    }
    // Local ids the data layer no longer knows: the block synced under a new id.
    for (const [key, block] of this.blocks) {
      if (block.id === undefined || block.id >= 0 || present.has(block.id)) continue
      const reference = this.lastSaved.get(key) ?? block
      const match = unknown.findIndex((b) => sameContent(b, reference))
      if (match < 0) continue
      const [found] = unknown.splice(match, 1)
      this.assignId(key, block.id, found!.id!)
      if (!this.dirty.has(key)) this.blocks.set(key, found!)
      changed = true
    }
    // Blocks deleted elsewhere.
    for (const [key, block] of [...this.blocks]) {
      if (block.id === undefined || present.has(block.id) || !this.seenIds.has(block.id)) continue
      if (this.dirty.has(key)) continue
      this.blocks.delete(key)
      this.selection = this.selection.filter((k) => k !== key)
      changed = true
    }
    for (const block of unknown) {
      // The mirror can show a block before its save resolves here: that is ours, not a new one.
      const ours = [...this.inFlight].find((key) => {
        const mine = this.blocks.get(key)
        return mine !== undefined && mine.id === undefined && sameContent(mine, block)
      })
      if (ours !== undefined) {
        this.inFlight.delete(ours)
        this.assignId(ours, undefined, block.id!)
      } else {
        this.blocks.set(this.newKey(), block)
      }
      changed = true
    }
    for (const id of present) this.seenIds.add(id)
    for (const id of this.deletedIds) if (!present.has(id)) this.deletedIds.delete(id)
    if (changed) this.emit()
  }

  /** The unsaved blocks and pending deletions, for one save. */
  takeChanges(): SaveBatch {
    const keys: string[] = []
    const blocks: LocalBlock[] = []
    const versions = new Map<string, number>()
    for (const [key, version] of this.dirty) {
      const block = this.blocks.get(key)
      if (!block) continue
      keys.push(key)
      blocks.push(block)
      versions.set(key, version)
      if (block.id === undefined) this.inFlight.add(key)
    }
    return { keys, blocks, deleteIds: [...this.pendingDeletes], versions }
  }

  /** The save of `batch` went through and returned `ids` (same order as `batch.blocks`). */
  markSaved(batch: SaveBatch, ids: readonly number[]) {
    batch.keys.forEach((key, i) => {
      const id = ids[i]
      const block = this.blocks.get(key)
      this.inFlight.delete(key)
      if (id !== undefined) this.lastSaved.set(key, { ...batch.blocks[i]!, id } as LocalBlock)
      if (id !== undefined) {
        const previous = batch.blocks[i]!.id
        if (!block) {
          // Deleted while the save was on its way: the new id must go too.
          if (previous === undefined) this.pendingDeletes.add(id)
        } else if (block.id === previous && previous !== id) {
          // (A block the mirror already showed under its id keeps that one: it may be newer.)
          this.assignId(key, block.id, id)
        }
      }
      if (this.dirty.get(key) === batch.versions.get(key)) this.dirty.delete(key)
    })
    this.emit()
  }

  /** The data layer deleted these ids. An undo brings such a block back as a new one. */
  markDeleted(ids: readonly number[]) {
    const gone = new Set(ids)
    for (const id of ids) {
      this.pendingDeletes.delete(id)
      this.deletedIds.add(id)
    }
    const strip = (b: LocalBlock | null) => {
      if (!b || b.id === undefined || !gone.has(b.id)) return b
      const { id: _id, ...rest } = b
      return rest as LocalBlock
    }
    // A block deleted for good is new again when an undo brings it back.
    for (const entry of [...this.undoStack, ...this.redoStack]) {
      for (const change of entry.changes.values()) {
        change.before = strip(change.before)
        change.after = strip(change.after)
      }
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
  add(type: BlockType, bgId: number): string | null {
    const bg = this.backgrounds.get(bgId)
    if (!bg) return null
    const key = this.newKey()
    const block = defaultBlock(type, bgId, bg, this.topZ(bgId) + 1, this.options.texts)
    this.commit(new Map([[key, block]]), { selection: [key] })
    return key
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

  private newKey(): string {
    this.counter += 1
    return `b${this.counter}`
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
      .sort(([ka, a], [kb, b]) => a.bg_id - b.bg_id || a.zindex - b.zindex || keyOrder(ka, kb))
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
      // Keep the z values already there (in order) so only the blocks that moved are saved;
      // fall back to renumbering when values repeat.
      const values = order.map((k) => this.blocks.get(k)!.zindex)
      const distinct = new Set(values).size === values.length
      next.forEach((key, i) => {
        const z = distinct ? values[i]! : i
        const block = this.blocks.get(key)!
        if (block.zindex !== z) changes.set(key, { ...block, zindex: z } as LocalBlock)
      })
    }
    if (changes.size > 0) this.commit(changes)
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
      if (current.id !== undefined) this.pendingDeletes.add(current.id)
      return
    }
    this.blocks.set(key, block)
    if (block.id !== undefined) this.pendingDeletes.delete(block.id)
    this.changeCounter += 1
    this.dirty.set(key, this.changeCounter)
  }

  /** The block under `key` now has `id` (instead of `previous`), in the present and in history. */
  private assignId(key: string, previous: number | undefined, id: number) {
    const current = this.blocks.get(key)
    if (current) this.blocks.set(key, { ...current, id } as LocalBlock)
    for (const entry of [...this.undoStack, ...this.redoStack]) {
      const change = entry.changes.get(key)
      if (!change) continue
      if (change.before && change.before.id === previous)
        change.before = { ...change.before, id } as LocalBlock
      if (change.after && change.after.id === previous)
        change.after = { ...change.after, id } as LocalBlock
    }
    if (previous !== undefined && this.pendingDeletes.delete(previous)) this.pendingDeletes.add(id)
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
    for (const [key, block] of this.lastSaved) this.lastSaved.set(key, rewrite(block)!)
  }

  private snapshot(version: number): EditorState {
    return {
      blocks: new Map(this.blocks),
      selection: this.selection,
      canUndo: this.undoStack.length > 0,
      canRedo: this.redoStack.length > 0,
      unsaved: this.dirty.size + this.pendingDeletes.size,
      version,
    }
  }

  private emit() {
    this.state = this.snapshot(this.state.version + 1)
    for (const listener of this.listeners) listener()
  }
}

/** Keys of a background's blocks, back to front (z, then creation order). */
export function sortedKeys(blocks: BlockMap, bgId: number): string[] {
  return [...blocks.entries()]
    .filter(([, b]) => b.bg_id === bgId)
    .sort(([ka, a], [kb, b]) => a.zindex - b.zindex || keyOrder(ka, kb))
    .map(([key]) => key)
}

function keyOrder(a: string, b: string): number {
  return Number(a.slice(1)) - Number(b.slice(1))
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)]
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value))
}

function withoutId(block: LocalBlock): LocalBlock {
  const { id: _id, ...rest } = block
  return rest as LocalBlock
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

/** Fields the data layer may rewrite when a block syncs (uploaded files get their server URL). */
const SYNC_REWRITTEN = new Set(['id', 'image_url', 'video_src'])

/** Same block apart from what syncing changes (a local block and its synced copy). */
function sameContent(a: LocalBlock, b: LocalBlock): boolean {
  const ra = a as Record<string, unknown>
  const rb = b as Record<string, unknown>
  const keys = new Set([...Object.keys(ra), ...Object.keys(rb)])
  for (const key of keys) if (!SYNC_REWRITTEN.has(key) && !Object.is(ra[key], rb[key])) return false
  return true
}
