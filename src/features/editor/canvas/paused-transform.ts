/**
 * An element moved and sized by the compositor alone (docs/editor.md «Drawing»).
 *
 * A change of an element's style `transform` makes Chromium layerize the whole page again
 * (`PaintArtifactCompositor::Update`), even when the element is composited: about a millisecond a
 * pointer move on the editor's page, growing with everything else the page shows. A paused
 * animation of the transform whose current time is set instead is updated on the compositor's
 * own property trees, without layerizing anything. So each transform function here is a paused,
 * linear animation of one wrapper element over a range of values, and a value is set by seeking it
 * (`value + range` ms into an animation of `2 × range` ms from `-range` to `range`). Where the
 * engine has no Web Animations, the wrapper's style transform is set instead.
 */

/** The transform functions a wrapper animates, each of one number. */
export type TransformFunction = 'translateX' | 'translateY' | 'scaleX' | 'scaleY'

/** Values a function may take: ±this (px for translations, times for scales). */
export const TRANSFORM_RANGE = 100_000

/** What a wrapper's function is at `value` (the fallback's style, and the unit tests' reading). */
export function transformOf(fn: TransformFunction, value: number): string {
  const unit = fn.startsWith('translate') ? 'px' : ''
  // `+ 0` turns a -0 into 0.
  return `${fn}(${value + 0}${unit})`
}

/** The current time (ms) at which a paused animation from -range to range shows `value`. */
export function seekTime(value: number, range = TRANSFORM_RANGE): number {
  return Math.min(2 * range, Math.max(0, value + range))
}

/** Sets one transform function of one element. */
export type Setter = (value: number) => void

/** Animates `fn` of `element`, starting at `initial`; the setter seeks it to a value. */
export function pausedTransform(
  element: HTMLElement,
  fn: TransformFunction,
  initial: number,
): Setter {
  element.style.willChange = 'transform'
  if (typeof element.animate !== 'function') {
    const set: Setter = (value) => {
      element.style.transform = transformOf(fn, value)
    }
    set(initial)
    return set
  }
  const animation = element.animate(
    [
      { transform: transformOf(fn, -TRANSFORM_RANGE) },
      { transform: transformOf(fn, TRANSFORM_RANGE) },
    ],
    { duration: 2 * TRANSFORM_RANGE, easing: 'linear', fill: 'both' },
  )
  animation.pause()
  const set: Setter = (value) => {
    animation.currentTime = seekTime(value)
  }
  set(initial)
  return set
}

/**
 * A chain of wrappers (made in `doc`), outermost first, each with one function of `fns`, the
 * innermost holding the content; returns the outermost (to place in the page), the innermost (to
 * put content in) and a setter per function. Each wrapper is an absolutely placed box of no size
 * at the origin of the one around it, so content placed in the innermost by `left` and `top`
 * lands as if in the outermost's parent, then moved and sized by the functions in order.
 */
export function pausedChain(
  fns: readonly TransformFunction[],
  initial: readonly number[],
  doc: Document = document,
): { outer: HTMLDivElement; inner: HTMLDivElement; set: Setter[] } {
  const wrappers = fns.map(() => {
    const div = doc.createElement('div')
    Object.assign(div.style, {
      position: 'absolute',
      left: '0',
      top: '0',
      width: '0',
      height: '0',
      transformOrigin: '0 0',
    })
    return div
  })
  for (let i = 1; i < wrappers.length; i += 1) wrappers[i - 1]!.append(wrappers[i]!)
  // Animations start once their element is in a document; they are made here and seek as soon
  // as the chain is placed (a paused animation keeps its time either way).
  const set = wrappers.map((w, i) => pausedTransform(w, fns[i]!, initial[i] ?? 0))
  return { outer: wrappers[0]!, inner: wrappers[wrappers.length - 1]!, set }
}
