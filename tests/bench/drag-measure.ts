import type { Page } from 'playwright-core'

/** An expression the page evaluates to the number of frames its scene has drawn so far. */
export const PIXI_FRAMES_DRAWN =
  'Number(document.querySelector(\'[data-testid="editor-canvas"]\')?.dataset.frames ?? NaN)'

export interface DragRates {
  /** Frames the scene drew per second: what the user sees move. */
  drawn: number
  /** requestAnimationFrame callbacks per second: how free the main thread stayed. */
  animationFrames: number
}

/**
 * Frame rate of a page while the pointer drags from `from` in a slow circle for `durationMs`.
 * Two counts: animation frames (requestAnimationFrame inside the page, so whatever the drag
 * costs on the main thread and in the renderer shows) and frames the scene actually drew
 * (`framesDrawn`, evaluated in the page). A scene that draws only when something changed can
 * have idle animation frames between pointer moves; the drawn count is the honest figure, and
 * for a scene that draws every frame the two are the same. Playwright's mouse moves are real
 * input events (CDP Input.dispatchMouseEvent), handled like a user's.
 */
export async function measureDragFps(
  page: Page,
  from: { x: number; y: number },
  durationMs: number,
  framesDrawn: string,
  /** 'middle' pans the editor's view (anywhere on the canvas) instead of dragging a block. */
  button: 'left' | 'middle' = 'left',
): Promise<DragRates> {
  const drawnBefore = Number(await page.evaluate(framesDrawn))
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number; __counting: boolean; __run?: number }
    w.__frames = 0
    w.__counting = true
    // A loop left from an earlier measurement (its next frame not yet run) must not count too.
    const run = (w.__run = (w.__run ?? 0) + 1)
    const tick = () => {
      if (!w.__counting || w.__run !== run) return
      w.__frames += 1
      requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
  })
  await page.mouse.move(from.x, from.y)
  await page.mouse.down({ button })
  const started = Date.now()
  let step = 0
  while (Date.now() - started < durationMs) {
    step += 1
    const angle = step / 15
    await page.mouse.move(from.x + Math.cos(angle) * 60 - 60, from.y + Math.sin(angle) * 40, {
      steps: 1,
    })
  }
  const drawnAfter = Number(await page.evaluate(framesDrawn))
  const drawing = Date.now() - started
  // Back where it started, so the next drag from `from` grabs the same thing again.
  await page.mouse.move(from.x, from.y, { steps: 1 })
  await page.mouse.up({ button })
  const elapsed = Date.now() - started
  const frames = await page.evaluate(() => {
    const w = window as unknown as { __frames: number; __counting: boolean }
    w.__counting = false
    return w.__frames
  })
  const animationFrames = (frames * 1000) / elapsed
  // A scene that draws every animation frame (no count of its own) draws as often as they come.
  const drawn = Number.isFinite(drawnAfter - drawnBefore)
    ? ((drawnAfter - drawnBefore) * 1000) / drawing
    : animationFrames
  return { drawn, animationFrames }
}
