import type { Application } from 'pixi.js'

/**
 * When the editor closes, @pixi/react destroys its stage with `app.destroy()`, and Pixi keeps its
 * global pools for a next renderer: every text's texture goes back to the texture pool and its
 * canvas, with its pixels, to the canvas pool. After a 100-block landing that was about a hundred
 * textures and their canvases kept for as long as the page lived. The editor is the page's only
 * Pixi user, so its stage's destroy also releases them (Pixi's own `releaseGlobalResources`); the
 * next editor fills them again. Measured by `npm run bench reopen` (docs/editor.md
 * «Memory after long editing»).
 */
export function releasePoolsOnDestroy(app: Application) {
  const destroy = app.destroy.bind(app)
  app.destroy = (rendererOptions = false, options = false) =>
    destroy(
      typeof rendererOptions === 'object'
        ? { ...rendererOptions, releaseGlobalResources: true }
        : { removeView: rendererOptions, releaseGlobalResources: true },
      options,
    )
}
