import './editor-messages.ts'
import { Trans, useLingui } from '@lingui/react/macro'
import { Box, Divider, Group, Paper, ScrollBox, Stack, Text, Title } from '../../ui/layout.tsx'
import { Button, IconButton } from '../../ui/button.tsx'
import { AnchorLink } from '../../ui/links.tsx'
import { Menu } from '../../ui/menu.ts'
import { NativeSelect } from '../../ui/text-input.tsx'
import { Tooltip } from '../../ui/tooltip.ts'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import {
  IconArrowBackUp,
  IconArrowLeft,
  IconArrowForwardUp,
  IconSelectAll,
  IconArrowsMaximize,
  IconClipboard,
  IconCopy,
  IconDeviceFloppy,
  IconEye,
  IconLayersSubtract,
  IconStackBack,
  IconStackFront,
  IconTrash,
  IconZoomIn,
  IconZoomOut,
} from '@tabler/icons-react'
import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
  type RefObject,
} from 'react'
import { BLOCK_TYPES, type BlockType } from '../../domain/block.ts'
import { DEFAULT_GRID_SIZE, type Point } from '../../domain/geometry.ts'
import type { ProjectTypeId } from '../../domain/project.ts'
import { AddBackgroundButton, SectionList, SlideStrip } from './backgrounds-nav.tsx'
// Pixi comes with the editor route's own chunk (the route is split lazily), never with the entry
// (STACK trap 3). A second dynamic import here would split helpers shared with the entry into
// extra first-load chunks (measured: +0.4 KiB gzip on /projects).
import EditorCanvas from './canvas/editor-canvas.tsx'
import { BlockIcon } from './block-icons.tsx'
import toolbarClasses from './editor-toolbar.module.css'
import { useDefaultTexts } from './blocks/use-block-labels.ts'
import type { CanvasController } from './canvas/scene-host.ts'
import type { EditorData } from './editor-data.ts'
import { useWarmFonts } from './fonts/use-fonts.ts'
import { BlockInspector, useBlockTypeLabel } from './inspector/block-inspector.tsx'
import { LayersPanel } from './layers-panel.tsx'
import { EditorStore } from './model/editor-store.ts'
import { editorKindOf, FRAME_WIDTH } from './model/layout.ts'
import { ProjectPreview } from './preview/project-preview.tsx'
import { AlignTools, SelectionPanel } from './selection-panel.tsx'
import { SidePanel, useSidePanels } from './side-panels.tsx'
import { useAutosave, type SaveState } from './use-autosave.ts'
import { useSyncStatus } from './use-editor-data.ts'
import { useSessionUser } from '../auth/index.ts'
import { useShortcuts } from './use-shortcuts.ts'
import { SwitchField } from '../../ui/switch-field.tsx'
import { openSyncPanel, syncState, useSyncStateLabel } from '../sync-state/index.ts'
import { PublishControl } from '../publishing/index.ts'
import { useTouchFirst } from '../../ui/use-touch-first.ts'

/** Grid steps offered, in screen px at 100% zoom (20 by default: docs/editor.md "Geometry"). */
const GRID_SIZES = [5, 10, 20, 40, 50] as const

export interface EditorPageProps {
  data: EditorData
  type: ProjectTypeId
  /** The sync status shown beside «Сохранить» (the editor shows its own save state without it). */
  saveStatus?: ReactNode
  /** Called after «Сохранить» handed the changes to the data layer (e.g. replay the outbox now). */
  onSave?: () => void
}

