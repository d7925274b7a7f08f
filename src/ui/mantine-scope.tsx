import { lazy, Suspense, type ReactNode } from 'react'

// Mantine is not part of the first load of /projects (docs/performance.md): screens and
// widgets that use it render inside a MantineScope, which loads the provider with its code.
const MantineRoot = lazy(() =>
  import('./mantine-root.tsx').then((m) => ({ default: m.MantineRoot })),
)

/**
 * An island of Mantine: its children render once Mantine's code has loaded (`fallback` until
 * then). Several scopes on one page are fine: each is a MantineProvider with the same theme.
 */
export function MantineScope({
  children,
  fallback = null,
}: {
  children: ReactNode
  fallback?: ReactNode
}) {
  return (
    <Suspense fallback={fallback}>
      <MantineRoot>{children}</MantineRoot>
    </Suspense>
  )
}
