import { Paper, Stack, Text, ThemeIcon } from '@mantine/core'
import { IconInbox, type Icon } from '@tabler/icons-react'
import type { ReactNode } from 'react'

export interface EmptyStateProps {
  title: ReactNode
  /** What to do next. */
  description: ReactNode
  action?: ReactNode
  icon?: Icon
}

export function EmptyState({
  title,
  description,
  action,
  icon: IconComponent = IconInbox,
}: EmptyStateProps) {
  return (
    <Paper withBorder radius="lg" p="xl" data-testid="empty-state">
      <Stack align="center" gap="sm" ta="center" py="lg">
        <ThemeIcon size={56} radius={28} variant="light" aria-hidden>
          <IconComponent size={30} stroke={1.5} />
        </ThemeIcon>
        <Text fw={600}>{title}</Text>
        <Text c="dimmed" maw={440}>
          {description}
        </Text>
        {action}
      </Stack>
    </Paper>
  )
}