/** The canvas editor of a project: type 1 «Лендинг» (stacked sections) or type 2 «Сторис» (slides). */
export function EditorPage({ data, type, saveStatus, onSave }: EditorPageProps) {
  const { t } = useLingui()
  const kind = editorKindOf(type)
  useDocumentTitle(data.project.name)
  const texts = useDefaultTexts()
  const [store] = useState(
    () =>
      new EditorStore({
        frameWidth: FRAME_WIDTH[kind],
        texts,
      }),
  )
  useEffect(() => {
    store.setBackgrounds(data.backgrounds)
    store.syncFromData(data.blocks)
  }, [store, data.backgrounds, data.blocks])
  const state = useSyncExternalStore(store.subscribe, store.getState)
  useWarmFonts(state.blocks)

  // The background being edited, by its client key: it survives its id changing when it syncs.
  const [active, setActive] = useState<{ key: string | null; index: number }>({
    key: null,
    index: 0,
  })
  const activeIndex = (() => {
    const byKey = data.backgrounds.findIndex((bg) => (bg.ck ?? String(bg.id)) === active.key)
    if (byKey >= 0) return byKey
    return Math.min(active.index, Math.max(0, data.backgrounds.length - 1))
  })()
  const activeBg = data.backgrounds[activeIndex] ?? null
  const activeBgId = activeBg?.id ?? null
  // A story shows one slide: the inspector never edits a block of a slide no longer on screen.
  useEffect(() => {
    if (kind === 'stories' && activeBgId !== null) store.limitSelection(activeBgId)
  }, [kind, store, activeBgId])
  const selectBackground = useCallback(
    (id: number) => {
      // A background just added is not listed yet: its key is the id it was made with.
      const index = data.backgrounds.findIndex((bg) => bg.id === id)
      const key = data.backgrounds[index]?.ck ?? String(id)
      setActive({ key, index: index >= 0 ? index : data.backgrounds.length })
    },
    [data.backgrounds],
  )

  const [grid, setGrid] = useState({ enabled: true, size: DEFAULT_GRID_SIZE })
  const [previewing, setPreviewing] = useState(false)
  const previewBlocks = useMemo(
    () => (previewing ? Array.from(state.blocks.values()) : []),
    [previewing, state.blocks],
  )
  const [zoom, setZoom] = useState(1)
  const controller = useRef<CanvasController | null>(null)
  const onController = useCallback((c: CanvasController | null) => {
    controller.current = c
  }, [])
  const [menu, setMenu] = useState<{ point: Point; key: string | null } | null>(null)
  const onContextMenu = useCallback(
    (point: Point, key: string | null) => setMenu({ point, key }),
    [],
  )
  const onActiveBackground = useCallback((id: number) => selectBackground(id), [selectBackground])

  // Landing: going to a section scrolls to it (once it is laid out).
  const pendingReveal = useRef<number | null>(null)
  const goTo = (id: number) => {
    selectBackground(id)
    if (kind === 'landing') {
      pendingReveal.current = id
      controller.current?.reveal(id)
    }
  }
  useEffect(() => {
    const id = pendingReveal.current
    if (id !== null && data.backgrounds.some((bg) => bg.id === id)) {
      controller.current?.reveal(id)
      pendingReveal.current = null
    }
  }, [data.backgrounds])

  // Side panels collapse (in portrait by default): the canvas takes the width and fits again.
  const panels = useSidePanels()
  useEffect(() => {
    controller.current?.refit()
  }, [panels.open.layers, panels.open.inspector])

  const owner = useSessionUser()?.id ?? null
  const { status, saveNow } = useAutosave(store, data, owner)
  useShortcuts({
    store,
    activeBgId,
    zoomBy: (f) => controller.current?.zoomBy(f),
    enabled: menu === null && !previewing,
  })

  const drawn = useMemo(
    () => (kind === 'landing' ? data.backgrounds : activeBg ? [activeBg] : []),
    [kind, data.backgrounds, activeBg],
  )
  const specialistNames = useMemo(
    () => new Map(data.specialists.map((s) => [s.id, s.name])),
    [data.specialists],
  )
  const specialistName = useCallback(
    (id: number | null) => (id === null ? null : (specialistNames.get(id) ?? null)),
    [specialistNames],
  )
  const blockCounts = useMemo(() => {
    const counts = new Map<number, number>()
    for (const b of state.blocks.values()) counts.set(b.bg_id, (counts.get(b.bg_id) ?? 0) + 1)
    return counts
  }, [state.blocks])

  const selected = state.selection.length === 1 ? state.blocks.get(state.selection[0]!) : undefined
  const selectedKey = state.selection.length === 1 ? state.selection[0]! : null
  const touchFirst = useTouchFirst()

  const nav = {
    kind,
    backgrounds: data.backgrounds,
    activeBgId,
    blockCounts,
    resolveFileUrl: data.resolveFileUrl,
    addBackground: data.addBackground,
    onSelect: goTo,
  }

  return (
    <Stack
      gap="xs"
      h="calc(100dvh - var(--app-shell-header-height, 60px) - 2 * var(--app-shell-padding, 16px))"
      mih={480}
    >
      <Toolbar
        title={data.project.name}
        publish={<PublishControl project={data.project} beforePublish={saveNow} />}
        store={store}
        canUndo={state.canUndo}
        canRedo={state.canRedo}
        multiSelect={state.multiSelect}
        canAdd={activeBgId !== null}
        onAdd={(type) => activeBgId !== null && store.add(type, activeBgId)}
        zoom={zoom}
        controller={controller}
        grid={grid.enabled}
        onGrid={(enabled) => setGrid((g) => ({ ...g, enabled }))}
        gridSize={grid.size}
        onGridSize={(size) => setGrid((g) => ({ ...g, size }))}
        status={saveStatus ?? <SaveStatusText status={status} />}
        onSave={() => {
          void saveNow().then(() => onSave?.())
        }}
        onPreview={() => setPreviewing(true)}
      />
      <ProjectPreview
        opened={previewing}
        onClose={() => setPreviewing(false)}
        kind={kind}
        backgrounds={data.backgrounds}
        blocks={previewBlocks}
        specialists={data.specialists}
        resolveFileUrl={data.resolveFileUrl}
      />
      <Group gap="xs" align="stretch" wrap="nowrap" flex={1} mih={0}>
        <SidePanel
          side="layers"
          open={panels.open.layers}
          onToggle={() => panels.toggle('layers')}
          label={kind === 'landing' ? t`Панель секций и слоёв` : t`Панель слоёв`}
          width={260}
        >
          <Box
            px="sm"
            pb="sm"
            style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column', gap: 12 }}
          >
            {kind === 'landing' ? (
              <ScrollBox mah="45%">
                <SectionList {...nav} />
              </ScrollBox>
            ) : null}
            <LayersPanel store={store} state={state} bgId={activeBgId} />
          </Box>
        </SidePanel>
        <Paper withBorder flex={1} miw={0} pos="relative" style={{ overflow: 'hidden' }}>
          {data.backgrounds.length === 0 ? (
            <EmptyCanvas data={data} kind={kind} onAdded={goTo} />
          ) : (
            <EditorCanvas
              store={store}
              backgrounds={drawn}
              kind={kind}
              grid={grid}
              resolveFileUrl={data.resolveFileUrl}
              specialistName={specialistName}
              onController={onController}
              onZoomChange={setZoom}
              onActiveBackground={onActiveBackground}
              onContextMenu={onContextMenu}
            />
          )}
          <CanvasMenu
            menu={menu}
            onClose={() => setMenu(null)}
            store={store}
            activeBgId={activeBgId}
          />
        </Paper>
        <SidePanel
          side="inspector"
          open={panels.open.inspector}
          onToggle={() => panels.toggle('inspector')}
          label={t`Панель свойств`}
          width={300}
        >
          <ScrollBox h="100%" stableGutter>
            <Box p="md">
              {selected && selectedKey ? (
                <Stack gap="lg">
                  <BlockInspector
                    key={selectedKey}
                    block={selected}
                    background={store.background(selected.bg_id)}
                    backgrounds={data.backgrounds}
                    kind={kind}
                    keepAspect={state.keepAspect}
                    onKeepAspect={(keep) => store.setKeepAspect(keep)}
                    specialists={data.specialists}
                    uploadFile={data.uploadFile}
                    resolveFileUrl={data.resolveFileUrl}
                    useUploadProgress={data.useUploadProgress}
                    onChange={(patch, tag) => store.update(selectedKey, patch, tag)}
                  />
                  <Divider />
                  <AlignTools store={store} count={1} />
                </Stack>
              ) : state.selection.length > 1 ? (
                <SelectionPanel store={store} count={state.selection.length} />
              ) : (
                <Stack gap="sm">
                  <Title order={3} fz="lg">
                    <Trans>Свойства</Trans>
                  </Title>
                  <Text size="sm" c="dimmed">
                    {touchFirst ? (
                      <Trans>
                        Коснитесь блока на холсте, чтобы изменить его. Чтобы выбрать несколько,
                        включите «Выбор нескольких» на панели или обведите их рамкой.
                      </Trans>
                    ) : (
                      <Trans>
                        Выберите блок на холсте, чтобы изменить его. Чтобы выбрать несколько,
                        удерживайте Shift или обведите их рамкой.
                      </Trans>
                    )}
                  </Text>
                </Stack>
              )}
            </Box>
          </ScrollBox>
        </SidePanel>
      </Group>
      {kind === 'stories' ? (
        <Paper withBorder p={6}>
          <SlideStrip {...nav} />
        </Paper>
      ) : (
        <Box hiddenFrom="md">
          <Paper withBorder p={6}>
            <SlideStrip {...nav} />
          </Paper>
        </Box>
      )}
    </Stack>
  )
}

