import type { Container } from 'pixi.js'
import type { Box, Guide, Point, Rect, Viewport } from '../../../domain/geometry.ts'
import type { EditorStore } from '../model/editor-store.ts'

/** What the canvas draws on top of the scene besides the selection: previews, guides, marquee. */
export interface OverlayState {
  previews: Map<string, Box>
  guides: Guide[]
  marquee: Rect | null
}

/** What a gesture of blocks does to them: a move can be shown by the compositor drag layer. */
export type GestureKind = 'move' | 'resize' | 'rotate'

/** What the pointer handling needs of the canvas (`scene-host.ts` is the real one). */
export interface InteractionHost {
  store: EditorStore
  view: Viewport
  /** Applies `view` to the world container (and redraws the overlay). */
  applyView(): void
  frames(): Map<number, Rect>
  containers: Map<string, Container>
  measuredPx: MeasuredSizes
  grid(): { enabled: boolean; size: number }
  drawOverlay(state: OverlayState): void
  onContextMenu(point: Point, key: string | null): void
  onActiveBackground(bgId: number): void
  setCursor(cursor: string): void
  /** A drag, resize or rotate of these blocks starts (the rest of the scene can stay still). */
  beginGesture(keys: readonly string[], kind: GestureKind): void
  /** The gesture ended or was called off (before its result reaches the store). */
  endGesture(): void
  /** A pan or pinch starts moving the view (the scene can be drawn once and moved as a picture). */
  beginViewGesture(): void
  /** The pan or pinch is over (the scene is drawn live again). */
  endViewGesture(): void
}

/**
 * Text heights the canvas measured, in world px by block key; `version` counts the changes, so the
 * hit index (`hit-index.ts`) knows when to look at them again.
 */
export class MeasuredSizes extends Map<string, number> {
  version = 0

  override set(key: string, px: number): this {
    if (super.get(key) !== px) this.version += 1
    return super.set(key, px)
  }

  override delete(key: string): boolean {
    const had = super.delete(key)
    if (had) this.version += 1
    return had
  }

  override clear() {
    if (this.size > 0) this.version += 1
    super.clear()
  }
}
