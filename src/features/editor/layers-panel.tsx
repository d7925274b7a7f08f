import './editor-messages.ts'
import { Trans, useLingui } from '@lingui/react/macro'
import { ActionIcon, Box, Group, Stack, Text, UnstyledButton } from '@mantine/core'
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react'
import type { LocalBlock } from './editor-data.ts'
import { BlockIcon } from './block-icons.tsx'
import { useBlockTypeLabel } from './inspector/block-inspector.tsx'
import { sortedKeys, type EditorState, type EditorStore } from './model/editor-store.ts'

/** A short label for a block in lists: its name, or its text, or its type. */
export function useBlockTitle(): (block: LocalBlock) => string {
  const typeLabel = useBlockTypeLabel()
  return (block) => {
    const name = 'name' in block ? block.name.trim() : ''
    if (name) return name
    const text = 'text' in block ? block.text.trim() : ''
    if (text) return text.length > 28 ? `${text.slice(0, 28)}…` : text
    return typeLabel(block.type)
  }
}

/** The blocks of one background, front first; tap selects (Shift adds), arrows reorder. */
export function LayersPanel({
  store,
  state,
  bgId,
}: {
  store: EditorStore
  state: EditorState
  bgId: number | null
}) {
  const { t } = useLingui()
  const title = useBlockTitle()
  const keys = bgId === null ? [] : sortedKeys(state.blocks, bgId).reverse()
  return (
    <Stack gap={6} mih={0} flex={1}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed">
        <Trans>Слои</Trans>
      </Text>
      {keys.length === 0 ? (
        <Text size="sm" c="dimmed">
          <Trans>На этом фоне пока нет блоков.</Trans>
        </Text>
      ) : (
        <Box mih={0} style={{ overflowY: 'auto' }}>
          <Stack gap={2} role="list" aria-label={t`Слои`}>
            {keys.map((key, i) => {
              const block = state.blocks.get(key)!
              const selected = state.selection.includes(key)
              return (
                <Group
                  key={key}
                  role="listitem"
                  gap={4}
                  wrap="nowrap"
                  bg={selected ? 'var(--mantine-color-blue-light)' : undefined}
                  style={{ borderRadius: 'var(--mantine-radius-sm)' }}
                >
                  <UnstyledButton
                    flex={1}
                    miw={0}
                    px="xs"
                    mih={40}
                    aria-pressed={selected}
                    onClick={(e) => (e.shiftKey ? store.toggleSelect(key) : store.select([key]))}
                  >
                    <Group gap={8} wrap="nowrap">
                      <BlockIcon type={block.type} />
                      <Text size="sm" truncate="end">
                        {title(block)}
                      </Text>
                    </Group>
                  </UnstyledButton>
                  <ActionIcon
                    variant="subtle"
                    size="lg"
                    aria-label={t`Выше`}
                    disabled={i === 0}
                    onClick={() => store.bringForward([key])}
                  >
                    <IconArrowUp size={18} />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    size="lg"
                    aria-label={t`Ниже`}
                    disabled={i === keys.length - 1}
                    onClick={() => store.sendBackward([key])}
                  >
                    <IconArrowDown size={18} />
                  </ActionIcon>
                </Group>
              )
            })}
          </Stack>
        </Box>
      )}
    </Stack>
  )
}
