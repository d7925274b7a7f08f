import { Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core'
import { useDocumentTitle } from '@mantine/hooks'
import type { Icon } from '@tabler/icons-react'
import type { ReactNode } from 'react'

export interface StatusPageProps {
  icon: Icon
  color?: string
  /** A big code above the title ("404"). */
  code?: string
  title: string
  description: ReactNode
  /** Buttons or links under the text. */
  actions?: ReactNode
}

/** Card used by the error, maintenance, coming-soon and not-authorized pages. */
export function StatusPage({ icon: IconComponent, color = 'blue', ...props }: StatusPageProps) {
  useDocumentTitle(props.title)
  return (
    <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', sm: 'xl' }}>
      <Stack align="center" gap="md" ta="center">
        <ThemeIcon size={72} radius={36} variant="light" color={color} aria-hidden>
          <IconComponent size={38} stroke={1.5} />
        </ThemeIcon>
        {props.code ? (
          <Text fz={48} fw={800} lh={1} c={`${color}.6`} aria-hidden>
            {props.code}
          </Text>
        ) : null}
        <Title order={1} fz={{ base: 22, sm: 26 }}>
          {props.title}
        </Title>
        <Text c="dimmed" maw={380}>
          {props.description}
        </Text>
        {props.actions ? (
          <Group justify="center" mt="xs" gap="sm">
            {props.actions}
          </Group>
        ) : null}
      </Stack>
    </Paper>
  )
}
