import { Paper, Stack, Text, Title } from '@mantine/core'
import { useDocumentTitle } from './use-document-title.ts'
import type { ReactNode } from 'react'

/** The card of the sign-in, registration and password pages. */
export function AuthCard(props: {
  title: string
  subtitle?: ReactNode
  children: ReactNode
  footer?: ReactNode
}) {
  useDocumentTitle(props.title)
  return (
    <Paper withBorder shadow="md" radius="lg" p={{ base: 'lg', sm: 32 }}>
      <Stack gap={4} mb="lg">
        <Title order={1} fz={{ base: 24, sm: 26 }}>
          {props.title}
        </Title>
        {props.subtitle ? (
          <Text c="dimmed" size="sm">
            {props.subtitle}
          </Text>
        ) : null}
      </Stack>
      {props.children}
      {props.footer ? (
        <Text ta="center" size="sm" mt="lg" c="dimmed">
          {props.footer}
        </Text>
      ) : null}
    </Paper>
  )
}
