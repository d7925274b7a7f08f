import { Trans } from '@lingui/react/macro'
import { Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core'
import { useDocumentTitle } from './use-document-title.ts'
import { IconHourglassEmpty } from '@tabler/icons-react'
import type { ReactNode } from 'react'

export interface PlaceholderPageProps {
  title: string
  /** Defaults to "the section is being prepared". */
  description?: ReactNode
}

/** A titled page for a section whose content is not there yet. */
export function PlaceholderPage({ title, description }: PlaceholderPageProps) {
  useDocumentTitle(title)
  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} fz={{ base: 24, sm: 28 }}>
        {title}
      </Title>
      <Paper withBorder radius="lg" p="xl">
        <Stack align="center" gap="sm" ta="center" py="lg">
          <ThemeIcon size={56} radius={28} variant="light" aria-hidden>
            <IconHourglassEmpty size={30} stroke={1.5} />
          </ThemeIcon>
          <Text fw={600}>
            <Trans>Раздел готовится</Trans>
          </Text>
          <Text c="dimmed" maw={420}>
            {description ?? <Trans>Скоро здесь появится содержимое раздела.</Trans>}
          </Text>
        </Stack>
      </Paper>
    </Stack>
  )
}
