/**
 * Which parts of the scene stay live during a drag, resize or rotate (pure: no Pixi, unit-tested).
 *
 * While a gesture runs only the selection changes. Everything drawn before the first moving item
 * is frozen into one texture (`below`), everything drawn after the last moving item into another
 * (`above`), and only the run from the first to the last moving item is drawn each frame (`live`).
 * Static items between two moving ones stay live too, so the z-order is exactly the scene's.
 */
export interface GestureLayers<T> {
  below: T[]
  live: T[]
  above: T[]
}

/** Splits `drawables` (back to front) around the moving ones. Nothing moving: all of it is below. */
export function splitForGesture<T>(
  drawables: readonly T[],
  isMoving: (item: T) => boolean,
): GestureLayers<T> {
  const first = drawables.findIndex(isMoving)
  if (first < 0) return { below: [...drawables], live: [], above: [] }
  let last = drawables.length - 1
  while (!isMoving(drawables[last]!)) last -= 1
  return {
    below: drawables.slice(0, first),
    live: drawables.slice(first, last + 1),
    above: drawables.slice(last + 1),
  }
}
