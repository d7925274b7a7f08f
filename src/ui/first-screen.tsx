import { useEffect, useState, type ReactNode } from 'react'

/**
 * The first screen's signal (docs/performance.md): what the first screen does not need — the
 * header's Mantine widgets, the service worker's registration and precache, the storage check —
 * waits until it is drawn, so none of it shares the link with the first screen's code and data.
 * A list marks it once its rows are on screen, a page drawn with Mantine once Mantine has loaded; a
 * screen that marks nothing (the sign-in page, an empty list: a mirror still filling is empty too)
 * counts as drawn `FALLBACK_MS` after the page's `load`.
 */
const FALLBACK_MS = 3_000

let markDrawn: () => void = () => undefined
const drawn = new Promise<void>((resolve) => (markDrawn = resolve))

if (typeof window !== 'undefined') {
  const fallback = () => setTimeout(() => markDrawn(), FALLBACK_MS)
  if (document.readyState === 'complete') fallback()
  else window.addEventListener('load', fallback, { once: true })
}

/** Marks the first screen drawn (later calls do nothing). */
export function markFirstScreenDrawn(): void {
  markDrawn()
}

/** Resolves once the first screen is drawn. */
export function firstScreenDrawn(): Promise<void> {
  return drawn
}

/** Renders its children only once the first screen is drawn (nothing before). */
export function AfterFirstScreen({ children }: { children: ReactNode }) {
  const [ready, setReady] = useState(false)
  useEffect(() => {
    let live = true
    void drawn.then(() => live && setReady(true))
    return () => {
      live = false
    }
  }, [])
  return ready ? children : null
}

/** Rendered where a screen is drawn: marks the first screen drawn when it mounts. */
export function FirstScreenMark() {
  useEffect(() => markDrawn(), [])
  return null
}
