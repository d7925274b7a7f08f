import { zoomAt, type Point } from '../../../../domain/geometry.ts'
import { idle, menu, type Tool, type ToolContext } from './tool.ts'

/**
 * Two fingers zoom about their midpoint and pan with it. When one lifts, nothing else starts from
 * the other (the menu state waits for it).
 */
export function enterPinch(ctx: ToolContext): Tool {
  const { host } = ctx
  const fingers = (): [Point, Point] | null => {
    const [a, b] = [...ctx.pointers.values()].map((v) => v.p)
    return a && b ? [a, b] : null
  }
  const [a, b] = fingers()!
  const startDist = Math.max(1, Math.hypot(a.x - b.x, a.y - b.y))
  const startMid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }
  const startView = { ...host.view }
  return {
    kind: 'pinch',
    move() {
      const pair = fingers()
      if (!pair) return
      const [a, b] = pair
      const dist = Math.max(1, Math.hypot(a.x - b.x, a.y - b.y))
      const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }
      const zoomed = zoomAt(startView, (startView.zoom * dist) / startDist, startMid)
      ctx.startViewGesture()
      ctx.setView({
        ...zoomed,
        panX: zoomed.panX + mid.x - startMid.x,
        panY: zoomed.panY + mid.y - startMid.y,
      })
    },
    lift(remaining) {
      ctx.to(remaining === 0 ? idle : menu)
      ctx.endViewGesture()
    },
  }
}
