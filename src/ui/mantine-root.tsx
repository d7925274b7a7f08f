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
