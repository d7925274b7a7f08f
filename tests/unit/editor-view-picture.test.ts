import { describe, expect, it } from 'vitest'
import { worldToScreen, zoomAt, type Viewport } from '../../src/domain/geometry.ts'
import {
  REPICTURE,
  pictureTransform,
  pictureMargin,
  shouldRepicture,
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
