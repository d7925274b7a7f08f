import type { Point } from '../../../../domain/geometry.ts'
import { backgroundAt, handleAt } from '../hit-test.ts'
import { worldBox } from '../world-box.ts'
import { enterMarquee } from './marquee.ts'
import { enterPan } from './pan.ts'
import { enterPress } from './press.ts'
import { enterResize } from './resize.ts'
import { enterRotate } from './rotate.ts'
import type { Tool, ToolContext } from './tool.ts'

/**
 * The state a first pointer down starts, by what is under it: the middle button or Space pans; a
 * handle of the selected block resizes or rotates; a block is pressed; empty canvas pans under a
 * finger and draws a marquee under the mouse.
 */
export function toolForPress(ctx: ToolContext, p: Point, e: PointerEvent): Tool {
  const { host } = ctx
  const touch = e.pointerType === 'touch'
  if (e.button === 1 || ctx.spaceHeld()) {
    host.setCursor('grabbing')
    return enterPan(ctx, p, false)
  }
  const world = ctx.world(p)
  const bgId = backgroundAt(host.frames(), world)
  if (bgId !== null) host.onActiveBackground(bgId)
  const handle = handleAt(host, p, touch)
  if (handle) {
    const origin = worldBox(host, handle.key)!
    return handle.handle === 'rotate'
      ? enterRotate(ctx, handle.key, origin)
      : enterResize(ctx, handle.key, handle.handle, origin)
  }
  const key = ctx.hits.blockAt(world, touch ? 6 / host.view.zoom : 0)
  // Shift, or the selection mode a finger turns on in the toolbar, adds and removes.
  const additive = e.shiftKey || host.store.getState().multiSelect
  if (key) return enterPress(ctx, key, p, additive, touch)
  if (touch) {
    ctx.startLongPress(p, null)
    return enterPan(ctx, p, true)
  }
  return enterMarquee(ctx, p, additive)
}
