import './editor-messages.ts'
import { Trans, useLingui } from '@lingui/react/macro'
import { Box, Group, Stack, Text } from '../../ui/layout.tsx'
import { IconButton, PlainButton } from '../../ui/button.tsx'
import { IconArrowDown, IconArrowUp, IconGripVertical } from '@tabler/icons-react'
import { memo, useCallback, useEffect, useMemo, useState, type PointerEvent } from 'react'
import { Badge } from '../../ui/badge.tsx'
import { drawnRows, useFocusedRow, useScrolledRows } from '../../ui/virtual-rows.ts'
import type { LocalBlock } from './editor-data.ts'
import { BlockIcon } from './block-icons.tsx'
import { LAYER_ROW_HEIGHT, LAYER_ROW_PITCH, LayerDrag, type DropTarget } from './layer-drag.ts'
import { useBlockTypeLabel } from './inspector/block-inspector.tsx'
import { sortedKeys, type EditorState, type EditorStore } from './model/editor-store.ts'
import { useParkedEntries } from './use-editor-data.ts'

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

/** Ids of blocks with a conflict waiting for the person's choice (docs/SYNC.md, "Conflicts"). */
function useConflictedBlocks(): ReadonlySet<number> {
  const parked = useParkedEntries()
  const ids = parked
    .filter((entry) => entry.table === 'blocks' && entry.conflict)
    .map((entry) => entry.recordId)
  const key = ids.join(',')
  // One set per distinct list: the memoised rows re-render only when it changes.
  return useMemo(() => new Set(key ? key.split(',').map(Number) : []), [key])
}

/**
 * The blocks of one background, front first; tap selects (Shift adds), the arrows of a selected row
 * reorder it by one, and a row dragged by its handle lands where the line shows (one
 * undo step).
 */
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
  const conflicted = useConflictedBlocks()
  const keys = bgId === null ? [] : sortedKeys(state.blocks, bgId).reverse()
  const [target, setTarget] = useState<DropTarget | null>(null)
  const [drag] = useState(() => new LayerDrag(setTarget))
  const order = keys.join('\n')
  useEffect(() => {
    drag.update(order ? order.split('\n') : [], (next) => {
      if (bgId !== null) store.setOrder(bgId, [...next].reverse())
    })
  }, [drag, order, store, bgId])
  const listRef = useCallback((el: HTMLElement | null) => drag.setList(el), [drag])
  const [scroller, setScroller] = useState<HTMLElement | null>(null)
  const scrollerRef = useCallback(
    (el: HTMLElement | null) => {
      drag.setScroller(el)
      setScroller(el)
    },
    [drag],
  )
  // Only the rows in view are drawn: a background of thousands of blocks would otherwise keep
  // tens of thousands of elements in the page, which made every frame of a canvas drag slower.
  const range = useScrolledRows(scroller, keys.length, LAYER_ROW_PITCH)
  // The row with the keyboard's focus and the row dragged by its handle stay drawn wherever the
  // list scrolls: taken out, the first would lose the focus, the second its pointer (the drag
  // would never end).
  const focus = useFocusedRow('data-layer-key')
  const rows = drawnRows(range, keys.length, [
    target ? keys.indexOf(target.key) : -1,
    focus.focused === null ? -1 : keys.indexOf(focus.focused),
  ])
  // A block selected elsewhere (on the canvas) shows its row: in a long list it may lie far out
  // of view, and out of view it is not drawn at all.
  const only = state.selection.length === 1 ? state.selection[0]! : null
  const onlyIndex = only === null ? -1 : keys.indexOf(only)
  useEffect(() => {
    if (scroller && onlyIndex >= 0) revealRow(scroller, onlyIndex)
    // Only when the selection changes, not when the rows are reordered under it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [only, scroller])
  // A drag does not outlive the panel or its background.
  useEffect(() => drag.stop, [drag, bgId])
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
        <Box ref={scrollerRef} mih={0} style={{ overflowY: 'auto' }}>
          <Box
            ref={listRef}
            role="list"
            aria-label={t`Слои`}
            pos="relative"
            style={{ height: keys.length * LAYER_ROW_PITCH - (LAYER_ROW_PITCH - LAYER_ROW_HEIGHT) }}
            onFocus={focus.onFocus}
            onBlur={focus.onBlur}
          >
            {rows.map((index) => {
              const key = keys[index]!
              return (
                <LayerRow
                  key={key}
                  index={index}
                  count={keys.length}
                  store={store}
                  blockKey={key}
                  block={state.blocks.get(key)!}
                  selected={state.selection.includes(key)}
                  conflict={conflicted.has(state.blocks.get(key)!.id ?? 0)}
                  first={index === 0}
                  last={index === keys.length - 1}
                  dragging={target?.key === key}
                  onDragStart={drag.onPointerDown}
                  onDragMove={drag.onPointerMove}
                  onDragEnd={drag.onPointerUp}
                  onDragCancel={drag.onPointerCancel}
                />
              )
            })}
            {target ? (
              <Box
                data-testid="layer-drop-line"
                aria-hidden
                style={{
                  position: 'absolute',
                  left: 0,
                  right: 0,
                  height: 3,
                  top: target.y - 1.5,
                  background: 'var(--mantine-color-blue-filled)',
                  borderRadius: 2,
                  pointerEvents: 'none',
                }}
              />
            ) : null}
          </Box>
        </Box>
      )}
    </Stack>
  )
}

