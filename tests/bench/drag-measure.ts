import type { Page } from 'playwright-core'

/**
 * Frame rate of a page while the pointer drags from `from` in a slow circle for `durationMs`.
 * Frames are counted by requestAnimationFrame inside the page, so the figure includes whatever
 * the drag costs on the main thread and in the renderer. Playwright's mouse moves are real input
 * events (CDP Input.dispatchMouseEvent), handled like a user's.
 */
export async function measureDragFps(
  page: Page,
  from: { x: number; y: number },
  durationMs = 3000,
): Promise<number> {
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number; __counting: boolean }
    w.__frames = 0
    w.__counting = true
    const tick = () => {
      if (!w.__counting) return
      w.__frames += 1
      requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
  })
  await page.mouse.move(from.x, from.y)
  await page.mouse.down()
  const started = Date.now()
  let step = 0
  while (Date.now() - started < durationMs) {
    step += 1
    const angle = step / 15
    await page.mouse.move(from.x + Math.cos(angle) * 60 - 60, from.y + Math.sin(angle) * 40, {
      steps: 1,
    })
  }
  await page.mouse.up()
  const elapsed = Date.now() - started
  const frames = await page.evaluate(() => {
    const w = window as unknown as { __frames: number; __counting: boolean }
    w.__counting = false
    return w.__frames
  })
  return (frames * 1000) / elapsed
}

/** The Konva comparison scene: a 16:9 background and `count` blocks, one of them draggable. */
export async function openKonvaScene(
  page: Page,
  konvaScriptPath: string,
  count: number,
): Promise<{ x: number; y: number }> {
  await page.setContent(
    '<!doctype html><html><body style="margin:0"><div id="stage"></div></body></html>',
  )
  await page.addScriptTag({ path: konvaScriptPath })
  return page.evaluate((n) => {
    type K = {
      Stage: new (o: object) => { add(l: unknown): void }
      Layer: new () => { add(n: unknown): void; draw(): void }
      Group: new (o: object) => { add(n: unknown): void }
      Rect: new (o: object) => unknown
      Text: new (o: object) => unknown
    }
    const Konva = (window as unknown as { Konva: K }).Konva
    const width = window.innerWidth
    const height = Math.round((width * 9) / 16)
    const stage = new Konva.Stage({ container: 'stage', width, height })
    const layer = new Konva.Layer()
    stage.add(layer)
    layer.add(
      new Konva.Rect({
        x: 0,
        y: 0,
        width,
        height,
        fillLinearGradientStartPoint: { x: 0, y: 0 },
        fillLinearGradientEndPoint: { x: width, y: height },
        fillLinearGradientColorStops: [0, '#dbe4ff', 1, '#ffe3e3'],
      }),
    )
    let target = { x: 0, y: 0 }
    for (let i = 0; i < n; i += 1) {
      const w = 120
      const h = 44
      const x = 20 + ((i * 131) % (width - 160))
      const y = 20 + ((i * 67) % (height - 80))
      const group = new Konva.Group({ x, y, draggable: i === n - 1, rotation: (i % 7) - 3 })
      group.add(
        new Konva.Rect({
          width: w,
          height: h,
          fill: i % 3 === 0 ? '#228be6' : '#ffffff',
          stroke: '#1c7ed6',
          strokeWidth: 2,
          cornerRadius: 6,
        }),
      )
      group.add(
        new Konva.Text({
          text: `Блок ${i + 1}`,
          fontSize: 16,
          width: w,
          height: h,
          align: 'center',
          verticalAlign: 'middle',
          fill: '#212529',
        }),
      )
      layer.add(group)
      if (i === n - 1) target = { x: x + w / 2, y: y + h / 2 }
    }
    layer.draw()
    return target
  }, count)
}
