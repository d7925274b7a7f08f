/**
 * Rendering on demand: a frame is drawn only after something in the scene changed, at most once
 * per animation frame. An idle editor draws nothing, so it costs no GPU time or battery (Pixi's own
 * ticker would redraw the whole scene 60 times a second). Pure: the frame clock is injected.
 */
export interface FrameClock {
  request(callback: () => void): number
  cancel(handle: number): void
}

/** The browser's animation frames (the drag layer asks for its frames the same way). */
export const browserClock: FrameClock = {
  request: (callback) => requestAnimationFrame(callback),
  cancel: (handle) => cancelAnimationFrame(handle),
}

export class RenderScheduler {
  /** Frames drawn so far (the benchmark reads how many an idle or busy editor draws). */
  frames = 0
  private pending: number | null = null
  private drawing = false

  constructor(
    private readonly render: () => void,
    private readonly clock: FrameClock = browserClock,
  ) {}

  /**
   * Something changed: draw it on the next animation frame (many changes, one frame). A change
   * reported while drawing is Pixi's own bookkeeping within the frame (it marks a render group
   * for rebuilding and rebuilds it in the same pass), so it asks for nothing more.
   */
  request = () => {
    if (this.pending !== null || this.drawing) return
    this.pending = this.clock.request(this.draw)
  }

  /** A frame is asked for and not drawn yet. */
  get waiting(): boolean {
    return this.pending !== null
  }

  /** Draws now if a frame is waiting (before reading pixels, for instance). */
  flush() {
    if (this.pending === null) return
    this.clock.cancel(this.pending)
    this.draw()
  }

  /** Stops: a waiting frame is dropped. */
  stop() {
    if (this.pending !== null) this.clock.cancel(this.pending)
    this.pending = null
  }

  private draw = () => {
    this.pending = null
    this.frames += 1
    this.drawing = true
    try {
      this.render()
    } finally {
      this.drawing = false
    }
  }
}
