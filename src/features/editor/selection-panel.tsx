import './editor-messages.ts'
import { Trans, useLingui } from '@lingui/react/macro'
import { Group, SimpleGrid, Stack, Text, Title } from '../../ui/layout.tsx'
import { Button, IconButton } from '../../ui/button.tsx'
import { Tooltip } from '../../ui/tooltip.ts'
import {
  IconCopy,
  IconLayoutAlignBottom,
  IconLayoutAlignCenter,
  IconLayoutAlignLeft,
  IconLayoutAlignMiddle,
  IconLayoutAlignRight,
  IconLayoutAlignTop,
  IconLayoutDistributeHorizontal,
  IconLayoutDistributeVertical,
  IconTrash,
} from '@tabler/icons-react'
import type { AlignMode } from '../../domain/geometry.ts'
import type { EditorStore } from './model/editor-store.ts'

/** Tools for several selected blocks (and align for one): align, distribute, duplicate, delete. */
export function AlignTools({ store, count }: { store: EditorStore; count: number }) {
  const { t } = useLingui()
  const aligns: { mode: AlignMode; label: string; icon: typeof IconLayoutAlignLeft }[] = [
    { mode: 'left', label: t`По левому краю`, icon: IconLayoutAlignLeft },
    { mode: 'hcenter', label: t`По центру по горизонтали`, icon: IconLayoutAlignCenter },
    { mode: 'right', label: t`По правому краю`, icon: IconLayoutAlignRight },
    { mode: 'top', label: t`По верхнему краю`, icon: IconLayoutAlignTop },
    { mode: 'vcenter', label: t`По центру по вертикали`, icon: IconLayoutAlignMiddle },
    { mode: 'bottom', label: t`По нижнему краю`, icon: IconLayoutAlignBottom },
  ]
  return (
    <Stack gap="xs">
      <Text size="xs" fw={700} tt="uppercase" c="dimmed">
        {count === 1 ? <Trans>Выровнять по фону</Trans> : <Trans>Выровнять</Trans>}
      </Text>
      <SimpleGrid cols={6} spacing={4}>
        {aligns.map(({ mode, label, icon: Icon }) => (
          <Tooltip key={mode} label={label}>
            <IconButton variant="default" aria-label={label} onClick={() => store.align(mode)}>
              <Icon size={20} />
            </IconButton>
          </Tooltip>
        ))}
      </SimpleGrid>
      {count >= 3 ? (
        <Group grow gap={4}>
          <Button
            variant="default"
            leftSection={<IconLayoutDistributeHorizontal size={18} />}
            onClick={() => store.distribute('h')}
          >
            <Trans>Распределить по ширине</Trans>
          </Button>
          <Button
            variant="default"
            leftSection={<IconLayoutDistributeVertical size={18} />}
            onClick={() => store.distribute('v')}
          >
            <Trans>По высоте</Trans>
          </Button>
        </Group>
      ) : null}
    </Stack>
  )
}

export function SelectionPanel({ store, count }: { store: EditorStore; count: number }) {
  const { t } = useLingui()
  return (
    <Stack gap="lg">
      <Title order={3} fz="lg">
        {t`Выбрано блоков: ${count}`}
      </Title>
      <AlignTools store={store} count={count} />
      <Group grow gap="xs">
        <Button
          variant="default"
          leftSection={<IconCopy size={18} />}
          onClick={() => store.duplicate()}
        >
          <Trans>Дублировать</Trans>
        </Button>
        <Button
          variant="light"
          color="red"
          leftSection={<IconTrash size={18} />}
          onClick={() => store.remove()}
        >
          <Trans>Удалить</Trans>
        </Button>
      </Group>
    </Stack>
  )
}
