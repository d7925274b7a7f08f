import {
  handlePoint,
  screenToStored,
  worldToScreen,
  type Box,
  type Handle,
  type Point,
  type Rect,
  type Viewport,
} from '../../../domain/geometry.ts'
import { BLOCK_DEFINITIONS } from '../blocks/index.ts'
import type { LocalBlock } from '../editor-data.ts'
import { blockBox, hasStoredHeight } from '../model/block-shape.ts'
import type { Patch } from '../model/editor-store.ts'
import type { InteractionHost } from './interaction-host.ts'

/**
 * Where a block is in the world (px at zoom 1, backgrounds laid out by `model/layout.ts`) and on
 * screen, its handles, and the way back from a world box to the stored patch a gesture commits.
 */

/** How far above the top edge the rotate handle sits, in screen px. */
export const ROTATE_OFFSET = 30

export type WorldHost = Pick<InteractionHost, 'store' | 'measuredPx' | 'frames'>

/** Handles a block type offers: text and cards change width (corners keep the aspect). */
export function handlesOf(block: LocalBlock): readonly Handle[] {
  return BLOCK_DEFINITIONS[block.type].handles.sides === 'both'
    ? ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w']
    : ['nw', 'ne', 'e', 'se', 'sw', 'w']
}

/** A box in world px from the block's stored-unit box and its background frame. */
export function worldBox(host: WorldHost, key: string): Box | null {
  const block = host.store.get(key)
  const frame = block && host.frames().get(block.bg_id)
  const bg = block && host.store.background(block.bg_id)
  if (!block || !frame || !bg) return null
  const unit = frame.width / 200
  const measured = host.measuredPx.get(key)
  const box = blockBox(block, bg, measured !== undefined ? measured / unit : undefined)
  return {
    cx: frame.left + frame.width / 2 + box.cx * unit,
    cy: frame.top + frame.height / 2 + box.cy * unit,
    width: box.width * unit,
    height: box.height * unit,
    rotation: box.rotation,
  }
}

/** The frame of the background a block stands on. */
export function frameOf(host: WorldHost, key: string): Rect | undefined {
  const block = host.store.get(key)
  return block ? host.frames().get(block.bg_id) : undefined
}

export function toScreenBox(box: Box, view: Viewport): Box {
  const c = worldToScreen({ x: box.cx, y: box.cy }, view)
  return {
    cx: c.x,
    cy: c.y,
    width: box.width * view.zoom,
    height: box.height * view.zoom,
    rotation: box.rotation,
  }
}

/** The rotate handle: above the top edge, turning with the block. */
export function rotateHandlePoint(screenBox: Box): Point {
  const top = handlePoint(screenBox, 'n')
  const a = (screenBox.rotation * Math.PI) / 180
  return { x: top.x + Math.sin(a) * ROTATE_OFFSET, y: top.y - Math.cos(a) * ROTATE_OFFSET }
}

/**
 * The stored patch that puts a block at `box` (world px): position and rotation always, width and
 * height only when they changed (and height only for the types that store it); a corner drag of a
 * text scales its font with the width.
 */
export function storedPatch(host: WorldHost, key: string, box: Box): Patch | null {
  const block = host.store.get(key)
  const frame = frameOf(host, key)
  const origin = worldBox(host, key)
  if (!block || !frame || !origin) return null
  const stored = screenToStored(box, frame)
  const patch: Patch = { x: stored.x, y: stored.y, rotation: stored.rotation }
  if (Math.abs(box.width - origin.width) > 1e-9) patch.width = stored.width
  if (hasStoredHeight(block.type) && Math.abs(box.height - origin.height) > 1e-9)
    patch.height = stored.height
  if (
    BLOCK_DEFINITIONS[block.type].handles.scalesFont &&
    'fontSize' in block &&
    patch.width !== undefined &&
    Math.abs(box.height - origin.height) > 1e-9
  ) {
    // A corner drag of a text scales its font with the width.
    patch.fontSize = block.fontSize * (box.width / origin.width)
  }
  return patch
}
