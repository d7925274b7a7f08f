import { describe, expect, it } from 'vitest'
import { worldToScreen, zoomAt, type Viewport } from '../../src/domain/geometry.ts'
import {
  REPICTURE,
  growFilled,
  reachesInto,
  picturePixels,
  shownPixels,
  pictureTransform,
  pictureMargin,
  shouldRepicture,
  showsAsLive,
  uncoveredShare,
} from '../../src/features/editor/canvas/view-picture.ts'

const SCREEN = { width: 1000, height: 600 }

/** Where a pixel of the picture (screen px at the time it was taken) is drawn now. */
function placed(pictured: Viewport, current: Viewport, pixel: { x: number; y: number }) {
  const t = pictureTransform(pictured, current)
  return { x: t.x + pixel.x * t.scale, y: t.y + pixel.y * t.scale }
}

describe('the picture of the world follows the view', () => {
  const pictured: Viewport = { zoom: 0.8, panX: 40, panY: -120 }

  it('is drawn where it was taken while the view has not moved', () => {
    expect(pictureTransform(pictured, pictured)).toEqual({ x: 0, y: 0, scale: 1 })
  })

  it('moves by the pan', () => {
    const t = pictureTransform(pictured, { ...pictured, panX: 65, panY: -150 })
    expect(t.scale).toBe(1)
    expect(t.x).toBeCloseTo(25)
    expect(t.y).toBeCloseTo(-30)
  })

  it('puts every world point where the live scene draws it, after a pinch and a pan', () => {
    const zoomed = zoomAt(pictured, 1.7, { x: 300, y: 200 })
    const current = { ...zoomed, panX: zoomed.panX - 90, panY: zoomed.panY + 35 }
    for (const world of [
      { x: 0, y: 0 },
      { x: 1200, y: 675 },
      { x: -50, y: 400 },
    ]) {
      const inPicture = worldToScreen(world, pictured)
      const now = placed(pictured, current, inPicture)
      const live = worldToScreen(world, current)
      expect(now.x).toBeCloseTo(live.x, 6)
      expect(now.y).toBeCloseTo(live.y, 6)
    }
    expect(pictureTransform(pictured, current).scale).toBeCloseTo(1.7 / 0.8)
  })
})

describe('how much of the screen the moved picture leaves blank', () => {
  it('leaves nothing blank in place or zoomed in about the screen', () => {
    expect(uncoveredShare({ x: 0, y: 0, scale: 1 }, SCREEN)).toBe(0)
    expect(uncoveredShare({ x: -200, y: -100, scale: 1.5 }, SCREEN)).toBe(0)
  })

  it('leaves the revealed strips blank after a pan', () => {
    // 100 px of 1000 across, 60 of 600 down: 1 - 0.9 × 0.9.
    expect(uncoveredShare({ x: 100, y: -60, scale: 1 }, SCREEN)).toBeCloseTo(0.19)
  })

  it('leaves the ring around a picture shrunk by a pinch blank', () => {
    expect(uncoveredShare({ x: 250, y: 150, scale: 0.5 }, SCREEN)).toBeCloseTo(0.75)
  })

  it('is all blank when the picture has left the screen', () => {
    expect(uncoveredShare({ x: 1200, y: 0, scale: 1 }, SCREEN)).toBe(1)
  })

  it('leaves nothing blank while a pan stays within the margin pictured around the screen', () => {
    expect(uncoveredShare({ x: 100, y: -60, scale: 1 }, SCREEN, 100)).toBe(0)
    expect(uncoveredShare({ x: -100, y: 100, scale: 1 }, SCREEN, 100)).toBe(0)
  })

  it('leaves blank only what lies past the margin', () => {
    // 150 px across with a 100 px margin: 50 of 1000 blank.
    expect(uncoveredShare({ x: 150, y: 0, scale: 1 }, SCREEN, 100)).toBeCloseTo(0.05)
    // Shrunk by a pinch, the margin shrinks with the picture: 1200 × 800 px shown as 600 × 400.
    expect(uncoveredShare({ x: 250, y: 150, scale: 0.5 }, SCREEN, 100)).toBeCloseTo(
      1 - (600 / 1000) * (400 / 600),
    )
  })
})

describe('the margin pictured around the screen', () => {
  it('is a fifth of the longer side', () => {
    expect(pictureMargin({ width: 1000, height: 600 }, 1, 4096)).toBe(200)
    expect(pictureMargin({ width: 800, height: 1280 }, 2, 8192)).toBe(256)
  })

  it('keeps the picture within the largest texture, and is none when the screen fills it', () => {
    // 2 × (1800 + 2m) ≤ 4096: m ≤ 124.
    expect(pictureMargin({ width: 1800, height: 1000 }, 2, 4096)).toBe(124)
    expect(pictureMargin({ width: 2048, height: 1000 }, 2, 4096)).toBe(0)
    expect(pictureMargin({ width: 4000, height: 1000 }, 2, 4096)).toBe(0)
  })
})

