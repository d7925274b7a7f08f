import {
  alignShifts,
  distributeShifts,
  unitFrame,
  type AlignMode,
  type Point,
  type Rect,
  type Size,
} from '../../../domain/geometry.ts'
import { unique } from './selection.ts'

/**
 * Arrangement of blocks, pure: the z-order of a background's blocks (one step, to the front or
 * back, the layers list's order) and the shifts that align or distribute them. The store turns
 * the results into one undo step.
 */

export type ReorderHow = 'forward' | 'backward' | 'front' | 'back'

/** A background's keys (back to front) after moving the `chosen` ones. */
export function reordered(
  order: readonly string[],
  chosen: ReadonlySet<string>,
  how: ReorderHow,
): string[] {
  if (how === 'front')
    return [...order.filter((k) => !chosen.has(k)), ...order.filter((k) => chosen.has(k))]
  if (how === 'back')
    return [...order.filter((k) => chosen.has(k)), ...order.filter((k) => !chosen.has(k))]
  const next = [...order]
  const step = how === 'forward' ? 1 : -1
  const indices = next.map((k, i) => (chosen.has(k) ? i : -1)).filter((i) => i >= 0)
  if (how === 'forward') indices.reverse()
  for (const i of indices) {
    const j = i + step
    if (j < 0 || j >= next.length || chosen.has(next[j]!)) continue
    ;[next[i], next[j]] = [next[j]!, next[i]!]
  }
  return next
}

/**
 * A background's keys in the order of `listed` (the layers list's drag): keys not of the
 * background are ignored, and a key of it missing from the list keeps its place while the listed
 * ones fill the other places in order.
 */
export function listedOrder(order: readonly string[], listed: readonly string[]): string[] {
  const present = new Set(order)
  const kept = unique(listed).filter((k) => present.has(k))
  const keptSet = new Set(kept)
  let i = 0
  return order.map((k) => (keptSet.has(k) ? kept[i++]! : k))
}

/**
 * The z values that put a background's blocks (now in `order`, with z `zOf`) in the order `next`,
 * for the blocks whose value changes. The values already there are kept, in order, so only the
 * blocks that moved are saved; they are renumbered from 0 when values repeat.
 */
export function renumbered(
  order: readonly string[],
  next: readonly string[],
  zOf: (key: string) => number,
): Map<string, number> {
  const values = order.map(zOf)
  const distinct = new Set(values).size === values.length
  const changes = new Map<string, number>()
  next.forEach((key, i) => {
    const z = distinct ? values[i]! : i
    if (zOf(key) !== z) changes.set(key, z)
  })
  return changes
}

/** How far each rectangle moves to align them (one: to its background, stored units). */
export function alignMoves(rects: readonly Rect[], mode: AlignMode, bg: Size | undefined): Point[] {
  return alignShifts(rects, mode, bg ? unitFrame(bg) : undefined)
}

/** How far each rectangle moves to space three or more evenly. */
export function distributeMoves(rects: readonly Rect[], axis: 'h' | 'v'): Point[] {
  return distributeShifts(rects, axis)
}

/** Keys grouped by the background their block stands on (unknown keys left out). */
export function byBackground(
  keys: readonly string[],
  bgOf: (key: string) => number | undefined,
): Map<number, string[]> {
  const groups = new Map<number, string[]>()
  for (const key of keys) {
    const bgId = bgOf(key)
    if (bgId !== undefined) groups.set(bgId, [...(groups.get(bgId) ?? []), key])
  }
  return groups
}
