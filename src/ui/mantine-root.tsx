import { MantineProvider } from '@mantine/core'
import type { ReactNode } from 'react'
import { theme } from './mantine-theme.ts'

/** Loaded lazily by MantineScope: the provider every Mantine component needs above it. */
export function MantineRoot({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      {children}
    </MantineProvider>
  )
}