describe('when the picture is taken again', () => {
  const still = { x: 0, y: 0, scale: 1 }
  const strip = { x: 30, y: 0, scale: 1 }

  it('never while it still covers the screen at its own size', () => {
    expect(shouldRepicture(still, SCREEN, 10_000)).toBe(false)
    expect(shouldRepicture({ x: -100, y: -50, scale: 1.3 }, SCREEN, 10_000)).toBe(false)
  })

  it('fills a thin revealed strip only once the interval has passed', () => {
    expect(shouldRepicture(strip, SCREEN, REPICTURE.intervalMs - 1)).toBe(false)
    expect(shouldRepicture(strip, SCREEN, REPICTURE.intervalMs)).toBe(true)
  })

  it('fills a large blank area at once', () => {
    expect(shouldRepicture({ x: 400, y: 0, scale: 1 }, SCREEN, 0)).toBe(true)
  })

  it('takes a picture zoomed in far again, throttled', () => {
    const far = { x: -1000, y: -600, scale: 3 }
    expect(shouldRepicture(far, SCREEN, 0)).toBe(false)
    expect(shouldRepicture(far, SCREEN, REPICTURE.intervalMs)).toBe(true)
  })

  it('waits longer where taking a picture is slow, but not for a large blank area', () => {
    expect(shouldRepicture(strip, SCREEN, 1000, 400)).toBe(false)
    expect(shouldRepicture(strip, SCREEN, 3 * 400, 400)).toBe(true)
    expect(shouldRepicture({ x: 400, y: 0, scale: 1 }, SCREEN, 0, 400)).toBe(true)
  })

  it('never while a pan stays within the margin', () => {
    expect(shouldRepicture(strip, SCREEN, 10_000, 0, REPICTURE, 100)).toBe(false)
    expect(shouldRepicture({ x: 130, y: 0, scale: 1 }, SCREEN, 10_000, 0, REPICTURE, 100)).toBe(
      true,
    )
  })

  it('follows the policy it is given', () => {
    const eager = { maxBlankShare: 0.01, intervalMs: 1000, costFactor: 1, maxScale: 2 }
    expect(shouldRepicture(strip, SCREEN, 0, 0, eager)).toBe(true)
  })
})