/** Scrolls `scroller` the least that shows the row at `index` whole. */
function revealRow(scroller: HTMLElement, index: number) {
  // A panel of no size (hidden) shows nothing to scroll to.
  if (scroller.clientHeight <= 0) return
  const top = index * LAYER_ROW_PITCH
  const bottom = top + LAYER_ROW_HEIGHT
  if (top < scroller.scrollTop) scroller.scrollTop = top
  else if (bottom > scroller.scrollTop + scroller.clientHeight)
    scroller.scrollTop = bottom - scroller.clientHeight
}

/**
 * One row of the layers list. Memoised: a selection change re-renders only the rows whose
 * selection changed, not every row of a background with hundreds of blocks.
 */
const LayerRow = memo(function LayerRow(props: {
  store: EditorStore
  blockKey: string
  block: LocalBlock
  /** Its place in the list, front first, and the list's length. */
  index: number
  count: number
  selected: boolean
  /** Changed here and, differently, by someone else: the sync panel asks which to keep. */
  conflict: boolean
  first: boolean
  last: boolean
  /** Being dragged by its handle: shown faded while the line shows where it lands. */
  dragging: boolean
  onDragStart: (key: string, e: PointerEvent<HTMLElement>) => void
  onDragMove: (e: PointerEvent<HTMLElement>) => void
  onDragEnd: (e: PointerEvent<HTMLElement>) => void
  onDragCancel: (e: PointerEvent<HTMLElement>) => void
}) {
  const { store, blockKey: key, block, selected } = props
  const { t } = useLingui()
  const title = useBlockTitle()
  const name = title(block)
  return (
    <Group
      role="listitem"
      aria-setsize={props.count}
      aria-posinset={props.index + 1}
      data-layer-key={key}
      gap={4}
      wrap="nowrap"
      bg={selected ? 'var(--mantine-color-blue-light)' : undefined}
      style={{
        position: 'absolute',
        top: props.index * LAYER_ROW_PITCH,
        left: 0,
        right: 0,
        height: LAYER_ROW_HEIGHT,
        borderRadius: 'var(--mantine-radius-sm)',
        opacity: props.dragging ? 0.5 : 1,
      }}
    >
      {/* A finger's grip (44 px): keyboard users reorder with «Выше» and «Ниже» instead. */}
      <Box
        role="img"
        aria-label={t`Перетащить слой «${name}»`}
        style={{
          width: 44,
          height: 44,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          flexShrink: 0,
          cursor: props.dragging ? 'grabbing' : 'grab',
          // The finger moves the row, not the list or the page.
          touchAction: 'none',
          userSelect: 'none',
          color: 'var(--mantine-color-dimmed)',
        }}
        onPointerDown={(e) => props.onDragStart(key, e)}
        onPointerMove={props.onDragMove}
        onPointerUp={props.onDragEnd}
        onPointerCancel={props.onDragCancel}
      >
        <IconGripVertical size={18} aria-hidden />
      </Box>
      <PlainButton
        style={{
          flex: 1,
          minWidth: 0,
          minHeight: 40,
          paddingInline: 'var(--mantine-spacing-xs)',
        }}
        aria-pressed={selected}
        onClick={(e) =>
          e.shiftKey || store.getState().multiSelect ? store.toggleSelect(key) : store.select([key])
        }
      >
        <Group gap={8} wrap="nowrap">
          <BlockIcon type={block.type} />
          <Text size="sm" truncate="end">
            {name}
          </Text>
          {props.conflict ? (
            <Badge color="orange" data-testid="layer-conflict">
              <Trans>конфликт</Trans>
            </Badge>
          ) : null}
        </Group>
      </PlainButton>
      {/* Only on the selected rows (a keyboard selects a row with Enter, then tabs to them): on
          every row the two buttons left a tablet's panel 4 letters of each name. Not on the
          focused row: a mouse focuses a row's name as it presses it, and buttons coming in then
          moved the name from under the pointer before it was released (no click, no selection). */}
      {selected ? (
        <>
          <IconButton
            variant="subtle"
            aria-label={t`Выше`}
            disabled={props.first}
            onClick={() => store.bringForward([key])}
          >
            <IconArrowUp size={18} />
          </IconButton>
          <IconButton
            variant="subtle"
            aria-label={t`Ниже`}
            disabled={props.last}
            onClick={() => store.sendBackward([key])}
          >
            <IconArrowDown size={18} />
          </IconButton>
        </>
      ) : null}
    </Group>
  )
})
