import type { Box } from '../../../../domain/geometry.ts'
import { snapRotation } from '../snapping.ts'
import { commitPreviews, type Tool, type ToolContext } from './tool.ts'

/** Turning the one selected block by its rotate handle; the release commits the angle. */
export function enterRotate(ctx: ToolContext, key: string, origin: Box): Tool {
  const { previews } = ctx
  return {
    kind: 'rotate',
    move(p, e) {
      previews.start([key], 'rotate')
      const rotation = snapRotation({ x: origin.cx, y: origin.cy }, ctx.world(p), e.shiftKey)
      previews.show(key, { ...origin, rotation })
      previews.draw()
    },
    up() {
      commitPreviews(ctx, 'all')
    },
  }
}
