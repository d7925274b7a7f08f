import { Container, type DestroyOptions } from 'pixi.js'

/**
 * The canvas's `<pixiContainer>`: removing it destroys what it holds. When React deletes a part of
 * the scene (a deleted block, a background, the whole world when the editor closes), it removes
 * only the topmost display object, and @pixi/react destroys that one alone (`destroy()` without
 * options): the texts inside a deleted block kept their share of a GPU texture and its graphics
 * their geometry until the editor closed. Here the children go too, graphics with their own
 * geometry; textures stay with their owners (`textures.ts` shares pictures by URL and destroys
 * them with their last user). Checked by `tests/unit/editor-scene-container.test.ts`; measured by
 * `npm run bench reopen` (docs/editor.md «Memory after long editing»).
 */
export class SceneContainer extends Container {
  override destroy(options?: DestroyOptions) {
    super.destroy(options ?? { children: true, context: true })
  }
}

/**
 * The world's drawables in the order they are drawn: each background's children (its picture and
 * grid, then its blocks), background after background.
 */
export function worldDrawables(world: Container): Container[] {
  return world.children.flatMap((background) => background.children)
}

/** `node` and every container above it are visible and renderable: a frame draws it. */
export function drawnInTree(node: Container): boolean {
  for (let n: Container | null = node; n; n = n.parent)
    if (!n.visible || !n.renderable) return false
  return true
}