function EmptyCanvas({
  data,
  kind,
  onAdded,
}: {
  data: EditorData
  kind: 'landing' | 'stories'
  onAdded: (id: number) => void
}) {
  const { t } = useLingui()
  return (
    <Stack align="center" justify="center" h="100%" p="xl" ta="center" gap="sm">
      <Title order={2} fz="xl">
        {kind === 'landing' ? (
          <Trans>Добавьте первую секцию</Trans>
        ) : (
          <Trans>Добавьте первый слайд</Trans>
        )}
      </Title>
      <Text c="dimmed" maw={420}>
        {kind === 'landing' ? (
          <Trans>
            Каждая секция лендинга — это фоновое изображение. Блоки размещаются поверх него.
          </Trans>
        ) : (
          <Trans>
            Каждый слайд — вертикальное фоновое изображение 9:16. Блоки размещаются поверх него.
          </Trans>
        )}
      </Text>
      <AddBackgroundButton
        addBackground={data.addBackground}
        onAdded={onAdded}
        label={t`Загрузить фон`}
        kind={kind}
      />
    </Stack>
  )
}

/**
 * The toolbar's save state: the editor's own while changes are still in it (waiting for the pause,
 * being written to the device, failed); once they are on the device, the same words as the header's
 * sync status — one source, so «Сохранено» never shows while changes wait for the network.
 */
