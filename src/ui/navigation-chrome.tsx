import { useRouterState } from '@tanstack/react-router'
import { useEffect, useState, type ReactNode } from 'react'
import { ChunkErrorScreen } from './error-screens.tsx'
import { RouteLoadingOverlay } from './route-loading-overlay.tsx'

/**
 * A route chunk that has not loaded after 120 s is reported as failed
 * (docs/app-shell.md "Routes (src/routes)").
 */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000

/**
 * Root wrapper: the global loading overlay, and the chunk-failure screen (with «Повторить») when
 * a navigation stays pending longer than CHUNK_LOAD_TIMEOUT_MS.
 */
export function NavigationChrome({
  children,
  timeoutMs = CHUNK_LOAD_TIMEOUT_MS,
}: {
  children: ReactNode
  timeoutMs?: number
}) {
  const pendingHref = useRouterState({
    select: (state) => (state.status === 'pending' ? state.location.href : null),
  })
  const [timedOutHref, setTimedOutHref] = useState<string | null>(null)

  useEffect(() => {
    if (pendingHref === null) return
    const timer = window.setTimeout(() => setTimedOutHref(pendingHref), timeoutMs)
    return () => window.clearTimeout(timer)
  }, [pendingHref, timeoutMs])

  if (pendingHref !== null && timedOutHref === pendingHref) return <ChunkErrorScreen fullPage />
  return (
    <>
      {children}
      <RouteLoadingOverlay />
    </>
  )
}