describe('a picture begun from the canvas is drawn as the view reaches it (docs/editor.md «A picture begun from the canvas»)', () => {
  const MARGIN = 200
  const size = { width: SCREEN.width + 2 * MARGIN, height: SCREEN.height + 2 * MARGIN }
  const still = { x: 0, y: 0, scale: 1 }

  it('maps a rectangle to whole pixels, widened and clipped to the picture', () => {
    expect(picturePixels({ x: 10.5, y: 20, width: 5, height: 4.2 }, 1, size)).toEqual({
      x: 9,
      y: 19,
      width: 8,
      height: 7,
    })
    expect(picturePixels({ x: 10, y: 20, width: 5, height: 5 }, 2, size, 2)).toEqual({
      x: 18,
      y: 38,
      width: 14,
      height: 14,
    })
    expect(picturePixels({ x: -30, y: -30, width: 40, height: 40 }, 1, size)).toEqual({
      x: 0,
      y: 0,
      width: 11,
      height: 11,
    })
    expect(picturePixels({ x: -30, y: 0, width: 10, height: 10 }, 1, size)).toBeNull()
  })

  it('shows the screen in the middle of the picture while the view has not moved', () => {
    expect(shownPixels(still, SCREEN, MARGIN, 1, size)).toEqual({
      x: MARGIN,
      y: MARGIN,
      width: SCREEN.width,
      height: SCREEN.height,
    })
    // Placed between pixels, it samples their neighbours too.
    expect(shownPixels({ x: 0.5, y: 0, scale: 1 }, SCREEN, MARGIN, 1, size)).toEqual({
      x: MARGIN - 2,
      y: MARGIN - 1,
      width: SCREEN.width + 3,
      height: SCREEN.height + 2,
    })
  })

  it('shows what lay right of the screen after a pan to the left, and less of it zoomed in', () => {
    const pannedLeft = shownPixels({ x: -50, y: 0, scale: 1 }, SCREEN, MARGIN, 2, {
      width: size.width * 2,
      height: size.height * 2,
    })!
    expect(pannedLeft.x).toBe((MARGIN + 50) * 2)
    expect(pannedLeft.width).toBe(SCREEN.width * 2)
    // Drawn twice as large about the screen's corner: half the screen's worth of picture shows.
    const zoomed = shownPixels({ x: 0, y: 0, scale: 2 }, SCREEN, MARGIN, 1, size)!
    expect(zoomed).toEqual({
      x: MARGIN - 1,
      y: MARGIN - 1,
      width: SCREEN.width / 2 + 2,
      height: SCREEN.height / 2 + 2,
    })
  })

  it('draws nothing while the screen stays inside what is drawn', () => {
    const filled = { x: MARGIN, y: MARGIN, width: SCREEN.width, height: SCREEN.height }
    const inside = { x: MARGIN + 10, y: MARGIN + 10, width: 100, height: 100 }
    expect(growFilled(filled, inside, size, 50)).toEqual({ filled, strips: [] })
  })

  it('grows by a strip past what the screen needs on the side it reached, within the picture', () => {
    const filled = { x: MARGIN, y: MARGIN, width: SCREEN.width, height: SCREEN.height }
    const needed = { ...filled, x: MARGIN + 30 }
    const grown = growFilled(filled, needed, size, 50)
    expect(grown.strips).toEqual([
      { x: MARGIN + SCREEN.width, y: MARGIN, width: 80, height: SCREEN.height },
    ])
    expect(grown.filled).toEqual({ ...filled, width: SCREEN.width + 80 })
    // Near the picture's edge the strip stops there.
    const far = growFilled(filled, { ...filled, x: MARGIN + 190 }, size, 50)
    expect(far.strips[0]!.width).toBe(MARGIN)
  })

  it('covers every pixel of the grown rectangle once: no strip overlaps another or what was drawn', () => {
    const picture = { width: 120, height: 90 }
    const filled = { x: 40, y: 30, width: 40, height: 30 }
    // A pinch out: the screen reaches past every side.
    const needed = { x: 20, y: 15, width: 90, height: 60 }
    const { filled: grown, strips } = growFilled(filled, needed, picture, 5)
    expect(grown).toEqual({ x: 15, y: 10, width: 100, height: 70 })
    expect(strips).toHaveLength(4)
    const cover = new Uint8Array(picture.width * picture.height)
    for (const r of [filled, ...strips])
      for (let y = r.y; y < r.y + r.height; y += 1)
        for (let x = r.x; x < r.x + r.width; x += 1) cover[y * picture.width + x]! += 1
    let once = 0
    let wrong = 0
    for (let y = 0; y < picture.height; y += 1)
      for (let x = 0; x < picture.width; x += 1) {
        const n = cover[y * picture.width + x]!
        const inside =
          x >= grown.x && x < grown.x + grown.width && y >= grown.y && y < grown.y + grown.height
        if (inside && n === 1) once += 1
        else if (n !== 0 || inside) wrong += 1
      }
    expect(wrong).toBe(0)
    expect(once).toBe(grown.width * grown.height)
  })

  it('draws into a strip only what reaches into it, placed as the picture was taken', () => {
    // Taken at zoom 2 with the world moved 100 px left, 200 px of margin, at resolution 1.5.
    const view = { zoom: 2, panX: -100, panY: 0 }
    // The world's x 50 is the picture's ((50 · 2 − 100) + 200) · 1.5 = 300.
    const strip = { x: 300, y: 0, width: 30, height: 2000 }
    const box = (x0: number, x1: number) => ({ x0, y0: 10, x1, y1: 20 })
    expect(reachesInto(box(40, 50), strip, view, 200, 1.5)).toBe(true)
    expect(reachesInto(box(40, 49), strip, view, 200, 1.5)).toBe(false)
    expect(reachesInto(box(60, 70), strip, view, 200, 1.5)).toBe(true)
    // 300 + 30 device px is the world's x 60: a box starting past it stays out.
    expect(reachesInto(box(61, 70), strip, view, 200, 1.5)).toBe(false)
    expect(reachesInto({ x0: 40, y0: 2000, x1: 70, y1: 2100 }, strip, view, 200, 1.5)).toBe(false)
  })
})

describe('a picture that shows the scene as a live frame would (docs/editor.md «The end of a pan»)', () => {
  const margin = 200
  const resolution = 2
  const size = { width: (SCREEN.width + 2 * margin) * 2, height: (SCREEN.height + 2 * margin) * 2 }
  const all = { x: 0, y: 0, ...size }
  const at = (x: number, y: number, scale = 1) => ({ x, y, scale })

  it('placed within its margin on whole device pixels, at its own zoom, drawn where it shows', () => {
    expect(showsAsLive(at(-30, 45), SCREEN, margin, resolution, size, all)).toBe(true)
    // Half a CSS px is a whole device px at a resolution of 2; a rounding error of the pan's sums
    // is no move at all.
    expect(showsAsLive(at(-30.5, 45), SCREEN, margin, resolution, size, all)).toBe(true)
    expect(showsAsLive(at(-30 + 1e-9, 45), SCREEN, margin, resolution, size, all)).toBe(true)
  })

  it('not between pixels, scaled, past its margin, or where it is not drawn yet', () => {
    expect(showsAsLive(at(-30.25, 45), SCREEN, margin, resolution, size, all)).toBe(false)
    expect(showsAsLive(at(-30, 45, 1.001), SCREEN, margin, resolution, size, all)).toBe(false)
    expect(showsAsLive(at(-201, 0), SCREEN, margin, resolution, size, all)).toBe(false)
    // Only the middle (the screen when the pan began) is drawn: a pan 30 px left shows more.
    const middle = { x: 400, y: 400, width: SCREEN.width * 2, height: SCREEN.height * 2 }
    expect(showsAsLive(at(0, 0), SCREEN, margin, resolution, size, middle)).toBe(true)
    expect(showsAsLive(at(-30, 0), SCREEN, margin, resolution, size, middle)).toBe(false)
  })
})
