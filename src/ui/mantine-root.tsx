// Mantine's CSS comes with Mantine, not in the first screen's (docs/performance.md). In the
// `mantine` cascade layer: loaded after src/ui/theme.css, it still never overrides the theme's
// variables or the hand-written styles, whatever the order the files arrive in.
import '@mantine/core/styles.layer.css'
import '@mantine/notifications/styles.layer.css'
import { useLingui } from '@lingui/react/macro'
import { MantineProvider, type CSSVariablesResolver } from '@mantine/core'
import { useMemo, type ReactNode } from 'react'
import { DIMMED_TEXT, localizedTheme } from './mantine-theme.ts'

const resolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': DIMMED_TEXT },
  dark: {},
})

/** Loaded lazily by MantineScope: the provider every Mantine component needs above it. */
export function MantineRoot({ children }: { children: ReactNode }) {
  const { t } = useLingui()
  const closeLabel = t`Закрыть`
  const theme = useMemo(() => localizedTheme(closeLabel), [closeLabel])
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={resolver}>
      {children}
    </MantineProvider>
  )
}
