import { Group, Stack, Title } from '@mantine/core'
import { useDocumentTitle } from '@mantine/hooks'
import type { ReactNode } from 'react'

/** A page title with its actions (buttons) on the right; wraps under the title on narrow screens. */
export function PageHeader({
  title,
  actions,
  children,
}: {
  title: string
  actions?: ReactNode
  children?: ReactNode
}) {
  useDocumentTitle(title)
  return (
    <Stack gap={4}>
      <Group justify="space-between" align="center" gap="sm">
        <Title order={1} fz={{ base: 24, sm: 28 }}>
          {title}
        </Title>
        {actions ? <Group gap="sm">{actions}</Group> : null}
      </Group>
      {children}
    </Stack>
  )
}
