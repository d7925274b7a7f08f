import type { Point } from '../../../../domain/geometry.ts'
import type { Tool, ToolContext } from './tool.ts'

/**
 * Moving the view: the middle button, Space + drag, or a finger on empty canvas. A finger has a
 * slop before it pans, and a tap of it (no move) clears the selection.
 */
export function enterPan(ctx: ToolContext, start: Point, touch: boolean): Tool {
  const { host } = ctx
  let last = start
  let moved = false
  return {
    kind: 'pan',
    move(p) {
      const dx = p.x - last.x
      const dy = p.y - last.y
      if (Math.abs(dx) + Math.abs(dy) === 0) return
      if (touch && !moved && Math.hypot(dx, dy) < 6) return
      moved = true
      ctx.clearLongPress()
      last = p
      ctx.startViewGesture()
      ctx.setView({ ...host.view, panX: host.view.panX + dx, panY: host.view.panY + dy })
    },
    up() {
      ctx.endViewGesture()
      if (touch && !moved) host.store.clearSelection()
    },
  }
}
