import { Trans } from '@lingui/react/macro'
import { Group, Text, ThemeIcon } from '@mantine/core'
import { IconLayoutBoardSplit } from '@tabler/icons-react'

export function Logo({ size = 'md' }: { size?: 'md' | 'lg' }) {
  const large = size === 'lg'
  return (
    <Group gap={10} wrap="nowrap">
      <ThemeIcon
        size={large ? 44 : 34}
        radius="md"
        variant="gradient"
        gradient={{ from: 'blue.6', to: 'cyan.5', deg: 135 }}
        aria-hidden
      >
        <IconLayoutBoardSplit size={large ? 26 : 20} stroke={1.8} />
      </ThemeIcon>
      <Text fw={700} fz={large ? 22 : 17} lh={1.1} style={{ whiteSpace: 'nowrap' }}>
        <Trans>Промо-конструктор</Trans>
      </Text>
    </Group>
  )
}
