import type { LocalBlock } from '../editor-data.ts'

/**
 * Undo and redo as patches (docs/editor.md «Layers»): a step holds, per block key, the block
 * before and after (null: absent), and the selection before and after. One command is one step;
 * successive commands with the same tag within 1.5 s (typing in one field, nudges) merge into one.
 */

export interface Change {
  before: LocalBlock | null
  after: LocalBlock | null
}

export interface HistoryEntry {
  changes: Map<string, Change>
  selectionBefore: readonly string[]
  selectionAfter: readonly string[]
  /** Successive commands with the same tag (typing in one field, nudges) merge into one step. */
  tag?: string
  at: number
}

export const MERGE_WINDOW_MS = 1500

export interface HistoryOptions {
  /** Clock for merging steps (tests pass their own). */
  now?: () => number
  /** Steps kept for undo. */
  limit?: number
}

export class History {
  private undoStack: HistoryEntry[] = []
  private redoStack: HistoryEntry[] = []

  constructor(private options: HistoryOptions = {}) {}

  get canUndo(): boolean {
    return this.undoStack.length > 0
  }

  get canRedo(): boolean {
    return this.redoStack.length > 0
  }

  /**
   * Records a command: `next` holds each changed block's new value (null: removed), `current`
   * reads its value before. Merges into the last step when the tag allows; clears redo.
   */
  record(
    next: ReadonlyMap<string, LocalBlock | null>,
    current: (key: string) => LocalBlock | null,
    selection: { before: readonly string[]; after: readonly string[] },
    tag?: string,
  ) {
    const now = (this.options.now ?? Date.now)()
    const last = this.undoStack[this.undoStack.length - 1]
    const merge =
      tag !== undefined &&
      last?.tag === tag &&
      now - last.at < MERGE_WINDOW_MS &&
      this.redoStack.length === 0
    const entry: HistoryEntry = merge
      ? last!
      : { changes: new Map(), selectionBefore: selection.before, selectionAfter: [], tag, at: now }
    for (const [key, after] of next) {
      const existing = entry.changes.get(key)
      entry.changes.set(key, { before: existing ? existing.before : current(key), after })
    }
    entry.selectionAfter = selection.after
    entry.at = now
    if (!merge) {
      this.undoStack.push(entry)
      if (this.undoStack.length > (this.options.limit ?? 200)) this.undoStack.shift()
    }
    this.redoStack = []
  }

  /** The step to undo (its `before` side is to be written), moved to redo. */
  undo(): HistoryEntry | undefined {
    const entry = this.undoStack.pop()
    if (entry) this.redoStack.push(entry)
    return entry
  }

  /** The step to redo (its `after` side is to be written), moved back to undo. */
  redo(): HistoryEntry | undefined {
    const entry = this.redoStack.pop()
    if (entry) this.undoStack.push(entry)
    return entry
  }

  /** Rewrites every block the steps hold (a background's id changed when it synced). */
  rewrite(rewrite: (b: LocalBlock | null) => LocalBlock | null) {
    for (const entry of [...this.undoStack, ...this.redoStack]) {
      for (const change of entry.changes.values()) {
        change.before = rewrite(change.before)
        change.after = rewrite(change.after)
      }
    }
  }
}