export function SaveStatusText({ status }: { status: SaveState }) {
  const sync = useSyncStatus()
  const state = syncState(sync)
  const synced = useSyncStateLabel(state, sync)
  const text = {
    saved: synced,
    pending: <Trans>Есть несохранённые изменения</Trans>,
    saving: <Trans>Сохраняется…</Trans>,
    error: <Trans>Не удалось сохранить</Trans>,
  }[status]
  const alarming = status === 'error' || (status === 'saved' && state === 'parked')
  const said = (
    <Text size="sm" c={alarming ? 'red.9' : 'dimmed'} role="status" aria-live="polite">
      {text}
    </Text>
  )
  if (!(status === 'saved' && state === 'parked')) return said
  // «Конфликты: N» / «Отклонено: N» opens the choices (the header's sync panel).
  return (
    <Button
      variant="subtle"
      color="red"
      size="compact-sm"
      onClick={openSyncPanel}
      aria-haspopup="dialog"
      data-testid="editor-parked"
    >
      {said}
    </Button>
  )
}

/**
 * The status's place in the toolbar: one width and height whatever it says, two lines at most, so
 * «Нет сети» after «Всё сохранено» never rewraps the toolbar and moves the canvas under a finger.
 */
function StatusSlot({ children }: { children: ReactNode }) {
  return (
    <Box
      data-testid="editor-status"
      w={190}
      h={40}
      style={{ display: 'flex', alignItems: 'center', overflow: 'hidden', lineHeight: 1.25 }}
    >
      <Box style={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical' }}>
        {children}
      </Box>
    </Box>
  )
}

function Toolbar(props: {
  title: string
  publish: ReactNode
  store: EditorStore
  canUndo: boolean
  canRedo: boolean
  multiSelect: boolean
  canAdd: boolean
  onAdd: (type: BlockType) => void
  zoom: number
  controller: RefObject<CanvasController | null>
  grid: boolean
  onGrid: (enabled: boolean) => void
  gridSize: number
  onGridSize: (size: number) => void
  status: ReactNode
  onSave: () => void
  onPreview: () => void
}) {
  const { t } = useLingui()
  const typeLabel = useBlockTypeLabel()
  const percent = Math.round(props.zoom * 100)
  return (
    <Paper withBorder p={6} data-testid="editor-toolbar" className={toolbarClasses.toolbar}>
      {/* Where the person is and the way back, as on every other screen. */}
      <Group gap="sm" wrap="nowrap" mb={4} miw={0}>
        <AnchorLink
          to="/projects"
          style={{
            display: 'inline-flex',
            alignItems: 'center',
            gap: 4,
            minHeight: 44,
            fontSize: 'var(--mantine-font-size-sm)',
          }}
        >
          <IconArrowLeft size={18} aria-hidden />
          <Trans>Проекты</Trans>
        </AnchorLink>
        <Title order={1} fz="lg" lineClamp={1} title={props.title} style={{ minWidth: 0 }}>
          {props.title}
        </Title>
        {props.publish}
      </Group>
      <Group gap={6} wrap="wrap" justify="flex-end" className={toolbarClasses.rows}>
        <Group
          gap={4}
          wrap="wrap"
          role="toolbar"
          aria-label={t`Добавить блок`}
          className={toolbarClasses.types}
        >
          {BLOCK_TYPES.map((type) => {
            const name = typeLabel(type)
            return (
              // After a moment, so a pointer passing over the row flashes none, and at once whole:
              // a tooltip fading in is text of too little contrast while it fades.
              <Tooltip
                key={type}
                label={t`Добавить блок «${name}»`}
                openDelay={300}
                transitionProps={{ duration: 0 }}
              >
                <Button
                  variant="default"
                  size="sm"
                  className={toolbarClasses.add}
                  aria-label={name}
                  disabled={!props.canAdd}
                  leftSection={<BlockIcon type={type} />}
                  onClick={() => props.onAdd(type)}
                >
                  <span className={toolbarClasses.addLabel}>{name}</span>
                </Button>
              </Tooltip>
            )
          })}
        </Group>
        {/* Four clusters, each wrapping as a whole to the next row where the row has no room
            (on a tablet in portrait «Сохранить» stays on screen), to the right of every row. */}
        <Group gap={4} wrap="nowrap">
          <Tooltip label={t`Отменить (Ctrl+Z)`}>
            <IconButton
              variant="default"
              aria-label={t`Отменить`}
              disabled={!props.canUndo}
              onClick={() => props.store.undo()}
            >
              <IconArrowBackUp size={20} />
            </IconButton>
          </Tooltip>
          <Tooltip label={t`Повторить (Shift+Ctrl+Z)`}>
            <IconButton
              variant="default"
              aria-label={t`Повторить`}
              disabled={!props.canRedo}
              onClick={() => props.store.redo()}
            >
              <IconArrowForwardUp size={20} />
            </IconButton>
          </Tooltip>
          {/* A finger has no Shift: in this mode each tap adds a block or takes it out. */}
          <Tooltip label={t`Касание добавляет блок к выделению или убирает его`}>
            <IconButton
              variant={props.multiSelect ? 'filled' : 'default'}
              aria-label={t`Выбор нескольких`}
              aria-pressed={props.multiSelect}
              onClick={() => props.store.setMultiSelect(!props.multiSelect)}
            >
              <IconSelectAll size={20} />
            </IconButton>
          </Tooltip>
        </Group>
        <Group gap={4} wrap="nowrap">
          <IconButton
            variant="default"
            aria-label={t`Уменьшить`}
            onClick={() => props.controller.current?.zoomBy(0.8)}
          >
            <IconZoomOut size={20} />
          </IconButton>
          <Text size="sm" w={48} ta="center" aria-label={t`Масштаб`}>
            {percent}%
          </Text>
          <IconButton
            variant="default"
            aria-label={t`Увеличить`}
            onClick={() => props.controller.current?.zoomBy(1.25)}
          >
            <IconZoomIn size={20} />
          </IconButton>
          <IconButton
            variant="default"
            aria-label={t`Вписать в экран`}
            onClick={() => props.controller.current?.fit()}
          >
            <IconArrowsMaximize size={20} />
          </IconButton>
        </Group>
        <Group gap={6} wrap="nowrap">
          <SwitchField
            label={t`Сетка`}
            checked={props.grid}
            onChange={(e) => props.onGrid(e.currentTarget.checked)}
          />
          <NativeSelect
            aria-label={t`Шаг сетки`}
            style={{ width: 80 }}
            disabled={!props.grid}
            value={String(props.gridSize)}
            onChange={(e) => props.onGridSize(Number(e.currentTarget.value))}
            data={GRID_SIZES.map((size) => ({ value: String(size), label: String(size) }))}
          />
        </Group>
        <Group gap={6} wrap="nowrap">
          <Button variant="default" leftSection={<IconEye size={18} />} onClick={props.onPreview}>
            <Trans>Предпросмотр</Trans>
          </Button>
          <StatusSlot>{props.status}</StatusSlot>
          <Button leftSection={<IconDeviceFloppy size={18} />} onClick={props.onSave}>
            <Trans>Сохранить</Trans>
          </Button>
        </Group>
      </Group>
    </Paper>
  )
}

/** Right-click or long-press on the canvas. */
function CanvasMenu({
  menu,
  onClose,
  store,
  activeBgId,
}: {
  menu: { point: Point; key: string | null } | null
  onClose: () => void
  store: EditorStore
  activeBgId: number | null
}) {
  const hasSelection = store.getState().selection.length > 0
  const run = (action: () => void) => () => {
    action()
    onClose()
  }
  return (
    <Menu
      opened={menu !== null}
      onClose={onClose}
      position="bottom-start"
      withinPortal
      shadow="md"
      // A long press ends with touch and mouse events of its own; only a new press outside closes.
      clickOutsideEvents={['pointerdown']}
    >
      <Menu.Target>
        <Box
          style={{
            position: 'absolute',
            left: menu?.point.x ?? 0,
            top: menu?.point.y ?? 0,
            width: 1,
            height: 1,
            pointerEvents: 'none',
          }}
          // Only the point the menu opens at: the menu itself is announced, this anchor is not (a
          // role that allows the aria-expanded Mantine puts on it, hidden from assistive tech).
          role="button"
          aria-hidden
        />
      </Menu.Target>
      <Menu.Dropdown>
        {hasSelection ? (
          <>
            <Menu.Item leftSection={<IconCopy size={16} />} onClick={run(() => store.copy())}>
              <Trans>Копировать</Trans>
            </Menu.Item>
            <Menu.Item
              leftSection={<IconLayersSubtract size={16} />}
              onClick={run(() => store.duplicate())}
            >
              <Trans>Дублировать</Trans>
            </Menu.Item>
          </>
        ) : null}
        <Menu.Item
          leftSection={<IconClipboard size={16} />}
          disabled={!store.hasClipboard() || activeBgId === null}
          onClick={run(() => activeBgId !== null && store.paste(activeBgId))}
        >
          <Trans>Вставить</Trans>
        </Menu.Item>
        {hasSelection ? (
          <>
            <Menu.Divider />
            <Menu.Item
              leftSection={<IconStackFront size={16} />}
              onClick={run(() => store.bringToFront())}
            >
              <Trans>На передний план</Trans>
            </Menu.Item>
            <Menu.Item onClick={run(() => store.bringForward())}>
              <Trans>Выше</Trans>
            </Menu.Item>
            <Menu.Item onClick={run(() => store.sendBackward())}>
              <Trans>Ниже</Trans>
            </Menu.Item>
            <Menu.Item
              leftSection={<IconStackBack size={16} />}
              onClick={run(() => store.sendToBack())}
            >
              <Trans>На задний план</Trans>
            </Menu.Item>
            <Menu.Divider />
            <Menu.Item
              color="red"
              leftSection={<IconTrash size={16} />}
              onClick={run(() => store.remove())}
            >
              <Trans>Удалить</Trans>
            </Menu.Item>
          </>
        ) : activeBgId !== null ? (
          <Menu.Item onClick={run(() => store.selectAll(activeBgId))}>
            <Trans>Выделить всё</Trans>
          </Menu.Item>
        ) : null}
      </Menu.Dropdown>
    </Menu>
  )
}
