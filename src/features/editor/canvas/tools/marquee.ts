import { rectFromPoints, type Point } from '../../../../domain/geometry.ts'
import type { Tool, ToolContext } from './tool.ts'

/**
 * A mouse press on empty canvas draws a marquee; the release selects what it touches (added to the
 * selection with Shift or in the selection mode). A click without a marquee clears the selection.
 */
export function enterMarquee(ctx: ToolContext, start: Point, additive: boolean): Tool {
  const { host, previews } = ctx
  let current = start
  return {
    kind: 'marquee',
    move(p) {
      current = p
      previews.overlay.marquee = rectFromPoints(start, p)
      previews.draw()
    },
    up() {
      const rect = rectFromPoints(ctx.world(start), ctx.world(current))
      previews.overlay.marquee = null
      previews.draw()
      const zoom = host.view.zoom
      if (rect.width * zoom < 3 && rect.height * zoom < 3) {
        if (!additive) host.store.clearSelection()
        return
      }
      host.store.select(ctx.hits.blocksIn(rect), additive)
    },
  }
}
