import {
  halfHeightUnits,
  normalizeRotation,
  roundStored,
  type Size,
} from '../../../domain/geometry.ts'
import type { LocalBlock } from '../editor-data.ts'

/**
 * The editor's blocks as records keyed by their client key (docs/SYNC.md "Ids"), and the pure
 * rules over them: order, patches rounded to the stored precision, equality, placement of copies.
 */

export type BlockMap = ReadonlyMap<string, LocalBlock>

export type Patch = Partial<Omit<LocalBlock, 'type' | 'id'>> & Record<string, unknown>

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

/** The highest z of a background's blocks (-1 when it has none). */
export function topZ(blocks: BlockMap, bgId: number): number {
  let top = -1
  for (const b of blocks.values()) if (b.bg_id === bgId) top = Math.max(top, b.zindex)
  return top
}

/** Blocks of `keys`, each background's back to front. */
export function ordered(blocks: BlockMap, keys: readonly string[]): LocalBlock[] {
  const set = new Set(keys)
  return [...blocks.entries()]
    .filter(([key]) => set.has(key))
    .sort(([, a], [, b]) => a.bg_id - b.bg_id || a.zindex - b.zindex)
    .map(([, b]) => b)
}

const GEOMETRY_FIELDS = ['x', 'y', 'width', 'height', 'rotation', 'fontSize'] as const

/** Geometry rounded to the stored precision, the rotation within (-180, 180]. */
export function roundPatch(patch: Patch): Patch {
  const out: Patch = { ...patch }
  for (const field of GEOMETRY_FIELDS) {
    const value = out[field]
    if (typeof value === 'number')
      out[field] = roundStored(field === 'rotation' ? normalizeRotation(value) : value)
  }
  return out
}

/** `block` with `patch` applied (rounded). */
export function patched(block: LocalBlock, patch: Patch): LocalBlock {
  return { ...block, ...roundPatch(patch) } as LocalBlock
}

/** Same fields, same values. */
export function sameBlock(a: LocalBlock, b: LocalBlock): boolean {
  const ka = Object.keys(a) as (keyof LocalBlock)[]
  const kb = Object.keys(b)
  if (ka.length !== kb.length) return false
  return ka.every((k) => Object.is(a[k], (b as Record<string, unknown>)[k]))
}

/** A block as a copy starts: no id and no key of its own yet. */
export function withoutId(block: LocalBlock): LocalBlock {
  const { id: _id, ck: _ck, ...rest } = block
  return rest
}

/** `block` on `bgId` (of size `bg`), moved by `offset` units and kept inside the background. */
export function placed(
  block: LocalBlock,
  bgId: number,
  bg: Size | undefined,
  offset: number,
  zindex: number,
): LocalBlock {
  const half = bg ? halfHeightUnits(bg) : 100
  return {
    ...block,
    bg_id: bgId,
    x: roundStored(clamp(block.x + offset, -100, 100)),
    y: roundStored(clamp(block.y + offset, -half, half)),
    zindex,
  } as LocalBlock
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value))
}
