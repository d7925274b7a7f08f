import type { Point, Rect, Viewport } from '../../../../domain/geometry.ts'
import type { InteractionHost } from '../interaction-host.ts'
import type { Previews } from '../previews.ts'
import { storedPatch } from '../world-box.ts'

/**
 * The canvas's pointer handling is a small state machine (docs/editor.md «The editor core»): one
 * tool state at a time, each in its own module under `canvas/tools/`. A state is entered by its
 * module's `enter…` function, hears the moves of the pointers down, and finishes when the last one
 * lifts. Calling off (a cancelled pointer, a second finger, a long press) is the same for every
 * state and done by the wiring (`canvas/interaction.ts`): previews go back, the view gesture ends.
 */
export interface Tool {
  readonly kind:
    'idle' | 'press' | 'move' | 'resize' | 'rotate' | 'marquee' | 'pan' | 'pinch' | 'menu'
  /** A pointer of the gesture moved (`p` in canvas px). */
  move?(p: Point, e: PointerEvent): void
  /** The last pointer lifted; the idle state is already in place. */
  up?(): void
  /** Instead of `up`: hears every lift, with the number of pointers still down. */
  lift?(remaining: number): void
}

/** What a tool state may use and do. */
export interface ToolContext {
  readonly host: InteractionHost
  readonly previews: Previews
  /** Blocks under a world point or in a world rectangle. */
  readonly hits: {
    blockAt(world: Point, slop: number): string | null
    blocksIn(rect: Rect): string[]
  }
  /** The pointers down, in canvas px, by pointer id. */
  readonly pointers: ReadonlyMap<number, { p: Point; type: string }>
  /** Whether Space is held (a press then pans). */
  spaceHeld(): boolean
  /** Switches to another state. */
  to(tool: Tool): void
  world(p: Point): Point
  setView(view: Viewport): void
  /** Once per pan or pinch, on its first move of the view. */
  startViewGesture(): void
  /** Ends the pan or pinch unless fingers or a scroll still move the view. */
  endViewGesture(): void
  /** `before`: the selection before the press, which a long press on `key` adds it to. */
  startLongPress(p: Point, key: string | null, before?: readonly string[]): void
  clearLongPress(): void
}

export const idle: Tool = { kind: 'idle' }

/** After a long press or a pinch: the pointers still down change nothing until they lift. */
export const menu: Tool = { kind: 'menu' }

/** Commits the previewed boxes of `keys` as one undo step (all of a box, or just its position). */
export function commitPreviews(ctx: ToolContext, keys: 'all' | 'position') {
  const updates = [...ctx.previews.overlay.previews].flatMap(([key, box]) => {
    const patch = storedPatch(ctx.host, key, box)
    if (!patch) return []
    return [{ key, patch: keys === 'all' ? patch : { x: patch.x, y: patch.y } }]
  })
  ctx.previews.cancel()
  if (updates.length > 0) ctx.host.store.setGeometry(updates)
}
