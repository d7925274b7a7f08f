import {
  boundingBox,
  NO_GUIDE_TARGETS,
  type GuideTargets,
  type Point,
} from '../../../../domain/geometry.ts'
import { snapDrag, snapTargets } from '../snapping.ts'
import { frameOf, worldBox } from '../world-box.ts'
import { commitPreviews, type Tool, type ToolContext } from './tool.ts'

/**
 * Dragging the selection: every move shows the blocks at the pointer's offset, snapped to the grid
 * and to guides (`snapping.ts`); the release commits their positions as one undo step.
 */
export function enterMove(
  ctx: ToolContext,
  start: Point,
  keys: readonly string[],
  primary: string,
): Tool {
  const { host, previews } = ctx
  const origin = new Map(keys.map((k) => [k, worldBox(host, k)!]))
  /** What guides snap to: the other blocks hold still, so measured once per drag. */
  let targets: GuideTargets | null = null
  return {
    kind: 'move',
    move(p) {
      const zoom = host.view.zoom
      const frame = frameOf(host, primary)
      if (frame && !targets) {
        const block = host.store.get(primary)!
        targets = snapTargets(
          frame,
          host.store
            .keysOf(block.bg_id)
            .filter((k) => !origin.has(k))
            .flatMap((k) => {
              const b = worldBox(host, k)
              return b ? [boundingBox(b)] : []
            }),
        )
      }
      const { dx, dy, guides } = snapDrag({
        boxes: [...origin.values()],
        primary: origin.get(primary)!,
        frame,
        grid: host.grid(),
        targets: targets ?? NO_GUIDE_TARGETS,
        zoom,
        dx: (p.x - start.x) / zoom,
        dy: (p.y - start.y) / zoom,
      })
      for (const [key, box] of origin)
        previews.show(key, { ...box, cx: box.cx + dx, cy: box.cy + dy })
      previews.overlay.guides = guides
      previews.draw()
    },
    up() {
      commitPreviews(ctx, 'position')
    },
  }
}
