import { resizeBox, type Box, type Handle } from '../../../../domain/geometry.ts'
import { BLOCK_DEFINITIONS } from '../../blocks/index.ts'
import { snapHandlePoint } from '../snapping.ts'
import { frameOf } from '../world-box.ts'
import { commitPreviews, type Tool, type ToolContext } from './tool.ts'

/**
 * Resizing the one selected block by a handle: the type's handles (`blocks/<type>.ts`) decide
 * what a corner keeps and what the height does; the release commits the box as one undo step.
 */
export function enterResize(ctx: ToolContext, key: string, handle: Handle, origin: Box): Tool {
  const { host, previews } = ctx
  return {
    kind: 'resize',
    move(p, e) {
      previews.start([key], 'resize')
      const block = host.store.get(key)
      const frame = frameOf(host, key)
      if (!block || !frame) return
      const world = snapHandlePoint(ctx.world(p), frame, host.grid(), origin.rotation)
      const corner = handle.length === 2
      // Text and cards keep their proportions at the corners; pictures and videos too while the
      // person keeps them (the default); Shift turns it around.
      const handles = BLOCK_DEFINITIONS[block.type].handles
      const keeps =
        handles.cornerAspect === 'always' ||
        (handles.cornerAspect === 'switchable' && host.store.getState().keepAspect)
      let box = resizeBox(origin, handle, world, {
        keepAspect: corner && keeps !== e.shiftKey,
        min: handles.minScreenPx / host.view.zoom,
      })
      if (handles.heightFollows === 'ratio' && !corner) {
        // Width only: the height keeps the card's proportions (a text's follows its lines).
        const ratio = origin.width > 0 ? box.width / origin.width : 1
        box = { ...box, height: origin.height * ratio }
      }
      previews.show(key, box)
      previews.draw()
    },
    up() {
      commitPreviews(ctx, 'all')
    },
  }
}
