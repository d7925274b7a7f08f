import { Box, Center } from '@mantine/core'
import type { ReactNode } from 'react'
import { Logo } from './logo.tsx'

/** Centered layout of the sign-in and status pages. */
export function PlainLayout({ children }: { children: ReactNode }) {
  return (
    <Box
      mih="100dvh"
      style={{
        background:
          'radial-gradient(1200px 600px at 10% -10%, var(--mantine-color-blue-1), transparent 60%), radial-gradient(900px 500px at 110% 110%, var(--mantine-color-cyan-1), transparent 60%), var(--mantine-color-gray-0)',
      }}
    >
      <Center mih="100dvh" p={{ base: 'md', sm: 'xl' }} style={{ flexDirection: 'column' }}>
        <Box mb="xl">
          <Logo size="lg" />
        </Box>
        <Box w="100%" maw={460}>
          {children}
        </Box>
      </Center>
    </Box>
  )
}
