import { useEffect, useState, type ReactNode } from 'react'

/**
 * The first screen's signal (docs/performance.md): what the first screen does not need — the
 * header's Mantine widgets, the service worker's registration and precache, the storage check —
 * waits until it is drawn, so none of it shares the link with the first screen's code and data.
 * A list marks it once its rows are on screen, a page drawn with Mantine once Mantine has loaded; a
 * screen that marks nothing (the sign-in page, an empty list) counts as drawn `FALLBACK_MS` after
 * the page's `load`, once its data has stopped coming: while the sync fetches what the screen shows
 * (a cold start's mirror filling from the API, an empty list until its records arrive) it holds the
 * fallback (`holdFirstScreen`), and the fallback counts only after `QUIET_MS` with nothing held (the
 * time for a screen to start its next fetch: the workspaces arrive, then the list of the current
 * one is asked for). Held or not, the page counts as drawn `PATIENCE_MS` after `load`.
 */
const FALLBACK_MS = 3_000
const QUIET_MS = 500
const PATIENCE_MS = 15_000

let markDrawn: () => void = () => undefined
let isDrawn = false
const drawn = new Promise<void>(
  (resolve) =>
    (markDrawn = () => {
      isDrawn = true
      resolve()
    }),
)

/** Fetches of the first screen's data under way, and when the last one ended. */
let holds = 0
let lastRelease = Number.NEGATIVE_INFINITY
/** The fallback's time has come (`FALLBACK_MS` after `load`). */
let due = false
let quietTimer: ReturnType<typeof setTimeout> | undefined

function fallBack() {
  clearTimeout(quietTimer)
  if (isDrawn || !due || holds > 0) return
  const wait = lastRelease + QUIET_MS - Date.now()
  if (wait > 0) quietTimer = setTimeout(fallBack, wait)
  else markDrawn()
}

if (typeof window !== 'undefined') {
  const start = () => {
    setTimeout(() => {
      due = true
      fallBack()
    }, FALLBACK_MS)
    setTimeout(() => markDrawn(), PATIENCE_MS)
  }
  if (document.readyState === 'complete') start()
  else window.addEventListener('load', start, { once: true })
}

/**
 * Holds the fallback while the first screen's data is on its way; returns the release (later
 * calls do nothing). A screen that marks itself drawn is drawn whatever is held.
 */
export function holdFirstScreen(): () => void {
  if (isDrawn) return () => undefined
  holds += 1
  clearTimeout(quietTimer)
  let held = true
  return () => {
    if (!held) return
    held = false
    holds -= 1
    lastRelease = Date.now()
    fallBack()
  }
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
