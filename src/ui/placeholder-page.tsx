import { Trans } from '@lingui/react/macro'
import { FirstScreenMark } from './first-screen.tsx'
import { IconTile, Paper, Stack, Text } from './layout.tsx'
import { PageHeader } from './page-header.tsx'
import { IconHourglassEmpty } from '@tabler/icons-react'
import type { ReactNode } from 'react'

export interface PlaceholderPageProps {
  title: string
  /** Defaults to "the section is being prepared". */
  description?: ReactNode
}

/**
 * A titled page for a section whose content is not there yet. Drawn without Mantine (its routes are
 * `mantineFree`), it marks the first screen drawn itself.
 */
export function PlaceholderPage({ title, description }: PlaceholderPageProps) {
  return (
    <Stack gap="lg" maw={960}>
      <PageHeader title={title} />
      <Paper withBorder radius="lg" p="xl">
        <Stack align="center" gap="sm" ta="center" py="lg">
          <IconTile size={56} radius={28}>
            <IconHourglassEmpty size={30} stroke={1.5} />
          </IconTile>
          <Text fw={600}>
            <Trans>Раздел готовится</Trans>
          </Text>
          <Text c="dimmed" maw={420}>
            {description ?? <Trans>Скоро здесь появится содержимое раздела.</Trans>}
          </Text>
        </Stack>
      </Paper>
      <FirstScreenMark />
    </Stack>
  )
}
