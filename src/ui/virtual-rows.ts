import { useCallback, useLayoutEffect, useState, type FocusEvent } from 'react'

/**
 * Long lists draw only the rows in view (docs/performance.md «Long lists draw the rows in view»).
 * Rows have one pitch (height plus gap), so a row's place follows from its index and no row has to
 * be measured.
 */

/** Rows drawn beyond each edge of the view, so a quick scroll never shows a gap. */
export const OVERSCAN = 8

/** The rows to draw, from `start` up to (not including) `end`. */
export interface RowRange {
  start: number
  end: number
}

/**
 * The rows of a list of `count` rows, `pitch` px apart, that show in a view of `viewHeight` px
 * whose top is `top` px below the list's top (negative while the list starts below the view's
 * top), with `OVERSCAN` more each side.
 */
export function rowsInView(
  count: number,
  pitch: number,
  top: number,
  viewHeight: number,
): RowRange {
  if (!(pitch > 0) || count <= 0) return { start: 0, end: 0 }
  const first = Math.floor(top / pitch) - OVERSCAN
  const last = Math.ceil((top + Math.max(0, viewHeight)) / pitch) + OVERSCAN
  const end = Math.min(count, Math.max(0, last))
  return { start: Math.min(end, Math.max(0, first)), end }
}

/** A range no longer than the list (fewer rows than at the last scroll, before the effect runs). */
export function clampRange(range: RowRange, count: number): RowRange {
  return { start: Math.min(range.start, count), end: Math.min(range.end, count) }
}

/**
 * The indices of the rows to draw: those of `range`, and each of `kept` (a row that must stay in
 * the page wherever the list scrolls: the one holding the keyboard's focus, a row being dragged
 * by its handle, a row being edited) that lies outside it, in order. A row taken out of the page
 * would take the focus, a pointer's capture or a draft with it.
 */
export function drawnRows(range: RowRange, count: number, kept: readonly number[]): number[] {
  const rows: number[] = []
  for (let index = range.start; index < range.end; index += 1) rows.push(index)
  const outside = kept.filter(
    (index) => index >= 0 && index < count && (index < range.start || index >= range.end),
  )
  return [...new Set([...outside, ...rows])].sort((a, b) => a - b)
}

/**
 * The row that holds the keyboard's focus, by the value of its `attribute` (the row element's
 * `data-…` naming it), with the handlers to put on the list; null when the focus is outside.
 */
export function useFocusedRow(attribute: string): {
  focused: string | null
  onFocus: (e: FocusEvent<HTMLElement>) => void
  onBlur: (e: FocusEvent<HTMLElement>) => void
} {
  const [focused, setFocused] = useState<string | null>(null)
  const onFocus = useCallback(
    (e: FocusEvent<HTMLElement>) => {
      const row = e.target instanceof Element ? e.target.closest(`[${attribute}]`) : null
      setFocused(row?.getAttribute(attribute) ?? null)
    },
    [attribute],
  )
  const onBlur = useCallback((e: FocusEvent<HTMLElement>) => {
    // Within the list the next row's focus follows; out of it no row holds the focus.
    const next = e.relatedTarget
    if (!(next instanceof Node && e.currentTarget.contains(next))) setFocused(null)
  }, [])
  return { focused, onFocus, onBlur }
}

/**
 * A range of rows `measure` gives, measured again whenever `listen` calls back (it returns how to
 * stop listening) and when `deps` change: the same range is kept as is, so a scroll within the
 * same rows renders nothing.
 */
export function useFollowedRows(
  measure: () => RowRange,
  listen: (update: () => void) => () => void,
  deps: readonly unknown[],
): RowRange {
  const [shown, setShown] = useState(measure)
  useLayoutEffect(() => {
    const update = () =>
      setShown((previous) => {
        const next = measure()
        return next.start === previous.start && next.end === previous.end ? previous : next
      })
    update()
    return listen(update)
    // `measure` and `listen` read only what `deps` name.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps)
  return shown
}

/**
 * The rows in view of a list that scrolls inside `scroller` (the list at the top of its content),
 * followed as it scrolls and as its size changes (a panel shown again, the window resized). A
 * scroller not yet known, or of no size (a hidden panel), shows the first rows only.
 */
export function useScrolledRows(
  scroller: HTMLElement | null,
  count: number,
  pitch: number,
): RowRange {
  const shown = useFollowedRows(
    () => rowsInView(count, pitch, scroller?.scrollTop ?? 0, scroller?.clientHeight ?? 0),
    (update) => {
      if (!scroller) return () => undefined
      scroller.addEventListener('scroll', update, { passive: true })
      const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update)
      observer?.observe(scroller)
      return () => {
        scroller.removeEventListener('scroll', update)
        observer?.disconnect()
      }
    },
    [scroller, count, pitch],
  )
  // Fewer rows than at the last scroll: never past the end before the effect runs.
  return clampRange(shown, count)
}
