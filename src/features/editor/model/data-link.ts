import type { LocalBlock } from '../editor-data.ts'
import { sameBlock } from './records.ts'

/**
 * The store's link to the data layer (docs/editor.md «What the editor expects of the data layer»):
 * which blocks changed since they were handed over (save batching: `takeChanges`, then `markSaved`
 * or `markDeleted`), and `merge`, the keyed merge of the data layer's blocks by client key `ck`.
 */

export interface SaveBatch {
  keys: string[]
  /** The blocks to save, each with its key as `ck`. */
  blocks: LocalBlock[]
  /** Keys of blocks to delete in the data layer. */
  deleteKeys: string[]
  versions: Map<string, number>
}

export class DataLink {
  /** Unsaved blocks, by key, with the change count of their last write. */
  private dirty = new Map<string, number>()
  /** Keys of blocks removed here that the data layer may hold: deleted there on the next save. */
  private pendingDeletes = new Set<string>()
  /** Keys deleted through the data layer; a stale snapshot from it must not bring them back. */
  private deletedKeys = new Set<string>()
  /** Keys the data layer has shown us or was handed: only those can disappear from it. */
  private seenKeys = new Set<string>()
  private handedKeys = new Set<string>()
  private changeCounter = 0

  /** Blocks changed or deleted since they were last handed to the data layer. */
  get unsaved(): number {
    return this.dirty.size + this.pendingDeletes.size
  }

  /** A block was written here (a command, an undo): it is to be saved. */
  written(key: string) {
    this.pendingDeletes.delete(key)
    this.deletedKeys.delete(key)
    this.changeCounter += 1
    this.dirty.set(key, this.changeCounter)
  }

  /** A block was removed here: the data layer deletes it if it may hold it. */
  removed(key: string) {
    this.dirty.delete(key)
    if (this.seenKeys.has(key) || this.handedKeys.has(key)) this.pendingDeletes.add(key)
  }

  /**
   * Merges the data layer's blocks into `blocks` by client key: blocks with unsaved edits keep the
   * editor's version, others take the data layer's; blocks that disappeared from it (deleted
   * elsewhere; one it has not shown yet is not among them) leave; new ones join. Returns the keys
   * that left and whether anything changed.
   */
  merge(
    blocks: Map<string, LocalBlock>,
    incoming: readonly LocalBlock[],
  ): { changed: boolean; left: Set<string> } {
    const present = new Set<string>()
    const left = new Set<string>()
    let changed = false
    for (const block of incoming) {
      const key = block.ck ?? (block.id === undefined ? undefined : String(block.id))
      if (key === undefined) continue
      present.add(key)
      if (this.pendingDeletes.has(key) || this.deletedKeys.has(key)) continue
      const current = blocks.get(key)
      if (current === undefined || (!this.dirty.has(key) && !sameBlock(current, block))) {
        blocks.set(key, block)
        changed = true
      }
    }
    for (const key of [...blocks.keys()]) {
      if (present.has(key) || !this.seenKeys.has(key) || this.dirty.has(key)) continue
      blocks.delete(key)
      left.add(key)
      changed = true
    }
    for (const key of present) this.seenKeys.add(key)
    for (const key of this.deletedKeys) if (!present.has(key)) this.deletedKeys.delete(key)
    return { changed, left }
  }

  /** The unsaved blocks (each with its key as `ck`) and pending deletions, for one save. */
  /** The unsaved blocks and pending deletions as they are now, without handing them over. */
  unsavedChanges(blocks: ReadonlyMap<string, LocalBlock>): {
    blocks: LocalBlock[]
    deleteKeys: string[]
  } {
    const list: LocalBlock[] = []
    for (const key of this.dirty.keys()) {
      const block = blocks.get(key)
      if (block) list.push({ ...block, ck: key })
    }
    return { blocks: list, deleteKeys: [...this.pendingDeletes] }
  }

  takeChanges(blocks: ReadonlyMap<string, LocalBlock>): SaveBatch {
    const keys: string[] = []
    const list: LocalBlock[] = []
    const versions = new Map<string, number>()
    for (const [key, version] of this.dirty) {
      const block = blocks.get(key)
      if (!block) continue
      keys.push(key)
      list.push({ ...block, ck: key })
      versions.set(key, version)
      this.handedKeys.add(key)
    }
    return { keys, blocks: list, deleteKeys: [...this.pendingDeletes], versions }
  }

  /** The save of `batch` went through: blocks not changed since are clean. */
  markSaved(batch: SaveBatch) {
    for (const key of batch.keys) {
      if (this.dirty.get(key) === batch.versions.get(key)) this.dirty.delete(key)
    }
  }

  /** The data layer deleted these blocks. An undo brings such a block back as a new one. */
  markDeleted(keys: readonly string[]) {
    for (const key of keys) {
      this.pendingDeletes.delete(key)
      this.deletedKeys.add(key)
    }
  }
}
