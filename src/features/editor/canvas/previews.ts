import type { Box } from '../../../domain/geometry.ts'
import type { GestureKind, InteractionHost, OverlayState } from './interaction-host.ts'
import { frameOf, worldBox } from './world-box.ts'

/**
 * What a drag, resize or rotate shows before it is committed: it moves, turns and stretches the
 * blocks' display objects directly and keeps their boxes for the overlay; the store hears of it
 * once, on release. Also tells the host when such a gesture starts and ends (the frozen scene of
 * docs/editor.md «Drawing»).
 */
export class Previews {
  overlay: OverlayState = { previews: new Map(), guides: [], marquee: null }
  /** A drag, resize or rotate has moved and told the host so (see `beginGesture`). */
  private live = false

  constructor(private host: InteractionHost) {}

  /** Whether a drag, resize or rotate is showing (a wheel turn then leaves the view alone). */
  get gestureLive(): boolean {
    return this.live
  }

  /** Once per gesture, on its first move (a tap on a handle changes nothing and costs nothing). */
  start(keys: readonly string[], kind: GestureKind) {
    if (this.live) return
    this.live = true
    this.host.beginGesture(keys, kind)
  }

  /** Shows `box` for `key` by moving, turning and stretching its display object. */
  show(key: string, box: Box) {
    const origin = worldBox(this.host, key)
    const container = this.host.containers.get(key)
    const frame = frameOf(this.host, key)
    if (!origin || !container || !frame) return
    container.position.set(box.cx - frame.left, box.cy - frame.top)
    container.rotation = (box.rotation * Math.PI) / 180
    container.scale.set(
      origin.width > 0 ? box.width / origin.width : 1,
      origin.height > 0 ? box.height / origin.height : 1,
    )
    this.overlay.previews.set(key, box)
  }

  draw() {
    this.host.drawOverlay(this.overlay)
  }

  /** Puts display objects back where the store has them (React then applies the committed state). */
  cancel() {
    if (this.live) {
      this.live = false
      this.host.endGesture()
    }
    for (const key of this.overlay.previews.keys()) {
      const origin = worldBox(this.host, key)
      const container = this.host.containers.get(key)
      const frame = frameOf(this.host, key)
      if (!origin || !container || !frame) continue
      container.position.set(origin.cx - frame.left, origin.cy - frame.top)
      container.rotation = (origin.rotation * Math.PI) / 180
      container.scale.set(1, 1)
    }
    this.overlay = { previews: new Map(), guides: [], marquee: null }
    this.host.drawOverlay(this.overlay)
  }
}
