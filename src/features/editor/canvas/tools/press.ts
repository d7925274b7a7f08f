import type { Point } from '../../../../domain/geometry.ts'
import { worldBox } from '../world-box.ts'
import { enterMove } from './move.ts'
import { idle, type Tool, type ToolContext } from './tool.ts'

/**
 * A block was pressed and the pointer has not moved past the slop yet. Pressing selects the block
 * (Shift or the selection mode adds or removes it); moving on drags the selection; releasing on a
 * block of a multi-selection selects just that block.
 */
export function enterPress(
  ctx: ToolContext,
  key: string,
  start: Point,
  additive: boolean,
  touch: boolean,
): Tool {
  const { store } = ctx.host
  const before = store.getState().selection
  const wasSelected = before.includes(key)
  if (additive) store.toggleSelect(key)
  else if (!wasSelected) store.select([key])
  if (touch) ctx.startLongPress(start, key, before)
  return {
    kind: 'press',
    move(p, e) {
      const slop = e.pointerType === 'touch' ? 8 : 4
      if (Math.hypot(p.x - start.x, p.y - start.y) < slop) return
      ctx.clearLongPress()
      const keys = store.getState().selection.filter((k) => worldBox(ctx.host, k))
      // An additive press only toggles; a press whose block left the selection drags nothing.
      if (additive || !keys.includes(key)) {
        ctx.to(idle)
        return
      }
      const drag = enterMove(ctx, start, keys, key)
      ctx.to(drag)
      ctx.host.setCursor('grabbing')
      ctx.previews.start(keys, 'move')
      drag.move!(p, e)
    },
    up() {
      // A click on a block of a multi-selection selects just that block.
      if (!additive && wasSelected) store.select([key])
    },
  }
}
